import type { FastifyInstance } from 'fastify';
import { bearer, call, newMember, newProject } from './factories.js';

/** A project with an admin and an editor, plus the headers the content routes need. */
export async function newSite(app: FastifyInstance, name = 'Content site') {
  const { project, admin } = await newProject(app, name);
  const editor = await newMember(app, admin.token, project.id, 'editor');
  const key = { 'x-cms-key': project.apiKey as string };
  return { project, admin, editor, key, editing: { ...key, ...bearer(editor.token) } };
}

export type Site = Awaited<ReturnType<typeof newSite>>;

export const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text' },
    { key: 'count', type: 'number' },
    { key: 'link', type: 'url' },
  ],
};

/** Registers components for a page through the publishable key; returns the response body's data. */
export async function sync(app: FastifyInstance, site: Site, pageId: string, components: unknown[] = [HERO]) {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/definitions/sync',
    headers: site.key,
    payload: { pageId, components },
  });
  if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export const pageUrl = (pageId: string) => `/v1/content/${encodeURIComponent(pageId)}`;

/** Entries of a page as the editor sees them (working copies, drafts included). */
export interface EntryBody {
  id: string;
  instanceKey: string;
  componentId: string;
  fields: Record<string, unknown>;
  status: string;
  version: number;
}

export async function editorEntries(app: FastifyInstance, site: Site, pageId: string) {
  const res = await call(app, { method: 'GET', url: pageUrl(pageId), headers: site.editing });
  if (res.status !== 200) throw new Error(`editor read failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as EntryBody[];
}

export async function visitorEntries(app: FastifyInstance, site: Site, pageId: string) {
  const res = await call(app, { method: 'GET', url: pageUrl(pageId), headers: site.key });
  if (res.status !== 200) throw new Error(`visitor read failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as EntryBody[];
}

export async function patchEntry(app: FastifyInstance, site: Site, entryId: string, payload: unknown) {
  return call(app, {
    method: 'PATCH',
    url: `/v1/content/${entryId}`,
    headers: site.editing,
    payload: payload as object,
  });
}

/** Syncs HERO on `pageId` and returns its entry id. */
export async function heroEntry(app: FastifyInstance, site: Site, pageId = '/') {
  await sync(app, site, pageId);
  const entries = await editorEntries(app, site, pageId);
  const hero = entries.find((e) => e.instanceKey === 'hero');
  if (!hero) throw new Error('hero entry missing');
  return hero.id;
}
