import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FolioClient, Schemas } from '@folio/client';
import { canonicalJson } from '../../../server/src/shared/canonical.js';
import { makeImage } from '../../../server/test/helpers/media.js';
import {
  dbKinds,
  envLines,
  folio,
  newProject,
  ok,
  type Project,
  type RunningFolio,
  scratch,
  startFolio,
} from './harness.js';

type Client = FolioClient;

async function entryId(client: Client, pageId: string, instanceKey: string): Promise<string> {
  const page = ok(await client.GET('/v1/content/{id}', { params: { path: { id: pageId } } })).data;
  return page.find((e) => e.instanceKey === instanceKey)!.id;
}

async function save(
  client: Client,
  pageId: string,
  key: string,
  fields: Record<string, unknown>,
  status: 'draft' | 'published',
) {
  const id = await entryId(client, pageId, key);
  ok(await client.PATCH('/v1/content/{id}', { params: { path: { id } }, body: { fields, status } }));
}

async function upload(client: Client, name: string, bytes: Buffer): Promise<Schemas['Media']> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  return ok(await client.POST('/v1/media/upload', { body: form as unknown as { file: string } })).data;
}

const sync = async (client: Client, pageId: string, components: Schemas['SyncBody']['components']) =>
  ok(await client.POST('/v1/definitions/sync', { body: { pageId, components } }));

interface Source {
  project: Project;
  images: { media: Schemas['Media']; bytes: Buffer }[];
}

/**
 * A project with a bit of everything an export must carry: settings and deploy hooks, two pages of
 * definitions, entries live, drafted, unpublished, never touched, one published under a field type
 * changed since, a history of several publishes, media referenced from content and objects, objects
 * published, drafted, draft-only and with a collection emptied in draft, two webhooks.
 */
async function buildSource(server: RunningFolio): Promise<Source> {
  const project = await newProject(server.url, 'Source site');
  const { admin } = project;
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  ok(
    await admin.PATCH('/v1/projects/{id}', {
      params: { path: { id: project.id } },
      body: {
        domains: ['example.com', 'localhost:5173'],
        definitionSync: 'locked',
        deployHooks: [
          { id: 'netlify', type: 'generic', url: 'https://api.netlify.example/build_hooks/abc' },
          { id: 'signed', type: 'generic', url: 'https://deploy.example/hook', secret },
        ],
      },
    }),
  );
  const images = [];
  for (const name of ['hero.png', 'mug.png']) {
    const bytes = await makeImage('png', 8, 6);
    images.push({ media: await upload(admin, name, bytes), bytes });
  }
  const [hero, mug] = images as [Source['images'][0], Source['images'][0]];

  await sync(admin, '/', [
    {
      componentId: 'Hero',
      instanceKey: 'hero',
      fields: [
        { key: 'title', type: 'text' },
        { key: 'image', type: 'image' },
      ],
    },
    { componentId: 'Features', instanceKey: 'features', fields: [{ key: 'items', type: 'json' }] },
    { componentId: 'Price', instanceKey: 'price', fields: [{ key: 'amount', type: 'text' }] },
  ]);
  await sync(admin, '/about', [
    { componentId: 'Text', instanceKey: 'body', fields: [{ key: 'text', type: 'richtext' }] },
    { componentId: 'Text', instanceKey: 'stub', fields: [{ key: 'text', type: 'richtext' }] },
  ]);
  await save(admin, '/', 'hero', { title: 'First', image: hero.media.url }, 'published');
  await save(admin, '/', 'hero', { title: 'Second', subtitle: 'kept' }, 'published');
  await save(admin, '/', 'hero', { title: 'Third, in draft', subtitle: null }, 'draft');
  await save(admin, '/', 'features', { items: [{ name: 'Fast' }, { name: 'Small' }] }, 'published');
  ok(
    await admin.POST('/v1/content/{entryId}/unpublish', {
      params: { path: { entryId: await entryId(admin, '/', 'features') } },
    }),
  );
  await save(admin, '/', 'features', { items: [{ name: 'Fast' }] }, 'draft');
  await save(admin, '/', 'price', { amount: '12' }, 'published');
  // The type changes after the value was published: the published "12" no longer fits.
  await sync(admin, '/', [
    { componentId: 'Price', instanceKey: 'price', fields: [{ key: 'amount', type: 'number' }] },
  ]);
  await save(admin, '/about', 'body', { text: '<p>Hello</p>' }, 'draft');

  ok(
    await admin.POST('/v1/objects/save', {
      body: {
        status: 'published',
        objects: [
          {
            type: 'product',
            id: 'p1',
            fields: { name: 'Mug', price: 12, seo: { title: 'A mug' } } as never,
            collections: {
              images: [
                { itemId: 'i1', value: { url: mug.media.url, alt: 'A mug' } },
                { itemId: 'i2', value: { url: 'https://cdn.example.com/2.jpg' } },
              ],
            },
          },
          {
            type: 'product',
            id: 'p0',
            fields: { name: 'Cup' },
            collections: { tags: [{ itemId: 't1', value: { label: 'new' } }] },
          },
          { type: 'category', id: 'c1', fields: { name: 'Kitchen', featured: true, parent: null } },
        ],
      },
    }),
  );
  ok(
    await admin.POST('/v1/objects/save', {
      body: {
        objects: [
          {
            type: 'product',
            id: 'p1',
            fields: { price: 15 },
            collections: { images: [{ itemId: 'i2', value: { url: 'https://cdn.example.com/2.jpg' } }] },
          },
          { type: 'product', id: 'p0', collections: { tags: [] } },
          { type: 'product', id: 'p9', fields: { name: 'Teapot' } },
        ],
      },
    }),
  );

  const indexer = ok(
    await admin.POST('/v1/webhooks', {
      body: {
        url: 'https://hooks.example/indexer',
        events: ['content.published', 'objects.published'],
        description: 'Search',
      },
    }),
  ).data;
  const other = ok(
    await admin.POST('/v1/webhooks', { body: { url: 'https://hooks.example/all', events: ['*'] } }),
  ).data;
  ok(await admin.PATCH('/v1/webhooks/{id}', { params: { path: { id: other.id } }, body: { active: false } }));
  void indexer;
  return { project, images };
}

