'use client';

import type { Folio, PageEntry } from '@folio/sdk';
import { createContext, type ReactNode, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { createPageStore, type PageStore } from './store.js';

export const PageContext = createContext<PageStore | null>(null);

export interface FolioProviderProps {
  /** From `createFolio({ url, key, previewToken?, snapshot? })`. */
  folio: Folio;
  /** The page these components are on, e.g. `/` or `/pricing`. */
  pageId: string;
  /**
   * The language of this page's content (contract §14), e.g. `fr` on a site's `/fr/…` routes: every
   * read, live stream and preview of the hooks below asks for it; createFolio's `locale` when absent.
   * Changing it reads the page again in the new locale (from the baked snapshot when there is one).
   * Registering is the same in every locale: declarations are shared.
   */
  locale?: string;
  /**
   * The page's entries, read ahead (`await folio.page(pageId, { locale })` in a loader or a server
   * component), so the first render, on the server too, already has them. Without it they come from
   * the baked snapshot, else from a read after mounting. Read them in the provider's locale.
   */
  entries?: PageEntry[];
  /**
   * Follow changes as they happen (GET /v1/live). By default: when the SDK has a preview token, given
   * to createFolio or handed over at runtime by the dashboard's visual editor.
   */
  live?: boolean;
  /** Failures of the read or the live stream; `console.error` by default. */
  onError?: (error: unknown) => void;
  children?: ReactNode;
}

export function FolioProvider({
  folio,
  pageId,
  locale,
  entries,
  live,
  onError,
  children,
}: FolioProviderProps) {
  // `entries` seeds a new store; later changes of it go through replace() below, not a new store. A
  // new locale is a new store: its first render shows what the SDK holds of that locale, then it reads.
  // biome-ignore lint/correctness/useExhaustiveDependencies: entries is the initial state only
  const store = useMemo(() => createPageStore(folio, pageId, entries, locale), [folio, pageId, locale]);
  // A token the dashboard hands over at runtime (visual editing) switches the page to following live.
  const preview = useSyncExternalStore(
    folio.onPreview,
    () => folio.preview,
    () => folio.preview,
  );
  const following = live ?? preview;
  // The latest onError, without restarting the stream when a new function is passed on each render.
  const report = useRef(onError);
  report.current = onError;
  useEffect(() => {
    const onFailure = (error: unknown) => (report.current ?? console.error)(error);
    return store.start({ live: following, onError: onFailure });
  }, [store, following]);
  useEffect(() => {
    if (entries) store.replace(entries);
  }, [store, entries]);
  // In the dashboard's preview pane, offers the editor a visual-editing session; elsewhere nothing.
  useEffect(() => folio.editable(pageId), [folio, pageId]);
  return <PageContext value={store}>{children}</PageContext>;
}
