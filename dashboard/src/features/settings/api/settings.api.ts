import type { Schemas } from '@folio/client';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type Paged, unwrap, unwrapPage } from '../../../lib/api';
import { useApi } from '../../auth';
import { projectKeys } from '../../projects';

export type Project = Schemas['Project'];
export type ProjectChanges = Schemas['UpdateProjectBody'];
export type Deploy = Schemas['Deploy'];

const deployKeys = (projectId: string) => ['project', projectId, 'deploys'] as const;

/** PATCH /v1/projects/:id and rotate-key; the project (and the project list, for its name) are refreshed. */
export function useProjectWrites(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const saved = (project: Project) => {
    queryClient.setQueryData(projectKeys.one(projectId), project);
    void queryClient.invalidateQueries({ queryKey: projectKeys.list });
  };
  const path = { path: { id: projectId } };
  return {
    update: useMutation({
      mutationFn: async (body: ProjectChanges) =>
        unwrap(await api.PATCH('/v1/projects/{id}', { params: path, body })),
      onSuccess: saved,
    }),
    rotateKey: useMutation({
      mutationFn: async () => unwrap(await api.POST('/v1/projects/{id}/rotate-key', { params: path })),
      onSuccess: saved,
    }),
  };
}

/** The deploy hook calls, newest first, a page at a time; read again every 2 s while one is pending. */
export function useDeploys(projectId: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: deployKeys(projectId),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Paged<Deploy>) => last.nextCursor,
    queryFn: async ({ pageParam }) =>
      unwrapPage(
        await api.GET('/v1/projects/{id}/deploys', {
          params: {
            path: { id: projectId },
            query: { limit: 20, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 2000 : false,
  });
}