/** Everything an import must reproduce, read through the API, without ids and times. */
async function contentOf(project: Project) {
  const { admin } = project;
  const pages = ok(await admin.GET('/v1/pages')).data.map((p) => p.pageId);
  const out: Record<string, unknown> = {};
  for (const pageId of pages) {
    const definitions = ok(
      await admin.GET('/v1/definitions/{pageId}', { params: { path: { pageId } } }),
    ).data;
    const entries = ok(await admin.GET('/v1/content/{id}', { params: { path: { id: pageId } } })).data;
    const withHistory = [];
    for (const e of entries) {
      const history = ok(
        await admin.GET('/v1/content/{entryId}/history', {
          params: { path: { entryId: e.id }, query: { limit: 200 } },
        }),
      ).data;
      withHistory.push({
        instanceKey: e.instanceKey,
        componentId: e.componentId,
        fields: e.fields,
        status: e.status,
        history: history.map((h) => [h.action, h.fields]),
      });
    }
    out[pageId] = { definitions: definitions.map(({ updatedAt: _, ...d }) => d), entries: withHistory };
  }
  const strip = (list: Schemas['ObjectRecord'][]) => list.map(({ updatedAt: _, ...o }) => o);
  out.objects = strip(ok(await project.member.GET('/v1/objects')).data);
  out.drafts = strip(
    ok(await project.member.GET('/v1/objects', { params: { query: { draft: true } } })).data,
  );
  return out;
}

/**
 * The media library with each file's bytes. Read from the server's address of the file: the record's
 * `url` has the configured public base (http://127.0.0.1:3000), not the test server's port.
 */
const bytesOf = async (server: RunningFolio, url: string) =>
  Buffer.from(await (await fetch(`${server.url}${new URL(url).pathname}`)).arrayBuffer());

async function mediaOf(server: RunningFolio, project: Project) {
  const list = ok(await project.member.GET('/v1/media', { params: { query: { limit: 200 } } })).data;
  return Promise.all(
    list.map(async (m) => ({
      filename: m.filename,
      mimeType: m.mimeType,
      size: m.size,
      url: m.url,
      bytes: (await bytesOf(server, m.url)).toString('base64'),
    })),
  );
}

const snapshotOf = async (project: Project) => ok(await project.admin.GET('/v1/snapshot')).data;

/**
 * A snapshot's text with each entry id of `from` replaced by the id of the entry at the same page and
 * instanceKey in `to`: snapshot entries carry their ids (contract §17), and an import makes new ones.
 */
function withIdsOf(text: string, from: Schemas['Snapshot'], to: Schemas['Snapshot']): string {
  let out = text;
  for (const [pageId, entries] of Object.entries(from.content)) {
    for (const e of entries) {
      const moved = to.content[pageId]?.find((m) => m.instanceKey === e.instanceKey)?.id;
      if (moved) out = out.replaceAll(e.id, moved);
    }
  }
  return out;
}

/** The version of a snapshot's text, computed apart from the CLI and the server (contract §3). */
function versionOfText(text: string): string {
  const { version: _v, generatedAt: _g, ...rest } = JSON.parse(text);
  return `sha256:${createHash('sha256').update(canonicalJson(rest)).digest('hex')}`;
}

