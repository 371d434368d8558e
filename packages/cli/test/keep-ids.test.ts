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

const LOCALES = { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] };

/**
 * A page with a localized title, a list whose items reference entries, blocks holding a reference,
 * and a multiple reference; two testimonials on @site to point at (contract §13, §14).
 */
const definitions = {
  '@site': [
    {
      componentId: 'Testimonial',
      instanceKey: 'ada',
      fields: [{ key: 'quote', type: 'text', localized: true }],
    },
    {
      componentId: 'Testimonial',
      instanceKey: 'lin',
      fields: [{ key: 'quote', type: 'text', localized: true }],
    },
  ],
  '/': [
    {
      componentId: 'Landing',
      instanceKey: 'landing',
      fields: [
        { key: 'title', type: 'text', localized: true },
        {
          key: 'items',
          type: 'list',
          fields: [
            { key: 'label', type: 'text' },
            { key: 'ref', type: 'reference' },
          ],
        },
        {
          key: 'sections',
          type: 'blocks',
          blocks: [
            {
              componentId: 'Quote',
              fields: [
                { key: 'headline', type: 'text' },
                { key: 'who', type: 'reference' },
              ],
            },
          ],
        },
        { key: 'testimonials', type: 'reference', multiple: true },
      ],
    },
  ],
};

type Ids = Record<string, string>;

async function idsOf(client: FolioClient, pageId: string): Promise<Ids> {
  const page = ok(await client.GET('/v1/content/{id}', { params: { path: { id: pageId } } })).data;
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

const landingFields = (ids: Ids) => ({
  title: 'Welcome',
  items: [
    { _key: 'i1', label: 'First', ref: ids.ada },
    { _key: 'i2', label: 'Second', ref: ids.lin },
  ],
  sections: [{ _key: 's1', _type: 'Quote', headline: 'Said', who: ids.ada }],
  testimonials: [ids.lin, ids.ada],
});

async function buildSource(server: RunningFolio): Promise<{ project: Project; ids: Ids }> {
  const project = await newProject(server.url, 'Keeps ids');
  const { admin } = project;
  ok(
    await admin.PATCH('/v1/projects/{id}', {
      params: { path: { id: project.id } },
      body: { locales: LOCALES },
    }),
  );
  for (const [pageId, components] of Object.entries(definitions)) {
    ok(await admin.POST('/v1/definitions/sync', { body: { pageId, components } as never }));
  }
  const ids = { ...(await idsOf(admin, '@site')), ...(await idsOf(admin, '/')) };
  await write(admin, ids.ada!, 'en', { quote: 'It just works' }, 'published');
  await write(admin, ids.ada!, 'fr', { quote: 'Ça marche' }, 'published');
  await write(admin, ids.lin!, 'en', { quote: 'Fast' }, 'published');
  await write(admin, ids.landing!, 'en', landingFields(ids), 'published');
  await write(admin, ids.landing!, 'fr', { title: 'Bienvenue' }, 'published');
  await write(admin, ids.landing!, 'fr', { title: 'Bienvenue !' }, 'draft');
  return { project, ids };
}

const snapshotAll = async (project: Project) => {
  const response = await fetch(`${project.env.FOLIO_URL}/v1/snapshot?locale=*`, {
    headers: { 'x-cms-key': project.key },
  });
  return ((await response.json()) as { data: { version: string; locales: Record<string, unknown> } }).data;
};

for (const kind of dbKinds()) {
  describe(`folio import keeps entry ids [${kind}]`, () => {
    let origin: RunningFolio;
    let source: { project: Project; ids: Ids };
    const files = scratch();
    const dir = join(files.dir, 'export');
    before(async () => {
      origin = await startFolio(kind);
      source = await buildSource(origin);
      const exported = await folio(['export', '--out', dir], { env: source.project.env });
      assert.equal(exported.code, 0, exported.err);
    });
    after(async () => {
      await origin?.close();
      files.remove();
    });

    it("into a fresh server: every id kept, and the * snapshot's version is the original's", async () => {
      const fresh = await startFolio(kind);
      try {
        const target = await newProject(fresh.url, 'Moved');
        const imported = await folio(['import', dir], { env: target.env });
        assert.equal(imported.code, 0, imported.err);
        assert.match(imported.err, /Entry ids: all 3 kept\./);
        assert.match(imported.err, /: the same as the export's\./);
        const original = await snapshotAll(source.project);
        const now = await snapshotAll(target);
        assert.equal(now.version, original.version);
        assert.equal(imported.out, `${original.version}\n`);
        assert.deepEqual(now.locales, original.locales);
        assert.deepEqual(
          { ...(await idsOf(target.admin, '@site')), ...(await idsOf(target.admin, '/')) },
          source.ids,
        );
      } finally {
        await fresh.close();
      }
    });

    it('into a server where an id is taken: that one changes, is reported, and references follow it', async () => {
      const server = await startFolio(kind);
      try {
        // Another project on that server holds ada's id (a member's sync may ask for it, as import does).
        const other = await newProject(server.url, 'Other');
        const taken = ok(
          await other.admin.POST('/v1/definitions/sync', {
            body: {
              pageId: '/',
              components: [{ componentId: 'Text', instanceKey: 'x', fields: [], entryId: source.ids.ada! }],
            },
          }),
        ).data;
        assert.deepEqual('changedIds' in taken && taken.changedIds, []);

        const target = await newProject(server.url, 'Moved');
        const imported = await folio(['import', dir], { env: target.env });
        assert.equal(imported.code, 0, imported.err);
        const moved = { ...(await idsOf(target.admin, '@site')), ...(await idsOf(target.admin, '/')) };
        assert.notEqual(moved.ada, source.ids.ada);
        assert.equal(moved.lin, source.ids.lin);
        assert.equal(moved.landing, source.ids.landing);
        assert.match(
          imported.err,
          new RegExp(
            `Entry ids: 2 kept, 1 changed \\(an entry on this server already had the id; references to it are rewritten\\):\\n  @site ada: ${source.ids.ada} → ${moved.ada}\\n`,
          ),
        );
        // Every reference to ada (list item, block, multiple) now names its new id; the others are kept.
        const landing = ok(
          await target.admin.GET('/v1/entries/{entryId}', { params: { path: { entryId: moved.landing! } } }),
        ).data;
        assert.deepEqual(landing.fields, landingFields(moved));
        // The version is the export's with ada's id replaced (checked by the import, and here).
        const exported = readFileSync(join(dir, 'snapshot.json'), 'utf8');
        const now = await snapshotAll(target);
        assert.deepEqual(now.locales, JSON.parse(exported.replaceAll(source.ids.ada!, moved.ada!)).locales);
        // In each of the two locales' documents: ada's own id, the list item's, the block's and the
        // multiple reference's (shared fields read the same in fr).
        assert.match(imported.err, /with 8 entry ids replaced/);
        // The other project's entry is its own still.
        assert.deepEqual(await idsOf(other.admin, '/'), { x: source.ids.ada });
      } finally {
        await server.close();
      }
    });
  });
}
