import type { Schemas } from '@folio/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api';
import { useApi } from '../../auth';

export type ApiKey = Schemas['ApiKey'];

/** Keys belong to the account, not to a project: one list, whichever project is open. */
export const apiKeyKeys = { list: ['api-keys'] as const };

export function useApiKeys() {
  const api = useApi();
  return useQuery({
    queryKey: apiKeyKeys.list,
    queryFn: async () => unwrap(await api.GET('/v1/api-keys')),
  });
}

export function useApiKeyWrites() {
  const api = useApi();
  const queryClient = useQueryClient();
  // Not awaited, so that a caller's onSuccess runs even when the refreshed list unmounts its screen.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: apiKeyKeys.list });
  };
  return {
    create: useMutation({
      mutationFn: async (body: Schemas['CreateApiKeyBody']) =>
        unwrap(await api.POST('/v1/api-keys', { body })),
      onSuccess: refresh,
    }),
    revoke: useMutation({
      mutationFn: async (id: string) =>
        unwrap(await api.DELETE('/v1/api-keys/{id}', { params: { path: { id } } })),
      onSuccess: refresh,
    }),
  };
}
