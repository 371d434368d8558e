import type { Schemas } from '@folio/client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inProject, type Paged, unwrap, unwrapPage } from '../../../lib/api';
import { useApi } from '../../auth';

export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['Delivery'];
export type WebhookBody = Schemas['CreateWebhookBody'];

export const webhookKeys = {
  all: (projectId: string) => ['project', projectId, 'webhooks'] as const,
  deliveries: (projectId: string, id: string) =>
    ['project', projectId, 'webhooks', id, 'deliveries'] as const,
};

/** The project's webhooks and the event catalog (`GET /v1/webhooks` answers both). */
export function useWebhooks(projectId: string) {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.all(projectId),
    queryFn: async () => unwrap(await api.GET('/v1/webhooks', { headers: inProject(projectId) })),
  });
}

/**
 * A webhook's deliveries, newest first, a page at a time. While one is pending (queued, retrying or
 * redelivered) the list is read again every two seconds, so its outcome shows without a reload.
 */
export function useDeliveries(projectId: string, webhookId: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(projectId, webhookId),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Paged<Delivery>) => last.nextCursor,
    queryFn: async ({ pageParam }) =>
      unwrapPage(
        await api.GET('/v1/webhooks/{id}/deliveries', {
          params: {
            path: { id: webhookId },
            query: { limit: 25, ...(pageParam ? { cursor: pageParam } : {}) },
          },
          headers: inProject(projectId),
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 2000 : false,
  });
}

/** Every write on webhooks; each refreshes the list, and those that make deliveries refresh those. */
export function useWebhookWrites(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const headers = inProject(projectId);
  // Not awaited, so that a caller's onSuccess runs even when the refreshed list unmounts its screen.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: webhookKeys.all(projectId) });
  };
  const path = (id: string) => ({ path: { id } });
  return {
    create: useMutation({
      mutationFn: async (body: WebhookBody) => unwrap(await api.POST('/v1/webhooks', { headers, body })),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: string; body: Schemas['UpdateWebhookBody'] }) =>
        unwrap(await api.PATCH('/v1/webhooks/{id}', { params: path(id), headers, body })),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: async (id: string) =>
        unwrap(await api.DELETE('/v1/webhooks/{id}', { params: path(id), headers })),
      onSuccess: refresh,
    }),
    rotateSecret: useMutation({
      mutationFn: async (id: string) =>
        unwrap(await api.POST('/v1/webhooks/{id}/rotate-secret', { params: path(id), headers })),
      onSuccess: refresh,
    }),
    test: useMutation({
      mutationFn: async (id: string) =>
        unwrap(await api.POST('/v1/webhooks/{id}/test', { params: path(id), headers })),
      onSettled: refresh,
    }),
    redeliver: useMutation({
      mutationFn: async ({ id, deliveryId }: { id: string; deliveryId: string }) =>
        unwrap(
          await api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
            params: { path: { id, deliveryId } },
            headers,
          }),
        ),
      onSettled: refresh,
    }),
    recover: useMutation({
      mutationFn: async ({ id, since }: { id: string; since: string }) =>
        unwrap(await api.POST('/v1/webhooks/{id}/recover', { params: path(id), headers, body: { since } })),
      onSettled: refresh,
    }),
  };
}
