import type { Schemas } from '@folio/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inProject, unwrap } from '../../../lib/api';
import { useApi, useSession } from '../../auth';
import { projectKeys } from '../../projects';

/** A member (`status: 'active'`) or a pending invitation of an existing account (`'invited'`). */
export type Member = Schemas['User'];
export type Role = Member['role'];

export const userKeys = { list: (projectId: string) => ['project', projectId, 'users'] as const };

/** The project's members (any member may read them; only admins change them). */
export function useMembers(projectId: string) {
  const api = useApi();
  return useQuery({
    queryKey: userKeys.list(projectId),
    queryFn: async () => unwrap(await api.GET('/v1/users', { headers: inProject(projectId) })),
  });
}

export function useMemberWrites(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: userKeys.list(projectId) });
    // The session's own role may have changed (an admin who demoted themselves).
    void queryClient.invalidateQueries({ queryKey: projectKeys.list });
  };
  const headers = inProject(projectId);
  return {
    invite: useMutation({
      mutationFn: async (body: Schemas['CreateUserBody']) =>
        unwrap(await api.POST('/v1/users', { headers, body })),
      onSuccess: refresh,
    }),
    changeRole: useMutation({
      mutationFn: async ({ id, role }: { id: string; role: Role }) =>
        unwrap(await api.PATCH('/v1/users/{id}', { params: { path: { id } }, headers, body: { role } })),
      onSettled: refresh,
    }),
    /** A set-password link for an existing account (contract §15): shown once, handed over by the admin. */
    resetPassword: useMutation({
      mutationFn: async (id: string) =>
        unwrap(await api.POST('/v1/users/{id}/password-reset', { params: { path: { id } }, headers })),
    }),
    /** Removes a member, or cancels a pending invitation (the same DELETE, by account id). */
    remove: useMutation({
      mutationFn: async (id: string) =>
        unwrap(await api.DELETE('/v1/users/{id}', { params: { path: { id } }, headers })),
      onSuccess: refresh,
    }),
  };
}

/**
 * POST /v1/invitations/accept: the signed-in account joins the project its invitation names. The
 * account's projects are read again (the session's `me` and the project list), so the project is
 * there to open at once.
 */
export function useAcceptInvitation() {
  const api = useApi();
  const { refreshUser } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) => {
      const joined = unwrap(await api.POST('/v1/invitations/accept', { body: { token } }));
      await Promise.all([refreshUser(), queryClient.invalidateQueries({ queryKey: projectKeys.list })]);
      return joined;
    },
  });
}
