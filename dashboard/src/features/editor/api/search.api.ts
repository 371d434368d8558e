import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';

const searchKeys = {
  pages: (projectId: string, q: string) => ['project', projectId, 'pages', 'search', q] as const,
  entries: (projectId: string, q: string, componentIds: readonly string[]) =>
    ['project', projectId, 'entries', 'search', q, ...componentIds] as const,
  chosen: (projectId: string, ids: readonly string[]) =>
    ['project', projectId, 'entries', 'chosen', ...ids] as const,
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

/** How many entries one search lists: the picker narrows them further by the text typed. */
const SEARCHED_ENTRIES = 100;

export type EntrySummary = NonNullable<Awaited<ReturnType<typeof searchEntries>>>[number];

async function searchEntries(
  api: ReturnType<typeof useApi>,
  projectId: string,
  query: { q?: string; componentId?: string[]; ids?: string[] },
) {
  return unwrap(
    await api.GET('/v1/entries', {
      params: { query: { ...query, limit: SEARCHED_ENTRIES } },
      headers: inProject(projectId),
    }),
  );
}

/**
 * Entries whose page id or instance key contains `q` (GET /v1/entries, issue 44), of the components a
 * reference allows: the first 100 in page order, whatever the project's size. Each names its page,
 * component, title and status, without its fields.
 */
export function useEntrySearch(
  projectId: string,
  q: string,
  componentIds: readonly string[],
  enabled = true,
) {
  const api = useApi();
  return useQuery({
    queryKey: searchKeys.entries(projectId, q, componentIds),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    queryFn: () =>
      searchEntries(api, projectId, {
        q,
        ...(componentIds.length > 0 ? { componentId: [...componentIds] } : {}),
      }),
  });
}

/** The chosen entries by id (at most 100, a reference's `max`), so a picker names each by page and component. */
export function useChosenEntries(projectId: string, ids: readonly string[]) {
  const api = useApi();
  const sorted = [...new Set(ids)].sort();
  return useQuery({
    queryKey: searchKeys.chosen(projectId, sorted),
    enabled: sorted.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    queryFn: () => searchEntries(api, projectId, { ids: sorted }),
  });
}
