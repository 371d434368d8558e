/**
 * One session for the tabs of one browser, without a token that outlives them. The token stays in
 * each tab's sessionStorage (src/lib/storage.ts: gone when the tab closes, never readable by another
 * origin); a tab opened later (a Ctrl-click, a new window) has none of its own, so it asks the open
 * tabs over a BroadcastChannel, which only documents of this origin in this browser profile can join.
 * An open tab that holds a token answers with it; with no tab open, nobody answers and the new tab
 * shows the sign-in after a short wait. Renewals and sign-outs are told the same way, so a tab never
 * keeps using a token that another tab renewed (the old one ends at once) or signed out.
 *
 * Rejected: localStorage (it outlives the browser session and every later user of the profile would
 * inherit the token), a cookie (it would need the API to accept cookies and CSRF protection on every
 * write), and `window.opener` hand-offs (a link opened with noopener, Ctrl-click included, has none).
 */

const CHANNEL = 'folio.session';
/** How long a new tab waits for an open tab's answer before it shows the sign-in. */
export const ASK_MS = 300;

export interface SharedSession {
  token: string;
  /** The account the token belongs to (drafts and cache are kept per account). */
  account: string;
  /** When the session expires (ISO), as the login or refresh answered. */
  expiresAt: string;
}

type Message =
  | { type: 'ask'; id: string }
  | { type: 'answer'; id: string; session: SharedSession }
  | { type: 'renewed'; from: string; session: SharedSession }
  | { type: 'signedOut'; token: string };

const open = (): BroadcastChannel | undefined =>
  typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(CHANNEL);

/** Asks the open tabs for their session; undefined when none answers within `waitMs`. */
export function askOpenTabs(waitMs = ASK_MS): Promise<SharedSession | undefined> {
  const channel = open();
  if (!channel) return Promise.resolve(undefined);
  const id = crypto.randomUUID();
  return new Promise((resolve) => {
    const finish = (session: SharedSession | undefined) => {
      clearTimeout(timer);
      channel.close();
      resolve(session);
    };
    const timer = setTimeout(() => finish(undefined), waitMs);
    channel.onmessage = (event: MessageEvent<Message>) => {
      if (event.data.type === 'answer' && event.data.id === id) finish(event.data.session);
    };
    channel.postMessage({ type: 'ask', id } satisfies Message);
  });
}

/**
 * While this tab is open: answers new tabs with `current()` (when it holds a session) and hands the
 * renewals and sign-outs of other tabs to `on`. Returns the function that stops.
 */
export function shareWithTabs(
  current: () => SharedSession | undefined,
  on: { renewed(from: string, session: SharedSession): void; signedOut(token: string): void },
): () => void {
  const channel = open();
  if (!channel) return () => {};
  channel.onmessage = (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'ask') {
      const session = current();
      if (session) channel.postMessage({ type: 'answer', id: message.id, session } satisfies Message);
    } else if (message.type === 'renewed') on.renewed(message.from, message.session);
    else if (message.type === 'signedOut') on.signedOut(message.token);
  };
  return () => channel.close();
}

/** Tells the other tabs (not this one: a channel does not hear itself) what happened to the session. */
export function tellTabs(message: Exclude<Message, { type: 'ask' } | { type: 'answer' }>) {
  const channel = open();
  if (!channel) return;
  channel.postMessage(message);
  channel.close();
}
