import type { Schemas } from '@folio/client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inProject, type Paged, unwrap, unwrapPage } from '../../../lib/api';
import { useApi } from '../../auth';

export type MediaItem = Schemas['Media'];

export const mediaKeys = {
  all: (projectId: string) => ['project', projectId, 'media'] as const,
  list: (projectId: string) => ['project', projectId, 'media', 'picker'] as const,
  pages: (projectId: string) => ['project', projectId, 'media', 'pages'] as const,
};

/** The Media screen's page size: four rows of six thumbnails. */
export const MEDIA_PAGE_SIZE = 24;

/** The newest 200 images of the library (one page: enough for the picker; the Media screen pages). */
export function useMediaList(projectId: string, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: mediaKeys.list(projectId),
    enabled,
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/media', { params: { query: { limit: 200 } }, headers: inProject(projectId) }),
      ),
  });
}

/** The library page by page, newest first (cursor pagination: "Load more" asks for the next page). */
export function useMediaPages(projectId: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: mediaKeys.pages(projectId),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Paged<MediaItem>) => last.nextCursor,
    queryFn: async ({ pageParam }) =>
      unwrapPage(
        await api.GET('/v1/media', {
          params: { query: { limit: MEDIA_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
          headers: inProject(projectId),
        }),
      ),
  });
}

/** POST /v1/media/upload, multipart with the field `file` (the picker: one file, no progress). */
export function useUploadMedia(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return unwrap(
        await api.POST('/v1/media/upload', {
          headers: inProject(projectId),
          // openapi-fetch sends FormData as it is (the browser sets the multipart boundary).
          body: form as unknown as { file: string },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all(projectId) }),
  });
}

export function useDeleteMedia(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE('/v1/media/{id}', { params: { path: { id } }, headers: inProject(projectId) })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mediaKeys.all(projectId) });
    },
  });
}
