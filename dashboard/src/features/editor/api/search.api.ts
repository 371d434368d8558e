import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';
import { type Entry, type Site, siteHeaders } from './entries.api';

const searchKeys = {
  pages: (projectId: string, q: string) => ['project', projectId, 'pages', 'search', q] as const,
  entries: (projectId: string, q: string) => ['project', projectId, 'entries', 'search', q] as const,
};

/** Pages whose id contains `q` (GET /v1/pages?q=), for a link's page; shared pages are no route. */
export function usePageSearch(projectId: string, q: string, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: searchKeys.pages(projectId, q),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/pages', { params: { query: { q, limit: 10 } }, headers: inProject(projectId) }),
      ).filter((p) => !p.shared),
  });
}

/** Pages whose entries a reference search reads: enough to find a target, never the whole project. */
const SEARCHED_PAGES = 20;

/**
 * Entries of the pages whose id contains `pageQuery` (the first 20), for a reference's picker: a plain
 * search through the pages' content until the API resolves references by id (issue 36 names it later).
 * The caller filters by component and text.
 */
export function useEntrySearch(site: Site, pageQuery: string, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: searchKeys.entries(site.projectId, pageQuery),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    queryFn: async () => {
      const pages = unwrap(
        await api.GET('/v1/pages', {
          params: { query: { q: pageQuery, limit: SEARCHED_PAGES } },
          headers: inProject(site.projectId),
        }),
      );
      const lists = await Promise.all(
        pages.map(async (p) =>
          unwrap(
            await api.GET('/v1/content/{id}', {
              params: { path: { id: p.pageId } },
              headers: siteHeaders(site),
            }),
          ),
        ),
      );
      return lists.flat() as Entry[];
    },
  });
}
