import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEdge } from '../../sdk/test/harness/proxies.js';
import { describeChange } from '../src/commands/push.js';
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

/** A marketing page's declarations (contract §13): a list, a select, blocks, references, a link. */
const nested = {
  '@site': [
    {
      componentId: 'Menu',
      instanceKey: 'menu',
      fields: [
        {
          key: 'items',
          type: 'list',
          max: 8,
          fields: [
            { key: 'label', type: 'text', required: true, maxLength: 40 },
            { key: 'to', type: 'link', required: true },
          ],
        },
      ],
    },
  ],
  '/': [
    {
      componentId: 'Landing',
      instanceKey: 'landing',
      fields: [
        { key: 'variant', type: 'select', options: [{ value: 'light' }, { value: 'dark', label: 'Dark' }] },
        {
          key: 'sections',
          type: 'blocks',
          blocks: [
            {
              componentId: 'Hero',
              label: 'Hero',
              fields: [{ key: 'headline', type: 'text', maxLength: 60 }],
            },
            {
              componentId: 'Features',
              fields: [{ key: 'items', type: 'list', fields: [{ key: 'title', type: 'text' }] }],
            },
          ],
        },
        { key: 'testimonials', type: 'reference', componentIds: ['Testimonial'], multiple: true, max: 6 },
      ],
    },
  ],
};

describe('push describes changes to nested declarations', () => {
  const change = (from: unknown[], to: unknown[]) =>
    describeChange({
      instanceKey: 'x',
      from: { componentId: 'X', fields: from },
      to: { componentId: 'X', fields: to },
    } as never);

  it('a changed option or nested field is a change, named by its key', () => {
    const list = (max: number, extra: object[] = []) => ({
      key: 'items',
      type: 'list',
      max,
      fields: [{ key: 'title', type: 'text' }, ...extra],
    });
    assert.equal(change([list(8)], [list(10)]), 'items: list (options)');
    assert.equal(change([list(8)], [list(8, [{ key: 'icon', type: 'image' }])]), 'items: list (options)');
    assert.equal(change([list(8)], [{ key: 'items', type: 'json' }]), 'items: list → json');
    assert.equal(change([list(8)], [list(8), { key: 'x', type: 'text' }]), '+x: text');
    assert.equal(change([list(8)], [{ ...list(8), max: 8 }]), 'field order');
  });
});

for (const kind of dbKinds()) {
  describe(`push and export/import carry nested declarations and values [${kind}]`, () => {
    let server: RunningFolio;
    let site: Project;
    const files = scratch();
    before(async () => {
      server = await startFolio(kind);
      site = await newProject(server.url);
    });
    after(async () => {
      await server?.close();
      files.remove();
    });

    it('push --dry-run sends the nested declarations of the file exactly as written', async () => {
      const edge = await startEdge(server.url, () => undefined);
      try {
        writeFileSync(join(files.dir, 'nested.json'), JSON.stringify(nested));
        // Whether this server accepts them is the server's part of issue 34; what the CLI sends is this test's.
        await folio(['push', 'nested.json', '--dry-run'], {
          env: { ...site.env, FOLIO_URL: edge.url },
          cwd: files.dir,
        });
        const synced = edge.seen.filter((s) => s.path.startsWith('/v1/definitions/sync'));
        assert.deepEqual(
          synced.map((s) => [s.path, JSON.parse(s.body!)]),
          [
            ['/v1/definitions/sync?dryRun=true', { pageId: '@site', components: nested['@site'] }],
            ['/v1/definitions/sync?dryRun=true', { pageId: '/', components: nested['/'] }],
          ],
        );
      } finally {
        await edge.close();
      }
    });

    it('export and import keep nested values, _keys, entry ids and the references to them', async () => {
      const { admin } = site;
      const sync = async (pageId: string, components: never) =>
        ok(await admin.POST('/v1/definitions/sync', { body: { pageId, components } }));
      await sync('@site', [
        { componentId: 'Testimonial', instanceKey: 'ada', fields: [{ key: 'quote', type: 'text' }] },
        { componentId: 'Testimonial', instanceKey: 'lin', fields: [{ key: 'quote', type: 'text' }] },
      ] as never);
      // `featured` and `testimonials` declared as references: visitors read them resolved, so an export
      // must read the published copy as stored (a member's ?copy=published) to import it back.
      await sync('/', [
        {
          componentId: 'Landing',
          instanceKey: 'landing',
          fields: [
            { key: 'title', type: 'text' },
            { key: 'featured', type: 'reference' },
            { key: 'testimonials', type: 'reference', multiple: true },
          ],
        },
      ] as never);
      const page = async (client: typeof admin, pageId: string) =>
        ok(await client.GET('/v1/content/{id}', { params: { path: { id: pageId } } })).data;
      const ids = Object.fromEntries((await page(admin, '@site')).map((e) => [e.instanceKey, e.id]));
      for (const [key, quote] of [
        ['ada', 'It just works'],
        ['lin', 'Fast'],
      ] as const) {
        ok(
          await admin.PATCH('/v1/content/{id}', {
            params: { path: { id: ids[key]! } },
            body: { fields: { quote }, status: 'published' },
          }),
        );
      }
      // Values of the shapes of §13, under keys no definition declares yet (part one stores them as sent).
      const fields = (featured: string, others: string[]) => ({
        title: 'Welcome',
        featured,
        testimonials: others,
        sections: [
          { _key: 'hero1', _type: 'Hero', headline: 'Ship faster' },
          { _key: 'feat1', _type: 'Features', items: [{ _key: 'a1', title: 'Fast', ref: featured }] },
        ],
        cta: { pageId: '/pricing' },
        note: `not a reference: ${featured}`,
      });
      const landing = (await page(admin, '/'))[0]!;
      ok(
        await admin.PATCH('/v1/content/{id}', {
          params: { path: { id: landing.id } },
          body: { fields: fields(ids.ada!, [ids.lin!, ids.ada!]), status: 'published' },
        }),
      );

      const dir = join(files.dir, 'export');
      const exported = await folio(['export', '--out', dir], { env: site.env });
      assert.equal(exported.code, 0, exported.err);
      const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8'));
      assert.deepEqual(
        entries.find((e: { instanceKey: string }) => e.instanceKey === 'landing').published,
        fields(ids.ada!, [ids.lin!, ids.ada!]),
      );

      const fresh = await startFolio(kind);
      try {
        const target = await newProject(fresh.url);
        const imported = await folio(['import', dir], { env: target.env });
        assert.equal(imported.code, 0, imported.err);
        // Every entry keeps its id on a fresh server (issue 44 item 5), references with it; a server
        // where an id is taken is keep-ids.test.ts.
        assert.match(imported.err, /Entry ids: all 3 kept\./);
        assert.match(imported.err, /: the same as the export's\./);
        const moved = Object.fromEntries(
          (await page(target.admin, '@site')).map((e) => [e.instanceKey, e.id]),
        );
        assert.equal(moved.ada, ids.ada);
        const now = (await page(target.admin, '/'))[0]!;
        assert.deepEqual(now.fields, fields(ids.ada!, [ids.lin!, ids.ada!]));
        assert.equal(now.status, 'published');
      } finally {
        await fresh.close();
      }
    });
  });
}
