import type { Schemas } from '@folio/client';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { useApi } from '../../auth';
import { pageKeys } from '../../pages';
import { drafts } from '../lib/drafts';
import { type Entry, entryKeys, entryWrites, type Site } from './entries.api';
import { referenceKeys } from './references.api';

/**
 * The editor's writes of one entry as mutations (TanStack Query), like the other features' writes:
 * each puts the server's answer into the page's entries and marks what it changed as stale, so the
 * form only says what to send and shows the outcome.
 */

/**
 * The saved copy replaces the cached one; the pages list, the entry's history and who refers to what
 * (a saved reference field changes it) read again. Exported for the history screen's restore.
 */
export function applySaved(queryClient: QueryClient, site: Site, saved: Entry) {
  // A save in one locale may change what the others read (a shared value, or a value they fall back
  // on): their copies are marked stale first (read again when shown), then this locale's is replaced.
  if (saved.locale)
    void queryClient.invalidateQueries({
      queryKey: entryKeys.entries(site.projectId, saved.pageId),
      refetchType: 'none',
    });
  queryClient.setQueryData<Entry[]>(
    entryKeys.entries(site.projectId, saved.pageId, saved.locale ?? null),
    (list) => list?.map((e) => (e.id === saved.id ? saved : e)),
  );
  void queryClient.invalidateQueries({ queryKey: pageKeys.list(site.projectId) });
  void queryClient.invalidateQueries({ queryKey: entryKeys.history(site.projectId, saved.id) });
  void queryClient.invalidateQueries({ queryKey: referenceKeys.all(site.projectId) });
}

export interface SaveVariables {
  entryId: string;
  fields: Record<string, unknown>;
  publish: boolean;
  /** The version the edits were made on (If-Match): the locale's own in a project with locales. */
  version: number;
  locale?: string | undefined;
}

/** PATCH /v1/content/:id, as a draft or published. */
export function useSaveEntry(site: Site) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveVariables) =>
      entryWrites(api, site).save(v.entryId, v.fields, v.publish, v.version, v.locale),
    onSuccess: (saved) => applySaved(queryClient, site, saved),
  });
}

/** POST /v1/content/:entryId/unpublish. */
export function useUnpublishEntry(site: Site) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { entryId: string; version: number; locale?: string | undefined }) =>
      entryWrites(api, site).unpublish(v.entryId, v.version, v.locale),
    onSuccess: (saved) => applySaved(queryClient, site, saved),
  });
}

/**
 * DELETE /v1/content/:id (`force`: even when published content refers to it; else a 409 names the
 * referrers); its draft goes, the page's entries, the pages list and the references read again.
 */
export function useRemoveEntry(site: Site) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { entryId: string; pageId: string; force: boolean }) =>
      entryWrites(api, site).remove(v.entryId, v.force),
    onSuccess: async (_, v) => {
      drafts.remove(site.projectId, v.entryId, undefined, true);
      void queryClient.invalidateQueries({ queryKey: pageKeys.list(site.projectId) });
      void queryClient.invalidateQueries({ queryKey: referenceKeys.all(site.projectId) });
      await queryClient.invalidateQueries({ queryKey: entryKeys.page(site.projectId, v.pageId) });
    },
  });
}

/**
 * DELETE /v1/pages/:pageId (admins), `force` as for an entry. The page's drafts go with it and the pages
 * list reads again; its cached entries are forgotten once the caller has left the page (`forget`), so
 * they are not shown if the page comes back.
 */
export function useDeletePage(site: Site, pageId: string, entryIds: readonly string[]) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { force: boolean }) => entryWrites(api, site).removePage(pageId, v.force),
    onSuccess: async () => {
      for (const id of entryIds) drafts.remove(site.projectId, id, undefined, true);
      void queryClient.invalidateQueries({ queryKey: referenceKeys.all(site.projectId) });
      await queryClient.invalidateQueries({ queryKey: pageKeys.list(site.projectId) });
    },
  });
}

/** Forgets a deleted page's cached entries (after its screen is gone, so nothing reads them again). */
export function forgetPage(queryClient: QueryClient, site: Site, pageId: string) {
  queryClient.removeQueries({ queryKey: entryKeys.page(site.projectId, pageId) });
}

/** A rule problem at a path of an entry's fields (`fields.features[2].title`). */
export type RuleProblem = Pick<Schemas['PublishProblem'], 'path' | 'message'>;

/**
 * The problems of a `422 unpublishable` answer that concern one entry, or null for any other error.
 * A problem in another locale than the one on screen (a publish in every locale) names it.
 */
export function unpublishableProblems(
  error: unknown,
  entryId: string,
  locale?: string,
): RuleProblem[] | null {
  if (!(error instanceof ApiError) || error.code !== 'unpublishable' || !Array.isArray(error.details))
    return null;
  return (error.details as Partial<Schemas['PublishProblem']>[])
    .filter((p) => p.entryId === entryId && typeof p.path === 'string' && typeof p.message === 'string')
    .map((p) => ({
      path: p.path!,
      message: locale && p.locale && p.locale !== locale ? `In ${p.locale}: ${p.message!}` : p.message!,
    }));
}

/**
 * POST /v1/content/bulk-publish: every draft of the page, all or nothing (a 422 lists every problem);
 * in a project with locales, in one locale or in every one (`*`).
 */
export function usePublishPage(site: Site | undefined, pageId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { locale?: string | undefined } = {}) =>
      entryWrites(api, site!).publishPage(pageId, v.locale),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: pageKeys.list(site!.projectId) });
      void queryClient.invalidateQueries({ queryKey: referenceKeys.all(site!.projectId) });
      await queryClient.invalidateQueries({ queryKey: entryKeys.page(site!.projectId, pageId) });
    },
  });
}
