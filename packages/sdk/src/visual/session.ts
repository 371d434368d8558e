import type { Entry } from '../types.js';
import type { BridgeHost, BridgeMessage, Post } from './bridge.js';
import { startOverlay } from './overlay.js';
import { mark, unmark } from './stega.js';

export interface Session {
  /** An entry as the site should see it: the editor's unsaved fields over it, its text marked. */
  view(entry: Entry): Entry;
  receive(message: BridgeMessage): void;
}

interface Overlay {
  fields: Record<string, unknown>;
  /** The version the unsaved fields were typed over; a newer one (a save) replaces them. */
  base?: number;
}

/**
 * Values that address something rather than read as text: URLs, paths, anchors, dates. Marking them
 * would break a link or a parse. Used only for fields whose type this tab does not know (a site that
 * does not register in production); a known type decides by itself.
 */
const ADDRESS = /^(?:[a-z][a-z\d+.-]*:|\/|#|\d{4}-\d\d-\d\d)/i;

/**
 * A visual-editing session (a chunk of its own, imported by ./bridge.ts), started by the first valid `init`: overlays of unsaved fields (`draft`),
 * stega marks on the text values handed to the site, and the outlines and clicks of ./overlay.ts.
 */
export function createSession(host: Pick<BridgeHost, 'sinks' | 'fields'>, post: Post): Session {
  /** The latest entry read or streamed per id, before overlay and marks. */
  const raw = new Map<string, Entry>();
  const overlays = new Map<string, Overlay>();
  const overlay = startOverlay(document, (entryId) => post('select', { entryId }));

  function markable(entry: Entry, key: string, value: unknown): value is string {
    if (typeof value !== 'string' || value === '') return false;
    const type = host.fields.get(entry.componentId)?.find((field) => field.key === key)?.type;
    return type ? type === 'text' || type === 'richtext' : !ADDRESS.test(value);
  }

  function view(entry: Entry): Entry {
    raw.set(entry.id, entry);
    const held = overlays.get(entry.id);
    if (held && held.base === undefined) held.base = entry.version;
    else if (held && entry.version > (held.base ?? 0)) overlays.delete(entry.id);
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(overlays.get(entry.id)?.fields ?? entry.fields)) {
      fields[key] = markable(entry, key, value) ? mark(value, entry.id) : value;
    }
    return { ...entry, fields };
  }

  function draft(entryId: string, given: Record<string, unknown>): void {
    // Marks pasted from the page into the form are not content.
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(given))
      fields[key] = typeof value === 'string' ? unmark(value) : value;
    const entry = raw.get(entryId);
    overlays.set(entryId, { fields, base: entry?.version });
    if (!entry) return;
    for (const [sink, pageId] of host.sinks) if (pageId === entry.pageId) sink(entry);
  }

  return {
    view,
    receive(message) {
      if (message.type === 'draft' && typeof message.entryId === 'string') {
        const fields = message.fields;
        if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
          draft(message.entryId, fields as Record<string, unknown>);
        }
      } else if (message.type === 'highlight') {
        overlay.highlight(typeof message.entryId === 'string' ? message.entryId : null);
      }
    },
  };
}
