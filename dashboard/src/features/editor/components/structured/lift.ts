import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { flushSync } from 'react-dom';

/**
 * How long a field inside a list item, a block or an object keeps what is typed to itself before
 * handing it to the entry's form. Each hand-over re-renders the form and its list (230 rows in the
 * bench's entry); each keystroke re-renders only the field. 100 ms: the preview and the item's title
 * follow within a pause between two keys.
 */
export const LIFT_AFTER_MS = 100;

/** Values typed and not yet handed over, on this page: handed over before the page goes. */
const pending = new Set<() => void>();
let listening = false;
function listen(): void {
  if (listening) return;
  listening = true;
  // A reload or a closed tab: the draft is written to sessionStorage now (lib/drafts.ts).
  addEventListener('pagehide', () => {
    for (const flush of [...pending]) flush();
  });
  // Typing not yet handed over is unsaved typing: the browser asks before leaving, as for a draft.
  addEventListener('beforeunload', (event) => {
    if (pending.size === 0) return;
    for (const flush of [...pending]) flush();
    event.preventDefault();
  });
}

/**
 * A field's changes handed to `onChange` a moment later (LIFT_AFTER_MS after the last one), and at
 * once when the field loses focus (a click on Save, Tab to another field), unmounts (its item
 * collapsed or removed, the page left, the sign-in shown after a 401) or the page goes: never lost, and
 * always handed over by the latest `onChange`, so an item moved meanwhile gets it by its `_key`.
 * Rejected: debouncing at the entry (the list would still re-render on each key) and no hand-over at
 * all until blur (the preview would not follow the typing).
 */
export function useLift<T>(onChange: (value: T) => void) {
  const latest = useRef(onChange);
  useLayoutEffect(() => {
    latest.current = onChange;
  });
  const held = useRef<{ value: T; timer: ReturnType<typeof setTimeout> } | null>(null);
  const lift = useMemo(() => {
    const deliver = (sync: boolean) => {
      const now = held.current;
      if (!now) return;
      held.current = null;
      clearTimeout(now.timer);
      pending.delete(flush);
      // Rendered before anything else happens: the containers build their next value from what they
      // last rendered, so a click handled before this render (a radio of the same item, under load)
      // would build on the item without the typed value and drop it. An event handler's updates are
      // rendered at once anyway; a timer's would wait for the scheduler, hence flushSync.
      if (sync) flushSync(() => latest.current(now.value));
      else latest.current(now.value);
    };
    const flush = () => deliver(true);
    const push = (value: T) => {
      if (held.current) clearTimeout(held.current.timer);
      held.current = { value, timer: setTimeout(flush, LIFT_AFTER_MS) };
      pending.add(flush);
      listen();
    };
    return { push, flush, deliver };
  }, []);
  // Unmounting (flushSync may not run inside React's own commit): handed over as it is.
  useEffect(() => () => lift.deliver(false), [lift]);
  return { push: lift.push, flush: lift.flush };
}
