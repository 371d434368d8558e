import type { FastifyInstance } from 'fastify';
import { type Site, sync } from './content.js';
import { bearer, call } from './factories.js';

/** A marketing page's component with every field type of contract §13 (docs/api.md shows the same). */
export const LANDING = {
  componentId: 'Landing',
  instanceKey: 'landing',
  fields: [
    { key: 'headline', type: 'text', label: 'Headline', required: true, maxLength: 60 },
    {
      key: 'variant',
      type: 'select',
      options: [{ value: 'light' }, { value: 'dark', label: 'Dark' }, { value: 'brand' }],
    },
    {
      key: 'hero',
      type: 'object',
      fields: [
        { key: 'image', type: 'image' },
        { key: 'cta', type: 'link' },
        { key: 'tint', type: 'color' },
      ],
    },
    {
      key: 'features',
      type: 'list',
      max: 6,
      fields: [
        { key: 'title', type: 'text', required: true },
        { key: 'icon', type: 'select', options: [{ value: 'bolt' }, { value: 'star' }] },
      ],
    },
    {
      key: 'sections',
      type: 'blocks',
      blocks: [
        {
          componentId: 'Quote',
          fields: [
            { key: 'text', type: 'text', required: true },
            { key: 'author', type: 'reference', componentIds: ['Person'] },
          ],
        },
        {
          componentId: 'Cta',
          label: 'Call to action',
          fields: [
            { key: 'label', type: 'text' },
            { key: 'target', type: 'link' },
          ],
        },
      ],
    },
    { key: 'launch', type: 'date', min: '2026-01-01' },
    { key: 'updated', type: 'datetime' },
    { key: 'price', type: 'number', min: 0, integer: true },
    { key: 'body', type: 'richtext', maxLength: 5000, help: 'The long text' },
    { key: 'featured', type: 'boolean', localized: false },
    {
      key: 'slug',
      type: 'text',
      pattern: { source: '[a-z0-9-]+', message: 'lowercase letters, digits and dashes' },
    },
    { key: 'meta', type: 'json' },
    { key: 'site', type: 'url' },
    { key: 'related', type: 'reference', multiple: true, max: 3 },
    { key: 'tags', type: 'select', multiple: true, min: 1, options: [{ value: 'new' }, { value: 'sale' }] },
  ],
};

export const ENT = 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2';
/** A working copy that fits LANDING's shapes and rules (the link needs the page "/"). */
export const VALID = {
  headline: 'Ship faster',
  variant: 'dark',
  hero: { image: 'https://cdn.example.com/a.webp', cta: { href: 'https://example.com' }, tint: '#0af' },
  features: [{ title: 'Fast', icon: 'bolt' }, { title: 'Safe' }],
  sections: [
    { _type: 'Quote', text: 'Loved it', author: ENT },
    { _key: 'cta-1', _type: 'Cta', label: 'Start', target: { pageId: '/' } },
  ],
  launch: '2026-12-01',
  updated: '2026-11-27T09:30:00+01:00',
  price: 10,
  body: '<p>Hello</p>',
  featured: true,
  slug: 'ship-faster',
  meta: { any: ['thing'] },
  site: 'mailto:hi@example.com',
  related: [ENT],
  tags: ['new'],
};

export const syncAs = (app: FastifyInstance, headers: Record<string, string>, payload: unknown, query = '') =>
  call(app, { method: 'POST', url: `/v1/definitions/sync${query}`, headers, payload: payload as object });

/** Syncs LANDING on `pageId` as a member (rules and all); returns the landing entry's id. */
export async function landingEntry(app: FastifyInstance, site: Site, pageId = '/'): Promise<string> {
  const res = await syncAs(app, site.editing, { pageId, components: [LANDING] });
  if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
  const entries = await call(app, {
    method: 'GET',
    url: `/v1/content/${encodeURIComponent(pageId)}`,
    headers: site.editing,
  });
  return (entries.body.data as { id: string; instanceKey: string }[]).find(
    (e) => e.instanceKey === 'landing',
  )!.id;
}

export async function definitionsOf(app: FastifyInstance, site: Site, pageId: string) {
  const res = await call(app, {
    method: 'GET',
    url: `/v1/definitions/${encodeURIComponent(pageId)}`,
    headers: bearer(site.editor.token),
  });
  return res.body.data as { instanceKey: string; componentId: string; fields: Record<string, unknown>[] }[];
}

export const setMode = (app: FastifyInstance, site: Site, definitionSync: string) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/projects/${site.project.id}`,
    headers: bearer(site.admin.token),
    payload: { definitionSync },
  });

export { sync };
