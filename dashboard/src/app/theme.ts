import { createTheme, Modal, Notification } from '@mantine/core';

/**
 * Mantine's default theme: its variables are in @mantine/core/styles.css, so nothing has to be
 * injected at run time (withCssVariables is off). Colours of our own are in app.css.
 */
export const theme = createTheme({
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  primaryColor: 'blue',
  components: {
    // Scroll locking (react-remove-scroll) writes a <style> element, which the CSP refuses; the
    // dialog's overlay already keeps the page behind it out of reach.
    // Its close button is an icon: it needs a name.
    Modal: Modal.extend({ defaultProps: { lockScroll: false, closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
  },
});
