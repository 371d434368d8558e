import type { Schemas } from '@folio/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';

export type ObjectRecord = Schemas['ObjectRecord'];

export const objectKeys = {
  all: (projectId: string) => ['project', projectId, 'objects'] as const,
  view: (projectId: string, view: 'draft' | 'published', type?: string) =>
    ['project', projectId, 'objects', view, type ?? '*'] as const,
};

/**
 * GET /v1/objects: the draft overlay (every object's working copy) or the published view, of one type
 * or of all. Sent with the session only: with the publishable key beside it the API refuses drafts.
 * The API answers every object at once (objects are not paginated, contract §3).
 */
export function useObjects(projectId: string, view: 'draft' | 'published', type?: string) {
  const api = useApi();
  return useQuery({
    queryKey: objectKeys.view(projectId, view, type),
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/objects', {
          params: {
            query: { ...(view === 'draft' ? { draft: true } : {}), ...(type ? { types: type } : {}) },
          },
          headers: inProject(projectId),
        }),
      ),
  });
}

/** DELETE /v1/objects/:type/:id: the draft and the published rows go; the site stops seeing it at once. */
export function useDeleteObject(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ type, id }: { type: string; id: string }) =>
      unwrap(
        await api.DELETE('/v1/objects/{type}/{id}', {
          params: { path: { type, id } },
          headers: inProject(projectId),
        }),
      ),
    // Not awaited: the refreshed list no longer has the object, which unmounts its screen, and the
    // caller's own onSuccess (going back to the type) only runs while the screen is mounted.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: objectKeys.all(projectId) });
    },
  });
}

/** Canonical JSON of a value (keys sorted), to compare a draft with its published copy. */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

export type ObjectState = 'published' | 'changed' | 'unpublished';

/** Whether the site sees this object as the editor does: never published, published, or changed since. */
export function stateOf(draft: ObjectRecord, published: ObjectRecord | undefined): ObjectState {
  if (!published) return 'unpublished';
  const same =
    canonical(draft.fields) === canonical(published.fields) &&
    canonical(draft.collections) === canonical(published.collections);
  return same ? 'published' : 'changed';
}
