import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api';
import { useApi, useSession } from './session';

/**
 * The account's password writes as mutations, like every other write. Their 401s are about what they
 * carry (a wrong current password, a used link), never the session: the client's 401 handling leaves
 * them alone (`OWN_401` in src/lib/api.ts), so the screens show them.
 */

/** POST /v1/auth/password: signs out the account's other sessions; this one stays. */
export function useChangePassword() {
  const api = useApi();
  return useMutation({
    mutationFn: async (v: { currentPassword: string; newPassword: string }) =>
      unwrap(await api.POST('/v1/auth/password', { body: v })),
  });
}

/**
 * POST /v1/auth/set-password with a link's token: answers as login does, and the tab is signed in
 * (`adopt`) within the mutation, so the caller's next step (leaving the screen) sees the session.
 */
export function useSetPassword() {
  const api = useApi();
  const { adopt } = useSession();
  return useMutation({
    mutationFn: async (v: { token: string; password: string }) => {
      const login = unwrap(await api.POST('/v1/auth/set-password', { body: v }));
      adopt(login);
      return login;
    },
  });
}
