import type { Entry } from '../types.js';
import type { BridgeHost, Post } from './bridge.js';
import { startOverlay } from './overlay.js';
import type { EditorMessage } from './protocol.js';
import { markCode, unmark } from './stega.js';

export interface Session {
  /** An entry as the site should see it: the editor's unsaved fields over it, its text marked. */
  view(entry: Entry): Entry;
  receive(message: EditorMessage): void;
}

interface Overlay {
  fields: Record<string, unknown>;
  /** The version the unsaved fields were typed over; a newer one (a save) replaces them. */
  base?: number;
  /** The locale they were typed in (undefined: a dashboard that names none, or no locales). */
  locale?: string | undefined;
}

/** A field's declaration as far as marking needs: its type and, for containers, what they hold. */
interface Declared {
  key: string;
  type: string;
  fields?: readonly Declared[];
  blocks?: readonly { componentId: string; fields: readonly Declared[] }[];
}

/**
 * Values that address something rather than read as text: URLs, paths, anchors, dates. Marking them
 * would break a link or a parse. Used only for fields whose type this tab does not know (a site that
 * does not register in production); a known type decides by itself.
 */
const ADDRESS = /^(?:[a-z][a-z\d+.-]*:|\/|#|\d{4}-\d\d-\d\d)/i;

/**
 * Whether a draft of `locale` applies to an entry read in `read`. A draft or an entry that names no
 * locale applies as before (an older dashboard; a project without locales). Codes are compared as the
 * API matches them, case aside (`fr-ca` is `fr-CA`).
 */
const sameLocale = (locale: string | undefined, read: string | null | undefined) =>
  !locale || !read || locale.toLowerCase() === read.toLowerCase();

/** ../place.ts's symbol (registered, so this chunk shares no module with the main bundle). */
const PLACE = Symbol.for('folio.place');

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A visual-editing session (a chunk of its own, imported by ./bridge.ts), started by the first valid
 * `init`: overlays of unsaved fields (`draft`), stega marks on the text values handed to the site, and
 * the outlines and clicks of ./overlay.ts.
 *
 * Each mark names the entry and where the value sits (`entryId:path`, the path with items by `_key`:
 * `features[_key=k2].title`, ./protocol.ts), at every depth: a text inside a list item, a block or an
 * object is marked as a top-level one is, so a click on it opens that item's form in the dashboard.
 * `_key` and `_type` are never marked (the site keys and switches on them).
 */
export function createSession(host: Pick<BridgeHost, 'sinks' | 'fields'>, post: Post): Session {
  /** The latest entry read or streamed per id, before overlay and marks. */
  const raw = new Map<string, Entry>();
  const overlays = new Map<string, Overlay>();
  const overlay = startOverlay(document, (entryId, path) =>
    post({ type: 'select', entryId, ...(path ? { path } : {}) }),
  );

  /** Each place's mark, made once: a draft re-marks every value of its entry on each keystroke. */
  const codes = new Map<string, string>();
  const code = (payload: string) => {
    let made = codes.get(payload);
    if (made === undefined) {
      made = markCode(payload);
      codes.set(payload, made);
    }
    return made;
  };

  function markText(type: string | undefined, value: string): boolean {
    if (value === '') return false;
    return type ? type === 'text' || type === 'richtext' : !ADDRESS.test(value);
  }

  /** `value` with its text marked, as the declaration `decl` (if known) says; `path` is where it sits. */
  function marked(entryId: string, decl: Declared | undefined, value: unknown, path: string): unknown {
    if (typeof value === 'string')
      return markText(decl?.type, value) ? value + code(`${entryId}:${path}`) : value;
    if (Array.isArray(value)) {
      // A list or blocks: items with a `_key` get a path by it; anything else is left as it is.
      if (decl && decl.type !== 'list' && decl.type !== 'blocks') return value;
      return value.map((item) => {
        if (!isRecord(item) || typeof item._key !== 'string') return item;
        const fields =
          decl?.type === 'blocks'
            ? decl.blocks?.find((b) => b.componentId === item._type)?.fields
            : decl?.fields;
        return markedFields(entryId, fields, item, `${path}[_key=${item._key}]`);
      });
    }
    // An object only when declared one: an undeclared object may be JSON data, or a link's address.
    if (isRecord(value) && decl?.type === 'object') return markedFields(entryId, decl.fields, value, path);
    return value;
  }

  function markedFields(
    entryId: string,
    declared: readonly Declared[] | undefined,
    values: Record<string, unknown>,
    at: string,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (key === '_key' || key === '_type') out[key] = value;
      else {
        const decl = declared?.find((field) => field.key === key);
        out[key] = marked(entryId, decl, value, at ? `${at}.${key}` : key);
      }
    }
    // Its place, for `editAttributes` (../place.ts): hidden from JSON, spreads and key listings.
    Object.defineProperty(out, PLACE, { value: at ? `${entryId}:${at}` : entryId });
    return out;
  }

  function view(entry: Entry): Entry {
    raw.set(entry.id, entry);
    const held = overlays.get(entry.id);
    // Another language's unsaved fields (held before this entry was read) are not this page's.
    if (held && !sameLocale(held.locale, entry.locale)) overlays.delete(entry.id);
    else if (held && held.base === undefined) held.base = entry.version;
    else if (held && entry.version > (held.base ?? 0)) overlays.delete(entry.id);
    const declared = host.fields.get(entry.componentId) as readonly Declared[] | undefined;
    const fields = markedFields(entry.id, declared, overlays.get(entry.id)?.fields ?? entry.fields, '');
    return { ...entry, fields };
  }

  function draft(entryId: string, given: Record<string, unknown>, locale?: string): void {
    const entry = raw.get(entryId);
    // A draft of another locale than the page's (the dashboard sends every locale's it holds, the
    // editor having typed in French before switching to English): ignored, whatever this page shows.
    if (entry && !sameLocale(locale, entry.locale)) return;
    // Marks pasted from the page into the form are not content.
    const fields = unmarkedDeep(given) as Record<string, unknown>;
    overlays.set(entryId, { fields, base: entry?.version, locale });
    if (!entry) return;
    for (const [sink, pageId] of host.sinks) if (pageId === entry.pageId) sink(entry);
  }

  return {
    view,
    receive(message) {
      if (message.type === 'draft') draft(message.entryId, message.fields, message.locale);
      else if (message.type === 'highlight') overlay.highlight(message.entryId, message.path ?? null);
    },
  };
}

function unmarkedDeep(value: unknown): unknown {
  if (typeof value === 'string') return unmark(value);
  if (Array.isArray(value)) return value.map(unmarkedDeep);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = unmarkedDeep(v);
    return out;
  }
  return value;
}
