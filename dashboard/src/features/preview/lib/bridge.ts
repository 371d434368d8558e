import type { BridgeVersion, EditorMessage, MessageBody, SiteMessage } from '@folio/sdk';

/**
 * The dashboard's half of the visual-editing bridge (the root README's "How a site enables preview",
 * and this package's README): the few pure rules. The messages' shapes are typed once, in the SDK
 * (packages/sdk/src/visual/protocol.ts), and imported here as types only, so the dashboard carries
 * none of the SDK's code; the site's half is the SDK's.
 */
export type { SiteMessage } from '@folio/sdk';
export type DashboardMessage = MessageBody<EditorMessage>;

export const PAGE_ID = '{pageId}';
/** Where the template puts the locale the editor works in (optional; empty without locales). */
export const LOCALE = '{locale}';

/** The protocol's version: a literal of the SDK's type, so a new version fails this build until followed. */
const VERSION: BridgeVersion = 1;

export const envelope = (message: DashboardMessage): EditorMessage => ({
  folio: 'bridge',
  v: VERSION,
  ...message,
});

/** A message of the bridge, of this version, with the fields its type needs; anything else is ignored. */
export function asSiteMessage(data: unknown): SiteMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.folio !== 'bridge' || m.v !== VERSION) return null;
  if ((m.type === 'hello' || m.type === 'ready') && typeof m.pageId === 'string')
    return m as unknown as SiteMessage;
  if (
    m.type === 'select' &&
    typeof m.entryId === 'string' &&
    (m.path === undefined || typeof m.path === 'string')
  )
    return m as unknown as SiteMessage;
  return null;
}

export type PreviewTarget =
  | { ok: true; url: string; origin: string }
  | { ok: false; reason: 'unset' | 'invalid' | 'same-origin' | 'moved' | 'shared' };

/**
 * Where the pane points for a page: the template with the page id put in, and the origin the bridge
 * trusts. The origin is the template's (what comes before `{pageId}`), and the expanded URL must keep
 * it: the server refuses templates whose origin a path-like page id could move, but a page id without
 * a leading "/" still could (`https://example.com{pageId}` with "x"). The dashboard's own origin is
 * refused: a same-origin frame could read the editor's session. A shared page (`@…`) has none.
 */
export function previewTarget(
  template: string | null,
  pageId: string,
  ownOrigin: string,
  /** The locale the editor works in: the pane follows the language switcher (undefined: none). */
  locale?: string,
): PreviewTarget {
  // A shared page (`@site`, `@footer`: contract §13) holds content other pages show; it is no page of
  // the site, so no preview URL is built for it.
  if (pageId.startsWith('@')) return { ok: false, reason: 'shared' };
  if (!template) return { ok: false, reason: 'unset' };
  const at = template.indexOf(PAGE_ID);
  const localeAt = template.indexOf(LOCALE);
  const originEnd = localeAt === -1 ? at : Math.min(at, localeAt);
  let origin: string;
  let url: URL;
  try {
    origin = new URL(template.slice(0, originEnd)).origin;
    url = new URL(template.replaceAll(PAGE_ID, pageId).replaceAll(LOCALE, locale ?? ''));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (at < 0 || !/^https?:$/.test(url.protocol)) return { ok: false, reason: 'invalid' };
  if (url.origin !== origin) return { ok: false, reason: 'moved' };
  if (origin === ownOrigin) return { ok: false, reason: 'same-origin' };
  return { ok: true, url: url.href, origin };
}

/**
 * The token is replaced this long before it expires. Counted on the browser's clock from when the token
 * arrived, for its lifetime, rather than from `expiresAt` (the server's clock): an editor's clock that
 * is off by minutes must not make the site hold an expired token, nor renew it over and over.
 */
export const RENEW_BEFORE_MS = 5 * 60_000;

export function renewAfter(lifetimeMs: number): number {
  return Math.max(30_000, lifetimeMs - RENEW_BEFORE_MS);
}
