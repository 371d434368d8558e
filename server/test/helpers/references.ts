import type { FastifyInstance } from 'fastify';
import { editorEntries, pageUrl, patchEntry, type Site } from './content.js';
import { call } from './factories.js';
import { syncAs } from './fields.js';

/**
 * The marketing page of the API reference, by reference (contract §13): testimonials kept on the
 * shared page `@site`, a page that picks some of them and features one, and an author of each
 * testimonial (a second level of references).
 */
export const PERSON = { componentId: 'Person', fields: [{ key: 'name', type: 'text' }] };
export const TESTIMONIAL = {
  componentId: 'Testimonial',
  fields: [
    { key: 'quote', type: 'text' },
    { key: 'author', type: 'reference', componentIds: ['Person'] },
    { key: 'seeAlso', type: 'reference' },
  ],
};
export const PICKS = {
  componentId: 'Testimonials',
  instanceKey: 'testimonials',
  fields: [
    { key: 'heading', type: 'text' },
    { key: 'featured', type: 'reference', componentIds: ['Testimonial'] },
    { key: 'picks', type: 'reference', multiple: true, componentIds: ['Testimonial'] },
    {
      key: 'rows',
      type: 'list',
      fields: [{ key: 'ref', type: 'reference' }],
    },
  ],
};

/** Syncs components on a page as a member; returns instanceKey → entry id. */
export async function entriesOn(
  app: FastifyInstance,
  site: Site,
  pageId: string,
  components: { componentId: string; instanceKey: string; fields: unknown[] }[],
): Promise<Record<string, string>> {
  const res = await syncAs(app, site.editing, { pageId, components });
  if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
  const entries = await editorEntries(app, site, pageId);
  return Object.fromEntries(entries.map((e) => [e.instanceKey, e.id]));
}

/** Writes (and publishes, unless `draft`) an entry's fields; throws on anything but 200. */
export async function put(app: FastifyInstance, site: Site, id: string, fields: object, draft = false) {
  const res = await patchEntry(app, site, id, { fields, ...(draft ? {} : { status: 'published' }) });
  if (res.status !== 200) throw new Error(`patch failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * A site with two people, two testimonials on `@site` (one referring to the other: a cycle of two)
 * and the home page `/` picking both and featuring the first. Everything published.
 */
export async function marketingSite(app: FastifyInstance, site: Site) {
  const people = await entriesOn(app, site, '@site', [
    { ...PERSON, instanceKey: 'ada' },
    { ...PERSON, instanceKey: 'grace' },
    { ...TESTIMONIAL, instanceKey: 'quote-1' },
    { ...TESTIMONIAL, instanceKey: 'quote-2' },
  ]);
  const ids = {
    ada: people.ada as string,
    grace: people.grace as string,
    q1: people['quote-1'] as string,
    q2: people['quote-2'] as string,
    home: '',
  };
  await put(app, site, ids.ada, { name: 'Ada' });
  await put(app, site, ids.grace, { name: 'Grace' });
  await put(app, site, ids.q1, { quote: 'Fast.', author: ids.ada, seeAlso: ids.q2 });
  await put(app, site, ids.q2, { quote: 'Safe.', author: ids.grace, seeAlso: ids.q1 });
  const home = await entriesOn(app, site, '/', [PICKS]);
  ids.home = home.testimonials as string;
  await put(app, site, ids.home, {
    heading: 'Loved by teams',
    featured: ids.q1,
    picks: [ids.q1, ids.q2],
    rows: [{ ref: ids.ada }, { ref: ids.q2 }],
  });
  return ids;
}

export async function read(
  app: FastifyInstance,
  headers: Record<string, string>,
  pageId: string,
  query = '',
) {
  return call(app, { method: 'GET', url: `${pageUrl(pageId)}${query}`, headers });
}
