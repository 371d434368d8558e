import { useQuery } from '@tanstack/react-query';
import { inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';

export const pageKeys = {
  list: (projectId: string) => ['project', projectId, 'pages'] as const,
};

/** GET /v1/pages: every page with a definition or an entry, with its counts (contract §6). */
export function usePages(projectId: string) {
  const api = useApi();
  return useQuery({
    queryKey: pageKeys.list(projectId),
    queryFn: async () => unwrap(await api.GET('/v1/pages', { headers: inProject(projectId) })),
  });
}

/** A page path in an address: "/" becomes "%2F" (one path segment). */
export const pagePath = (projectId: string, pageId: string) =>
  `/p/${projectId}/pages/${encodeURIComponent(pageId)}`;
