import type { FolioClient, Schemas } from '@folio/client';
import { useQuery } from '@tanstack/react-query';
import { ApiError, inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';
import { type Site, siteHeaders } from './entries.api';

/**
 * References both ways (contract §13): who refers to an entry (`GET /v1/content/:entryId/references`),
 * and who stops a deletion (the 409 `conflict` of `DELETE /v1/content/:id` and `/v1/pages/:pageId`,
 * whose `details.referencedBy` lists entry ids).
 */

export type ReferenceRow = Schemas['ReferenceRow'];

export const referenceKeys = {
  all: (projectId: string) => ['project', projectId, 'references'] as const,
  of: (projectId: string, entryId: string) => ['project', projectId, 'references', entryId] as const,
  referrers: (projectId: string, ids: readonly string[]) =>
    ['project', projectId, 'references', 'referrers', ...ids] as const,
};

/** A referring entry: rows of `/references` (where, and which copies), or an entry a 409 named. */
export type Referrer = Pick<ReferenceRow, 'id' | 'pageId' | 'instanceKey' | 'componentId'> & {
  path?: string;
  copies?: ReferenceRow['copy'][];
};

/** Each page that refers to an entry, with its referring entries. */
export interface UsedOn {
  pageId: string;
  rows: Referrer[];
}

/**
 * Referrers grouped by page, in the order given (the API's: pageId, instanceKey, copy, path); the rows of
 * one entry and path (its working and published copies) become one, with both copies.
 */
export function usedOn(rows: readonly (Referrer | ReferenceRow)[]): UsedOn[] {
  const pages = new Map<string, Map<string, Referrer>>();
  for (const row of rows) {
    const { id, pageId, instanceKey, componentId } = row;
    const path = 'path' in row ? row.path : undefined;
    const copy = 'copy' in row ? row.copy : undefined;
    const entries = pages.get(pageId) ?? new Map<string, Referrer>();
    pages.set(pageId, entries);
    const key = `${id} ${path ?? ''}`;
    const seen = entries.get(key) ?? { id, pageId, instanceKey, componentId, ...(path ? { path } : {}) };
    if (copy) seen.copies = [...(seen.copies ?? []), copy];
    entries.set(key, seen);
  }
  return [...pages].map(([pageId, entries]) => ({ pageId, rows: [...entries.values()] }));
}

/** Who refers to the entry; `enabled` false until its form is on screen (a page of 100 entries asks for a few). */
export function useEntryReferences(projectId: string, entryId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: referenceKeys.of(projectId, entryId),
    enabled,
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/content/{entryId}/references', {
          params: { path: { entryId } },
          headers: inProject(projectId),
        }),
      ),
  });
}

/** The entry ids of a 409 that refused a deletion because published content refers to it, else null. */
export function referencedBy(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const ids = (error.details as { referencedBy?: unknown } | undefined)?.referencedBy;
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : null;
}

/** How many referring entries the confirmation names; the rest are counted. */
export const REFERRERS_NAMED = 20;

async function readReferrer(api: FolioClient, site: Site, id: string): Promise<Referrer | { id: string }> {
  const result = await api.GET('/v1/entries/{entryId}', {
    params: { path: { entryId: id } },
    headers: siteHeaders(site),
  });
  if (!result.ok || result.notModified) return { id };
  const { pageId, instanceKey, componentId } = result.data;
  return { id, pageId, instanceKey, componentId };
}

/** The first REFERRERS_NAMED referring entries by page and name (an entry that cannot be read keeps its id). */
export function useReferrers(site: Site, ids: readonly string[] | null) {
  const api = useApi();
  const named = (ids ?? []).slice(0, REFERRERS_NAMED);
  return useQuery({
    queryKey: referenceKeys.referrers(site.projectId, named),
    enabled: ids !== null && ids.length > 0,
    queryFn: () => Promise.all(named.map((id) => readReferrer(api, site, id))),
  });
}
