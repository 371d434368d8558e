import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { editorEntries, newSite, type Site, sync } from './content.js';
import { bearer, call } from './factories.js';

/** Sets the project's `locales` through the API (PATCH /v1/projects/:id, as its admin); must be accepted. */
export async function setLocales(app: FastifyInstance, site: Site, locales: unknown): Promise<void> {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/projects/${site.project.id}`,
    headers: bearer(site.admin.token),
    payload: { locales } as object,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** A new site with `locales` whose page holds `components`; returns it and its first entry's id. */
export async function localizedSite(
  app: FastifyInstance,
  locales: unknown,
  components: unknown[],
  pageId = '/',
): Promise<{ site: Site; id: string }> {
  const site = await newSite(app);
  await setLocales(app, site, locales);
  await sync(app, site, pageId, components);
  const entries = await editorEntries(app, site, pageId);
  return { site, id: entries[0]?.id as string };
}
