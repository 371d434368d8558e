import type { ComponentDefinition, Folio, PageEntry } from '@folio/sdk';

/**
 * The entries of one page as the components of that page read them: a small external store for
 * useSyncExternalStore, filled from prefetched entries, the baked snapshot, a read, or the live
 * stream. Each entry keeps its identity until it changes, so a component re-renders only when its
 * own entry does. Keyed by instanceKey: entries from a snapshot carry no id.
 */
export interface PageStore {
  get(instanceKey: string): PageEntry | undefined;
  subscribe(listener: () => void): () => void;
  register(component: ComponentDefinition): void;
  /** Replaces every entry (new prefetched entries for the same page). */
  replace(entries: readonly PageEntry[]): void;
  /** Reads the page unless it was given or baked, or follows it live; returns what stops it. */
  start(options: { live: boolean; onError: (error: unknown) => void }): () => void;
}

export function createPageStore(
  folio: Folio,
  pageId: string,
  initial?: readonly PageEntry[],
  /** The locale read (`?locale=`); undefined: createFolio's. */
  locale?: string,
): PageStore {
  // What the first render shows: the entries given, else what the SDK holds (the baked snapshot, or
  // its last read of the page, which start() then revalidates: one request, a 304 when unchanged).
  const held = folio.peek(pageId, locale);
  let entries = new Map((initial ?? held ?? []).map((entry) => [entry.instanceKey, entry]));
  // Baked and held: nothing to read. Baked without the locale: page() rejects, to onError.
  const settled = initial !== undefined || (folio.baked && held !== undefined);
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const put = (entry: PageEntry) => {
    entries = new Map(entries).set(entry.instanceKey, entry);
    emit();
  };
  const replace = (list: readonly PageEntry[]) => {
    // An entry equal to the one held keeps its identity: its component does not render again. Stega
    // marks (visual editing) count here on purpose: an entry that gained them must render again, or the
    // editor's overlay could not find its component.
    const same = (a: PageEntry | undefined, b: PageEntry) =>
      a !== undefined && JSON.stringify(a) === JSON.stringify(b);
    const next = new Map(list.map((entry) => [entry.instanceKey, entry]));
    let changed = next.size !== entries.size;
    for (const [key, entry] of next) {
      const held = entries.get(key);
      if (held && same(held, entry)) next.set(key, held);
      else changed = true;
    }
    entries = next;
    if (changed) emit();
  };

  return {
    get: (instanceKey) => entries.get(instanceKey),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    register: (component) => void folio.register(pageId, [component]),
    replace,
    start({ live, onError }) {
      let stopped = false;
      // Live: the stream starts with the current state, so a read beside it would only race it.
      if (live) {
        const options = locale === undefined ? undefined : { locale };
        return folio.live(
          pageId,
          put,
          (id) => {
            for (const entry of entries.values()) {
              if (entry.id === id) {
                entries = new Map(entries);
                entries.delete(entry.instanceKey);
                emit();
              }
            }
          },
          options,
        );
      }
      if (!settled) {
        folio
          .page(pageId, locale === undefined ? {} : { locale })
          .then((list) => stopped || replace(list), onError);
      }
      return () => {
        stopped = true;
      };
    },
  };
}
