import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api';
import { useApi } from '../../auth';
import { applySaved, type Site, siteHeaders } from '../../editor';

export interface RestoreVariables {
  historyId: string;
  /** The working copy's version the restore replaces (If-Match): a 412 if someone changed it since. */
  version: number;
}

/**
 * POST /v1/content/:entryId/history/:historyId/restore, as a mutation like the editor's writes: the
 * restored working copy replaces the cached one, and the pages list, the history and the references
 * read again (the editor's `applySaved`).
 */
export function useRestoreVersion(site: Site | undefined, entryId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: RestoreVariables) =>
      unwrap(
        await api.POST('/v1/content/{entryId}/history/{historyId}/restore', {
          params: { path: { entryId, historyId: v.historyId } },
          headers: { ...siteHeaders(site!), 'if-match': `"${v.version}"` },
        }),
      ),
    onSuccess: (saved) => applySaved(queryClient, site!, saved),
  });
}
