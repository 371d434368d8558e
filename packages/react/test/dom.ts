import { Window } from 'happy-dom';

/**
 * A browser document for react-dom/client in Node (happy-dom), installed on globalThis for one suite.
 * Only what React needs: window, document, navigator and the element classes. fetch stays Node's, so
 * the SDK talks to the real server as a browser page would.
 */
export function installDom(): () => Promise<void> {
  const window = new Window({ url: 'http://localhost:5173/' });
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    navigator: window.navigator,
    HTMLElement: window.HTMLElement,
    Element: window.Element,
    Node: window.Node,
    Text: window.Text,
    Event: window.Event,
    // Updates come from the network, outside act(): the tests wait for the DOM instead.
    IS_REACT_ACT_ENVIRONMENT: false,
  };
  const previous = new Map<string, PropertyDescriptor | undefined>();
  for (const [name, value] of Object.entries(globals)) {
    previous.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  return async () => {
    await window.happyDOM.close();
    for (const [name, descriptor] of previous) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
  };
}
