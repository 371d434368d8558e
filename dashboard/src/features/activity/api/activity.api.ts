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

/**
 * Every action the log records (contract §8), for the filter. The list is the keys of a record typed by
 * the generated client's `ActivityRecord['action']` (the server's schema declares the actions as an
 * enum): the compiler refuses it with an action missing or one the API does not have, so a new action
 * on the server fails the dashboard's typecheck until it is listed here.
 */
const EVERY_ACTION: Record<Action, null> = {
  'project.created': null,
  'project.updated': null,
  'project.key_rotated': null,
  'user.added': null,
  'user.updated': null,
  'user.removed': null,
  'user.password_changed': null,
  'user.password_reset_issued': null,
  'user.invited': null,
  'user.invitation_accepted': null,
  'user.invitation_canceled': null,
  'api_key.created': null,
  'api_key.revoked': null,
  'webhook.created': null,
  'webhook.updated': null,
  'webhook.deleted': null,
  'webhook.secret_rotated': null,
  'definitions.synced': null,
  'entry.updated': null,
  'entry.published': null,
  'entry.unpublished': null,
  'entry.restored': null,
  'entry.deleted': null,
  'page.published': null,
  'page.deleted': null,
  'objects.saved': null,
  'objects.deleted': null,
  'media.uploaded': null,
  'media.deleted': null,
  'schedule.created': null,
  'schedule.canceled': null,
  'preview_tokens.revoked': null,
};
export const ACTIONS = Object.keys(EVERY_ACTION) as Action[];

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
