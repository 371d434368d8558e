import type { Schemas } from '@folio/client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { inProject, type Paged, unwrapPage } from '../../../lib/api';
import { useApi } from '../../auth';

export const pageKeys = {
  list: (projectId: string) => ['project', projectId, 'pages'] as const,
  search: (projectId: string, q: string) => ['project', projectId, 'pages', 'list', q] as const,
  shared: (projectId: string) => ['project', projectId, 'pages', 'shared'] as const,
};

/** Pages per answer in the list: a screenful, however many the project has (20,000 and more). */
export const PAGES_PER_ANSWER = 50;

/**
 * GET /v1/pages with counts (contract §6), searched by `q` (the id contains it) and read an answer at a
 * time (`meta.nextCursor`): the list never loads every page of a large project.
 */
export function usePages(projectId: string, q: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: pageKeys.search(projectId, q),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Paged<Schemas['PageSummary']>) => last.nextCursor,
    queryFn: async ({ pageParam }) =>
      unwrapPage(
        await api.GET('/v1/pages', {
          params: { query: { q, limit: PAGES_PER_ANSWER, ...(pageParam ? { cursor: pageParam } : {}) } },
          headers: inProject(projectId),
        }),
      ),
  });
}

/** Shared pages (`@site`, …): their ids start with "@", so `q=@` finds them, and `shared` confirms it. */
export function useSharedPages(projectId: string) {
  const api = useApi();
  return useQuery({
    queryKey: pageKeys.shared(projectId),
    queryFn: async () =>
      unwrapPage(
        await api.GET('/v1/pages', {
          params: { query: { q: '@', limit: 100 } },
          headers: inProject(projectId),
        }),
      ).items.filter((p) => p.shared),
  });
}

/** A page path in an address: "/" becomes "%2F" (one path segment). */
export const pagePath = (projectId: string, pageId: string) =>
  `/p/${projectId}/pages/${encodeURIComponent(pageId)}`;
