import type { ComponentDefinition, Entry, PageEntry } from '../types.js';
import type { Session } from './session.js';

/**
 * The site's end of the visual-editing bridge (README, "Visual editing"). The main bundle holds only the state a
 * session changes and a dynamic import of this file, made once a framed page is known
 * (`folio.editable`): a page that is not framed never loads it and gets no listener, attribute or
 * style. Here: `hello` (repeated every 500 ms, 20 times at most, since the dashboard's listener may
 * mount after the frame loads) and one `message` listener, removed after 10 s without an `init`. The
 * session itself (draft overlays, stega marks, outlines, clicks) is a further chunk, imported only
 * after a valid `init`.
 *
 * Trust: a message counts only when it comes from the editor origin AND from window.parent (a sibling
 * frame or a popup of the same origin is not the editor); posts name the editor origin as
 * targetOrigin, so a page framed by a stranger never delivers `hello` to it, and never receives a token.
 */
export interface BridgeMessage {
  folio: 'bridge';
  v: 1;
  type: string;
  [key: string]: unknown;
}

export type Post = (type: string, body: Record<string, unknown>) => void;

/** What folio.ts hands over: its state that a session reads or changes. */
export interface BridgeHost {
  editorOrigin: string;
  pageId: string;
  /** The callbacks of the live streams open now, each with its page. */
  sinks: Map<(entry: Entry) => void, string>;
  /** The fields of the components this tab registered, by componentId. */
  fields: Map<string, ComponentDefinition['fields']>;
  /** Sets the token and the session: live streams restart with both, reads use them. */
  begin(previewToken: string, session: Session): void;
  page(pageId: string): Promise<PageEntry[]>;
  onError(error: unknown): void;
}

export function openBridge(host: BridgeHost): void {
  const { editorOrigin, pageId } = host;
  const parent = window.parent;
  const post: Post = (type, body) =>
    parent.postMessage({ folio: 'bridge', v: 1, type, ...body }, editorOrigin);
  let session: Session | undefined;
  let sent = 0;
  const hello = () => (++sent > 20 ? clearInterval(repeat) : post('hello', { pageId }));
  const repeat = setInterval(hello, 500);
  const giveUp = setTimeout(() => removeEventListener('message', listen), 10_000);
  hello();

  async function start(previewToken: string): Promise<void> {
    const { createSession } = await import('./session.js');
    session ??= createSession(host, post);
    host.begin(previewToken, session);
    await host.page(pageId);
    post('ready', { pageId });
  }

  function listen(event: MessageEvent): void {
    const message = event.data as BridgeMessage | null;
    if (event.origin !== editorOrigin || event.source !== parent) return;
    if (message?.folio !== 'bridge' || message.v !== 1) return;
    if (message.type === 'init' && typeof message.previewToken === 'string') {
      clearInterval(repeat);
      clearTimeout(giveUp);
      start(message.previewToken).catch(host.onError);
    } else session?.receive(message);
  }
  addEventListener('message', listen);
}
