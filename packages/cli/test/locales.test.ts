import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FolioClient } from '@folio/client';
import {
  dbKinds,
  folio,
  newProject,
  ok,
  type Project,
  type RunningFolio,
  scratch,
  startFolio,
} from './harness.js';

const LOCALES = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};
const CODES = ['en', 'fr', 'fr-CA'];

/** `title` and `label` are translated; `price` is shared by every locale (contract §14). */
const components = [
  {
    componentId: 'Hero',
    instanceKey: 'hero',
    fields: [
      { key: 'title', type: 'text', localized: true },
      { key: 'price', type: 'text' },
    ],
  },
  { componentId: 'Cta', instanceKey: 'cta', fields: [{ key: 'label', type: 'text', localized: true }] },
];

async function ids(client: FolioClient): Promise<Record<string, string>> {
  const page = ok(await client.GET('/v1/content/{id}', { params: { path: { id: '/' } } })).data;
  return Object.fromEntries(page.map((e) => [e.instanceKey, e.id]));
}

async function write(
  client: FolioClient,
  id: string,
  locale: string,
  fields: Record<string, unknown>,
  status: 'draft' | 'published',
) {
  ok(
    await client.PATCH('/v1/content/{id}', {
      params: { path: { id }, query: { locale } },
      body: { fields, status },
    }),
  );
}

/**
 * A site in en, fr and fr-CA with a bit of each state: published twice in en; fr published, then a
 * French draft over it; a shared price changed after fr's publish (so fr's published copy keeps the
 * old one); fr-CA published, unpublished, and its own draft left; the CTA translated nowhere.
 */
async function buildSource(server: RunningFolio): Promise<Project> {
  const project = await newProject(server.url, 'Multilingual');
  const { admin } = project;
  ok(
    await admin.PATCH('/v1/projects/{id}', {
      params: { path: { id: project.id } },
      body: { locales: LOCALES },
    }),
  );
  ok(await admin.POST('/v1/definitions/sync', { body: { pageId: '/', components } as never }));
  const { hero, cta } = await ids(admin);
  await write(admin, hero!, 'en', { title: 'Hi', price: '10' }, 'published');
  await write(admin, hero!, 'en', { title: 'Hello' }, 'published');
  await write(admin, cta!, 'en', { label: 'Buy' }, 'published');
  await write(admin, hero!, 'fr', { title: 'Bonjour' }, 'published');
  await write(admin, hero!, 'fr', { title: 'Bonjour !' }, 'draft');
  await write(admin, hero!, 'en', { price: '12' }, 'draft');
  await write(admin, hero!, 'fr-CA', { title: 'Allô' }, 'published');
  ok(
    await admin.POST('/v1/content/{entryId}/unpublish', {
      params: { path: { entryId: hero! }, query: { locale: 'fr-CA' } },
    }),
  );
  await write(admin, hero!, 'fr-CA', { title: 'Allô !' }, 'draft');
  return project;
}

/** Everything a reader can tell of the page in each locale, entry ids replaced by instanceKeys. */
async function readings(project: Project) {
  const visitor = (locale: string, fallback: boolean) =>
    fetch(`${project.env.FOLIO_URL}/v1/content/%2F?locale=${locale}&fallback=${fallback}`, {
      headers: { 'x-cms-key': project.key },
    }).then(async (r) => ((await r.json()) as { data: { instanceKey: string; fields: unknown }[] }).data);
  const out: Record<string, unknown> = {};
  for (const locale of CODES) {
    const editor = ok(
      await project.admin.GET('/v1/content/{id}', { params: { path: { id: '/' }, query: { locale } } }),
    ).data;
    out[locale] = {
      editor: editor.map((e) => ({
        key: e.instanceKey,
        fields: e.fields,
        fallbacks: e.fallbacks,
        status: e.status,
        statuses: Object.fromEntries(Object.entries(e.locales ?? {}).map(([code, s]) => [code, s.status])),
      })),
      own: (await visitor(locale, false)).map((e) => [e.instanceKey, e.fields]),
      read: (await visitor(locale, true)).map((e) => [e.instanceKey, e.fields]),
    };
  }
  return out;
}