for (const kind of dbKinds()) {
  describe(`folio export and import [${kind}]`, () => {
    let origin: RunningFolio;
    let source: Source;
    const files = scratch();
    const dir = join(files.dir, 'export');
    const servers: RunningFolio[] = [];
    const freshServer = async () => {
      const server = await startFolio(kind);
      servers.push(server);
      return server;
    };

    before(async () => {
      origin = await startFolio(kind);
      source = await buildSource(origin);
    });
    after(async () => {
      await origin?.close();
      for (const server of servers) await server.close();
      files.remove();
    });

    it('exports everything the API can read into a directory and prints the snapshot version', async () => {
      const exported = await folio(['export', '--out', dir], { env: source.project.env });
      assert.equal(exported.code, 0, exported.err);
      const snapshot = await snapshotOf(source.project);
      assert.equal(exported.out, `${snapshot.version}\n`);
      assert.match(
        exported.err,
        /Exported 2 pages, 5 entries \(5 history rows\), 4 objects, 2 media files and 2 webhooks into /,
      );
      assert.deepEqual(readdirSync(dir).sort(), [
        'definitions.json',
        'entries.json',
        'folio-export.json',
        'media',
        'media.json',
        'objects.json',
        'project.json',
        'snapshot.json',
        'webhooks.json',
      ]);
      assert.equal(readdirSync(join(dir, 'media')).length, 2);
      const webhooks = readFileSync(join(dir, 'webhooks.json'), 'utf8');
      assert.doesNotMatch(webhooks, /whsec_/);
      assert.doesNotMatch(readFileSync(join(dir, 'project.json'), 'utf8'), /whsec_/);
      // definitions.json is what `folio push` reads.
      const pushed = await folio(['push', join(dir, 'definitions.json'), '--dry-run'], {
        env: source.project.env,
      });
      assert.match(pushed.out, /0 definitions to create, 0 to change/);
    });

    it('refuses to write into a directory that holds something else', async () => {
      writeFileSync(join(files.dir, 'notes.txt'), 'mine');
      const refused = await folio(['export', '--out', files.dir], { env: source.project.env });
      assert.equal(refused.code, 1);
      assert.match(refused.err, /is not empty and holds no earlier export/);
    });

    it('imports into a fresh server with the same snapshot version (--keep-media-urls)', async () => {
      const server = await freshServer();
      const target = await newProject(server.url, 'Moved site');
      const imported = await folio(['import', dir, '--keep-media-urls'], { env: target.env });
      assert.equal(imported.code, 0, imported.err);
      const before = await snapshotOf(source.project);
      const now = await snapshotOf(target);
      // The same published content and the same ids (issue 44 item 5): the same version.
      assert.equal(now.version, before.version);
      assert.match(imported.out, new RegExp(`${now.version}\\n$`));
      assert.match(imported.err, /Entry ids: all 5 kept\./);
      assert.match(imported.err, /: the same as the export's\./);

      assert.deepEqual(await contentOf(target), await contentOf(source.project));
      const media = await mediaOf(server, target);
      const original = await mediaOf(origin, source.project);
      assert.deepEqual(
        media.map(({ url: _, ...m }) => m),
        original.map(({ url: _, ...m }) => m),
      );

      // Webhooks: the same, with new secrets printed once, and inactive until their receivers know them.
      const hooks = ok(await target.member.GET('/v1/webhooks')).data.webhooks;
      const sourceHooks = ok(await source.project.member.GET('/v1/webhooks')).data.webhooks;
      const shape = (list: Schemas['Webhook'][]) =>
        list
          .map((h) => [h.url, h.events, h.description])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      assert.deepEqual(shape(hooks), shape(sourceHooks));
      assert.deepEqual(
        hooks.map((h) => h.active),
        [false, false],
      );
      assert.equal(imported.out.match(/secret whsec_\S+/g)?.length, 2);

      const settings = ok(
        await target.admin.GET('/v1/projects/{id}', { params: { path: { id: target.id } } }),
      ).data;
      assert.equal(settings.name, 'Moved site');
      assert.deepEqual(settings.domains, ['example.com', 'localhost:5173']);
      assert.equal(settings.definitionSync, 'locked');
      assert.deepEqual(
        settings.deployHooks.map((h) => [h.id, h.url, h.hasSecret]),
        [['netlify', 'https://api.netlify.example/build_hooks/abc', false]],
      );
      assert.match(imported.err, /Deploy hook "signed" .* had a secret, which is never exported/);

      const again = await folio(['import', dir], { env: target.env });
      assert.equal(again.code, 1);
      assert.match(again.err, /is not empty \(it has 2 pages, 4 objects, media files, 2 webhooks\)/);
    });

    it("by default points media references at the new files; the version is the export's with them replaced", async () => {
      const server = await freshServer();
      const target = await newProject(server.url);
      const imported = await folio(['import', dir, '--skip-history'], { env: target.env });
      assert.equal(imported.code, 0, imported.err);
      assert.match(imported.err, /with 2 media addresses replaced/);

      const [hero, mug] = source.images;
      const moved = await mediaOf(server, target);
      const newHero = moved.find((m) => m.filename === 'hero.png')!;
      const newMug = moved.find((m) => m.filename === 'mug.png')!;
      assert.notEqual(newHero.url, hero!.media.url);
      assert.equal(newHero.bytes, hero!.bytes.toString('base64'));

      const live = ok(await target.admin.GET('/v1/snapshot')).data;
      assert.equal(live.content['/']!.find((e) => e.instanceKey === 'hero')!.fields.image, newHero.url);
      const images = live.objectCollections.find((c) => c.id === 'p1' && c.collection === 'images')!;
      assert.equal(images.items[0]!.value.url, newMug.url);
      const served = await bytesOf(server, newHero.url);
      assert.deepEqual(served, hero!.bytes);

      // The version, computed apart from the CLI: the exported snapshot with the two addresses
      // replaced (the entries kept their ids; withIdsOf changes nothing then).
      const exported = readFileSync(join(dir, 'snapshot.json'), 'utf8');
      const text = withIdsOf(exported, JSON.parse(exported), live)
        .replaceAll(hero!.media.url, newHero.url)
        .replaceAll(mug!.media.url, newMug.url);
      const expected = versionOfText(text);
      assert.equal(live.version, expected);
      assert.match(imported.out, new RegExp(`${expected}\\n$`));

      // Without history, entries still end as they were: live copies and drafts, in the page's order
      // (the order the source's sync sent them, which the import's sync sends again).
      const entries = ok(await target.admin.GET('/v1/content/{id}', { params: { path: { id: '/' } } })).data;
      assert.deepEqual(
        entries.map((e) => [e.instanceKey, e.status, e.fields.title]),
        [
          ['hero', 'draft', 'Third, in draft'],
          ['features', 'draft', undefined],
          ['price', 'published', undefined],
        ],
      );
      const heroHistory = ok(
        await target.admin.GET('/v1/content/{entryId}/history', {
          params: { path: { entryId: entries.find((e) => e.instanceKey === 'hero')!.id } },
        }),
      ).data;
      assert.equal(heroHistory.length, 1);
    });

    it("an editor's export skips the webhooks and says so; an editor cannot import", async () => {
      const email = `editor-${process.pid}-${kind}@example.com`;
      const password = 'another long passphrase';
      ok(
        await source.project.member.POST('/v1/users', {
          body: { email, name: 'Grace', role: 'editor', password },
        }),
      );
      const login = await folio(['login', '--email', email, '--password', password], {
        env: { FOLIO_URL: origin.url },
      });
      const env = { FOLIO_URL: origin.url, FOLIO_TOKEN: envLines(login.out).FOLIO_TOKEN! };
      const out = join(files.dir, 'by-editor');
      const exported = await folio(['export', '--out', out], { env });
      assert.equal(exported.code, 0, exported.err);
      assert.match(exported.err, /and 0 webhooks into/);
      assert.match(exported.err, /Skipped: webhooks \(listing them needs an admin of the project\)/);
      const manifest = JSON.parse(readFileSync(join(out, 'folio-export.json'), 'utf8'));
      assert.deepEqual(manifest.skipped, ['webhooks (listing them needs an admin of the project)']);

      const server = await freshServer();
      const target = await newProject(server.url);
      ok(await target.member.POST('/v1/users', { body: { email, name: 'Grace', role: 'editor', password } }));
      const asEditor = await folio(['login', '--email', email, '--password', password], {
        env: { FOLIO_URL: server.url },
      });
      const imported = await folio(['import', out], {
        env: { FOLIO_URL: server.url, FOLIO_TOKEN: envLines(asEditor.out).FOLIO_TOKEN! },
      });
      assert.equal(imported.code, 1);
      assert.match(
        imported.err,
        /import needs an admin of project prj_\w+: could not list the webhooks: .*\(forbidden/,
      );
      assert.deepEqual(ok(await target.member.GET('/v1/pages')).data, []);
    });

    it('needs a session, and a directory that is an export', async () => {
      const noSession = await folio(['import', dir], {
        env: { FOLIO_URL: origin.url, FOLIO_KEY: source.project.key },
      });
      assert.equal(noSession.code, 2);
      assert.match(noSession.err, /import needs a member's session/);
      const notExport = await folio(['import', files.dir], { env: source.project.env });
      assert.equal(notExport.code, 1);
      assert.match(notExport.err, /is not a Folio export \(no folio-export\.json/);
    });
  });
}
