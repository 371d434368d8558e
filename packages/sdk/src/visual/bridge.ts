import type { ComponentDefinition, Entry, PageEntry } from '../types.js';
import type { EditorMessage, MessageBody, SiteMessage } from './protocol.js';
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
export type Post = (message: MessageBody<SiteMessage>) => void;

/** A message of the editor this end knows, with the fields its type needs; anything else is null. */
export function asEditorMessage(data: unknown): EditorMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.folio !== 'bridge' || m.v !== 1) return null;
  const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
  const valid =
    m.type === 'init'
      ? typeof m.previewToken === 'string' && typeof m.pageId === 'string'
      : m.type === 'draft'
        ? typeof m.entryId === 'string' &&
          typeof m.fields === 'object' &&
          m.fields !== null &&
          !Array.isArray(m.fields) &&
          (m.locale === undefined || typeof m.locale === 'string')
        : m.type === 'highlight' &&
          (typeof m.entryId === 'string' || m.entryId === null) &&
          optionalString(m.path);
  return valid ? (m as unknown as EditorMessage) : null;
}

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
  const post: Post = (body) => {
    const message: SiteMessage = { folio: 'bridge', v: 1, ...body };
    parent.postMessage(message, editorOrigin);
  };
  let session: Session | undefined;
  let sent = 0;
  const hello = () => (++sent > 20 ? clearInterval(repeat) : post({ type: 'hello', pageId }));
  const repeat = setInterval(hello, 500);
  const giveUp = setTimeout(() => removeEventListener('message', listen), 10_000);
  hello();

  async function start(previewToken: string): Promise<void> {
    const { createSession } = await import('./session.js');
    session ??= createSession(host, post);
    host.begin(previewToken, session);
    await host.page(pageId);
    post({ type: 'ready', pageId });
  }

  function listen(event: MessageEvent): void {
    if (event.origin !== editorOrigin || event.source !== parent) return;
    const message = asEditorMessage(event.data);
    if (!message) return;
    if (message.type === 'init') {
      clearInterval(repeat);
      clearTimeout(giveUp);
      start(message.previewToken).catch(host.onError);
    } else session?.receive(message);
  }
  addEventListener('message', listen);
}