const snapshotAll = async (project: Project) => {
  const response = await fetch(`${project.env.FOLIO_URL}/v1/snapshot?locale=*`, {
    headers: { 'x-cms-key': project.key },
  });
  return ((await response.json()) as { data: { version: string; locales: Record<string, unknown> } }).data;
};

for (const kind of dbKinds()) {
  describe(`folio export and import of a project with locales [${kind}]`, () => {
    let origin: RunningFolio;
    let fresh: RunningFolio;
    let source: Project;
    const files = scratch();
    before(async () => {
      origin = await startFolio(kind);
      fresh = await startFolio(kind);
      source = await buildSource(origin);
    });
    after(async () => {
      await origin?.close();
      await fresh?.close();
      files.remove();
    });

    it('carries the locales and every locale working and published copies; the * version matches', async () => {
      const dir = join(files.dir, 'export');
      const exported = await folio(['export', '--out', dir], { env: source.env });
      assert.equal(exported.code, 0, exported.err);
      const all = await snapshotAll(source);
      assert.equal(exported.out, `${all.version}\n`);
      const manifest = JSON.parse(readFileSync(join(dir, 'folio-export.json'), 'utf8'));
      assert.equal(manifest.formatVersion, 2);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8')).locales, LOCALES);
      const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8'));
      const hero = entries.find((e: { instanceKey: string }) => e.instanceKey === 'hero');
      assert.deepEqual(hero.working, { title: 'Hello', price: '12' });
      assert.deepEqual(hero.published, { title: 'Hello', price: '10' });
      assert.deepEqual(hero.locales.fr.working, { title: 'Bonjour !', price: '12' });
      assert.deepEqual(hero.locales.fr.published, { title: 'Bonjour', price: '10' });
      assert.deepEqual(hero.locales['fr-CA'].working, { title: 'Allô !', price: '12' });
      assert.equal(hero.locales['fr-CA'].published, null);
      // The CTA has nothing of its own in French: only the shared values (none).
      const cta = entries.find((e: { instanceKey: string }) => e.instanceKey === 'cta');
      assert.deepEqual(cta.locales.fr.working, {});
      assert.equal(JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')).schema, 2);

      const target = await newProject(fresh.url, 'Moved');
      const imported = await folio(['import', dir], { env: target.env });
      assert.equal(imported.code, 0, imported.err);
      // The entries kept their ids (issue 44 item 5): the new * version is the export's.
      assert.match(imported.err, /: the same as the export's\./);
      const now = await snapshotAll(target);
      assert.equal(now.version, all.version);
      assert.match(imported.out, new RegExp(`${now.version}\\n$`));
      const settings = ok(
        await target.admin.GET('/v1/projects/{id}', { params: { path: { id: target.id } } }),
      ).data;
      assert.deepEqual(settings.locales, LOCALES);
      assert.deepEqual(await readings(target), await readings(source));
      // Every locale's snapshot: the same content, ids aside.
      const moved = await ids(target.admin);
      const original = await ids(source.admin);
      let text = JSON.stringify(all.locales);
      for (const [key, id] of Object.entries(original)) text = text.replaceAll(id, moved[key]!);
      assert.deepEqual(now.locales, JSON.parse(text));

      // And back: an export of the import is the same export, ids and times aside.
      const back = join(files.dir, 'back');
      const again = await folio(['export', '--out', back], { env: target.env });
      assert.equal(again.code, 0, again.err);
      const strip = (
        list: { locales: unknown; working: unknown; published: unknown; instanceKey: string }[],
      ) =>
        list.map(({ instanceKey, working, published, locales }) => ({
          instanceKey,
          working,
          published,
          locales: JSON.parse(
            JSON.stringify(locales, (key, value) => (key === 'publishedAt' ? undefined : value)),
          ),
        }));
      assert.deepEqual(strip(JSON.parse(readFileSync(join(back, 'entries.json'), 'utf8'))), strip(entries));
    });
  });
}
