import type { Schemas } from '@folio/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';

export type Schedule = Schemas['Schedule'];
export type ScheduleBody = Schemas['CreateScheduleBody'];

export const scheduleKeys = { all: (projectId: string) => ['project', projectId, 'schedules'] as const };

/** How many schedules a page's list reads: every pending one first, then the latest outcomes. */
const LIMIT = 200;

/**
 * The project's schedules: pending ones first (soonest first), then done, failed and canceled ones,
 * newest first (the API's order). Read again every two seconds while one is due within a minute, so
 * its outcome shows when it runs; otherwise every half minute.
 */
export function useSchedules(projectId: string) {
  const api = useApi();
  return useQuery({
    queryKey: scheduleKeys.all(projectId),
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/schedules', {
          params: { query: { limit: LIMIT } },
          headers: inProject(projectId),
        }),
      ),
    refetchInterval: (query) => {
      const soon = Date.now() + 60_000;
      const due = query.state.data?.some((s) => s.status === 'pending' && Date.parse(s.at) <= soon);
      return due ? 2000 : 30_000;
    },
  });
}

/** POST /v1/schedules: the session with the site's publishable key, as content writes. */
export function useCreateSchedule(site: { projectId: string; apiKey: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ScheduleBody) =>
      unwrap(
        await api.POST('/v1/schedules', {
          headers: { ...inProject(site.projectId), 'x-cms-key': site.apiKey },
          body,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all(site.projectId) });
    },
  });
}

export function useCancelSchedule(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(
        await api.DELETE('/v1/schedules/{id}', { params: { path: { id } }, headers: inProject(projectId) }),
      ),
    // A 409 (it ran meanwhile) also changes the list.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all(projectId) });
    },
  });
}
