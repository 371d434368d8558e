import type { Schemas } from '@folio/client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { inProject, type Paged, unwrapPage } from '../../../lib/api';
import { useApi } from '../../auth';

export type ActivityRecord = Schemas['ActivityRecord'];
export type Action = ActivityRecord['action'];

export interface ActivityFilters {
  action?: Action;
  targetId?: string;
  actorId?: string;
}

/** Every action the log records (contract §8), for the filter. */
export const ACTIONS: Action[] = [
  'project.created',
  'project.updated',
  'project.key_rotated',
  'user.added',
  'user.updated',
  'user.removed',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'definitions.synced',
  'entry.updated',
  'entry.published',
  'entry.unpublished',
  'entry.restored',
  'entry.deleted',
  'page.published',
  'page.deleted',
  'objects.saved',
  'objects.deleted',
  'media.uploaded',
  'media.deleted',
  'schedule.created',
  'schedule.canceled',
];

export const ACTIVITY_PAGE_SIZE = 50;

/** GET /v1/activity (admins), newest first, filtered, a page at a time. */
export function useActivity(projectId: string, filters: ActivityFilters) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ['project', projectId, 'activity', filters] as const,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Paged<ActivityRecord>) => last.nextCursor,
    queryFn: async ({ pageParam }) =>
      unwrapPage(
        await api.GET('/v1/activity', {
          params: {
            query: {
              limit: ACTIVITY_PAGE_SIZE,
              ...(pageParam ? { cursor: pageParam } : {}),
              ...(filters.action ? { action: filters.action } : {}),
              ...(filters.targetId ? { targetId: filters.targetId } : {}),
              ...(filters.actorId ? { actorId: filters.actorId } : {}),
            },
          },
          headers: inProject(projectId),
        }),
      ),
  });
}

/** Who did it, in words. */
export function actorName(actor: ActivityRecord['actor']): string {
  switch (actor.type) {
    case 'user':
      return actor.email;
    case 'apiKey':
      return `API key “${actor.name}”`;
    case 'site':
      return 'the site (publishable key)';
    case 'system':
      return `scheduled, for ${actor.onBehalfOf.email}`;
  }
}
