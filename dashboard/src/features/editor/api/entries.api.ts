import type { FolioClient, Schemas } from '@folio/client';
import { useQuery } from '@tanstack/react-query';
import { ApiError, inProject, unwrap } from '../../../lib/api';
import { useApi } from '../../auth';

export type Entry = Schemas['Entry'];
export type Definition = Schemas['Definition'];

export const entryKeys = {
  page: (projectId: string, pageId: string) => ['project', projectId, 'page', pageId] as const,
  /** Without `locale`: every locale's (the prefix); `null`: a project without locales. */
  entries: (projectId: string, pageId: string, locale?: string | null) =>
    locale === undefined
      ? (['project', projectId, 'page', pageId, 'entries'] as const)
      : (['project', projectId, 'page', pageId, 'entries', locale] as const),
  definitions: (projectId: string, pageId: string) =>
    ['project', projectId, 'page', pageId, 'definitions'] as const,
  history: (projectId: string, entryId: string) => ['project', projectId, 'history', entryId] as const,
};

/**
 * Where a content call acts: the project, and its publishable key. Content routes take the session
 * together with the site's key (contract §2, "editorWithSiteKey"); members read the key on the project.
 */
export interface Site {
  projectId: string;
  apiKey: string;
}

export const siteHeaders = (site: Site) => ({ ...inProject(site.projectId), 'x-cms-key': site.apiKey });
const ifMatch = (version: number) => `"${version}"`;
/** `?locale=` only in a project with locales (without them the API answers 400 to any locale). */
const inLocale = (locale: string | undefined) => (locale === undefined ? {} : { locale });

/**
 * Every entry of the page with its working fields (a session beside the key sees drafts), in `locale`
 * (undefined: a project without locales). With locales, each entry says which values came from
 * another locale of the chain (`fallbacks`) and its status in every locale (`locales`).
 */
export function usePageEntries(site: Site | undefined, pageId: string, locale?: string, enabled = true) {
  const api = useApi();
  return useQuery(pageEntriesQuery(api, site, pageId, locale, enabled));
}

/** The query of a page's entries in a locale (for `useQueries` over several locales, as history does). */
export const pageEntriesQuery = (
  api: FolioClient,
  site: Site | undefined,
  pageId: string,
  locale?: string,
  enabled = true,
) => ({
  queryKey: entryKeys.entries(site?.projectId ?? '', pageId, locale ?? null),
  enabled: site !== undefined && enabled,
  queryFn: async () =>
    unwrap(
      await api.GET('/v1/content/{id}', {
        params: { path: { id: pageId }, query: inLocale(locale) },
        headers: siteHeaders(site!),
      }),
    ),
});

export function useDefinitions(projectId: string, pageId: string) {
  const api = useApi();
  return useQuery({
    queryKey: entryKeys.definitions(projectId, pageId),
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/definitions/{pageId}', {
          params: { path: { pageId } },
          headers: inProject(projectId),
        }),
      ),
  });
}

export function useHistory(projectId: string, entryId: string) {
  const api = useApi();
  return useQuery({
    queryKey: entryKeys.history(projectId, entryId),
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/content/{entryId}/history', {
          params: { path: { entryId }, query: { limit: 200 } },
          headers: inProject(projectId),
        }),
      ),
  });
}

/** The writes of the editor; each throws an ApiError (412 included) for the caller to show. */
export const entryWrites = (api: FolioClient, site: Site) => ({
  /** In `locale`: its own values of localized keys, the shared value of the others (contract §14). */
  async save(
    entryId: string,
    fields: Record<string, unknown>,
    publish: boolean,
    version: number,
    locale?: string,
  ) {
    return unwrap(
      await api.PATCH('/v1/content/{id}', {
        params: { path: { id: entryId }, query: inLocale(locale) },
        headers: { ...siteHeaders(site), 'if-match': ifMatch(version) },
        body: { fields, status: publish ? 'published' : 'draft' },
      }),
    );
  },
  /** Takes down `locale`'s published copy only (or every locale's with `*`). */
  async unpublish(entryId: string, version: number, locale?: string) {
    return unwrap(
      await api.POST('/v1/content/{entryId}/unpublish', {
        params: { path: { entryId }, query: inLocale(locale) },
        headers: { ...siteHeaders(site), 'if-match': ifMatch(version) },
      }),
    );
  },
  /** `force`: even when published content of other entries refers to it (else 409 naming them). */
  async remove(entryId: string, force: boolean) {
    return unwrap(
      await api.DELETE('/v1/content/{id}', {
        params: { path: { id: entryId }, query: force ? { force } : {} },
        headers: siteHeaders(site),
      }),
    );
  },
  /** DELETE /v1/pages/:pageId: every entry and definition of the page, in one transaction. */
  async removePage(pageId: string, force: boolean) {
    return unwrap(
      await api.DELETE('/v1/pages/{pageId}', {
        params: { path: { pageId }, query: force ? { force } : {} },
        headers: siteHeaders(site),
      }),
    );
  },
  /** `locale`: one code, or `*` for every locale in one transaction. */
  async publishPage(pageId: string, locale?: string) {
    return unwrap(
      await api.POST('/v1/content/bulk-publish', {
        headers: siteHeaders(site),
        body: { pageId, ...inLocale(locale) },
      }),
    );
  },
});

export interface ChangedBy {
  who: string | null;
  at: string | null;
  currentVersion: number | null;
}

/** The version the server has now, from a 412's details. */
export const currentVersionOf = (error: ApiError): number | null => {
  const details = error.details as { currentVersion?: unknown } | undefined;
  return typeof details?.currentVersion === 'number' ? details.currentVersion : null;
};

/**
 * Who changed an entry last, for the conflict dialog: the activity log names every change (admins
 * may read it); an editor falls back on the publish history, which names only publishes.
 */
export async function whoChanged(
  api: FolioClient,
  projectId: string,
  entryId: string,
): Promise<Omit<ChangedBy, 'currentVersion'>> {
  const activity = await api.GET('/v1/activity', {
    params: { query: { targetId: entryId, limit: 1 } },
    headers: inProject(projectId),
  });
  if (activity.ok && !activity.notModified) {
    const last = activity.data[0];
    if (last) {
      const actor = last.actor;
      const who =
        actor.type === 'user'
          ? actor.email
          : actor.type === 'apiKey'
            ? `API key “${actor.name}”`
            : actor.type;
      return { who, at: last.at };
    }
  }
  const history = await api.GET('/v1/content/{entryId}/history', {
    params: { path: { entryId }, query: { limit: 1 } },
    headers: inProject(projectId),
  });
  if (history.ok && !history.notModified && history.data[0]) {
    return { who: history.data[0].actor.email, at: history.data[0].at };
  }
  return { who: null, at: null };
}

export const isConflict = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 412;
