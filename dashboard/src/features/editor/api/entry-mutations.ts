import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { useApi } from '../../auth';
import { pageKeys } from '../../pages';
import { type Entry, entryKeys, entryWrites, type Site } from './entries.api';

/**
 * The editor's writes of one entry as mutations (TanStack Query), like the other features' writes:
 * each puts the server's answer into the page's entries and marks what it changed as stale, so the
 * form only says what to send and shows the outcome.
 */

/** The saved copy replaces the cached one; the pages list and the entry's history read again. */
function applySaved(queryClient: QueryClient, site: Site, saved: Entry) {
  queryClient.setQueryData<Entry[]>(entryKeys.entries(site.projectId, saved.pageId), (list) =>
    list?.map((e) => (e.id === saved.id ? saved : e)),
  );
  void queryClient.invalidateQueries({ queryKey: pageKeys.list(site.projectId) });
  void queryClient.invalidateQueries({ queryKey: entryKeys.history(site.projectId, saved.id) });
}

export interface SaveVariables {
  entryId: string;
  fields: Record<string, unknown>;
  publish: boolean;
  /** The version the edits were made on (If-Match). */
  version: number;
}

/** PATCH /v1/content/:id, as a draft or published. */
export function useSaveEntry(site: Site) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveVariables) => entryWrites(api, site).save(v.entryId, v.fields, v.publish, v.version),
    onSuccess: (saved) => applySaved(queryClient, site, saved),
  });
}

/** POST /v1/content/:entryId/unpublish. */
export function useUnpublishEntry(site: Site) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { entryId: string; version: number }) =>
      entryWrites(api, site).unpublish(v.entryId, v.version),
    onSuccess: (saved) => applySaved(queryClient, site, saved),
  });
}

/** DELETE /v1/content/:id; the page's entries and the pages list read again. */
export function useRemoveEntry(site: Site) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { entryId: string; pageId: string }) => entryWrites(api, site).remove(v.entryId),
    onSuccess: async (_, v) => {
      void queryClient.invalidateQueries({ queryKey: pageKeys.list(site.projectId) });
      await queryClient.invalidateQueries({ queryKey: entryKeys.page(site.projectId, v.pageId) });
    },
  });
}

/** A rule problem at a path of an entry's fields (`fields.features[2].title`). */
export interface RuleProblem {
  path: string;
  message: string;
}

/** The problems of a `422 unpublishable` answer that concern one entry, or null for any other error. */
export function unpublishableProblems(error: unknown, entryId: string): RuleProblem[] | null {
  if (!(error instanceof ApiError) || error.code !== 'unpublishable' || !Array.isArray(error.details))
    return null;
  return (error.details as { entryId?: unknown; path?: unknown; message?: unknown }[])
    .filter((p) => p.entryId === entryId && typeof p.path === 'string' && typeof p.message === 'string')
    .map((p) => ({ path: p.path as string, message: p.message as string }));
}

/** POST /v1/content/bulk-publish: every draft of the page, all or nothing (a 422 lists every problem). */
export function usePublishPage(site: Site | undefined, pageId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => entryWrites(api, site!).publishPage(pageId),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: pageKeys.list(site!.projectId) });
      await queryClient.invalidateQueries({ queryKey: entryKeys.page(site!.projectId, pageId) });
    },
  });
}
