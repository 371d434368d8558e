import type { Schemas } from '@folio/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api';
import { useApi, useSession } from '../../auth';

/** Query keys: everything of a project sits under ['project', id], so a switch never mixes data. */
export const projectKeys = {
  list: ['projects'] as const,
  one: (id: string) => ['project', id] as const,
};

/** The session's projects with its role in each. */
export function useProjects() {
  const api = useApi();
  return useQuery({
    queryKey: projectKeys.list,
    queryFn: async () => unwrap(await api.GET('/v1/projects')),
  });
}

/** One project; members see its publishable key, which content writes send as `x-cms-key`. */
export function useProject(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: projectKeys.one(id),
    queryFn: async () => unwrap(await api.GET('/v1/projects/{id}', { params: { path: { id } } })),
  });
}

/**
 * POST /v1/projects needs no session: it creates the project and its admin account, or adds the
 * project to an existing account whose password matches (contract §2), which is how a signed-in
 * editor creates another one.
 */
export function useCreateProject() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; email: string; password: string }) =>
      unwrap(
        await api.POST('/v1/projects', {
          body: { name: body.name, admin: { email: body.email, password: body.password } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.list }),
  });
}

/**
 * The session's role in a project: from the project list (refetched, so a role changed by another admin
 * shows), else from the account read at sign-in. Screens only use it to hide or explain what the API
 * would refuse (403); the API decides.
 */
export function useRole(projectId: string): Schemas['ProjectWithRole']['role'] | undefined {
  const projects = useProjects();
  const { state } = useSession();
  const listed = projects.data?.find((p) => p.id === projectId)?.role;
  if (listed) return listed;
  return state.status === 'signedIn' ? state.user.projects.find((p) => p.id === projectId)?.role : undefined;
}
