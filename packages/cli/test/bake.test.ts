import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFolio, text } from '../../sdk/src/index.js';
import {
  dbKinds,
  deadUrl,
  folio,
  newProject,
  ok,
  type RunningFolio,
  scratch,
  startFolio,
} from './harness.js';

const hero = { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' as const }] };

for (const kind of dbKinds()) {
  describe(`folio bake [${kind}]`, () => {
    let server: RunningFolio;
    const files = scratch();
    before(async () => {
      server = await startFolio(kind);
    });
    after(async () => {
      await server?.close();
      files.remove();
    });

    it('writes the published snapshot and prints its version', async () => {
      const site = await newProject(server.url);
      ok(await site.admin.POST('/v1/definitions/sync', { body: { pageId: '/', components: [hero] } }));
      const page = ok(await site.admin.GET('/v1/content/{id}', { params: { path: { id: '/' } } }));
      ok(
        await site.admin.PATCH('/v1/content/{id}', {
          params: { path: { id: page.data[0]!.id } },
          body: { fields: { title: 'Baked' }, status: 'published' },
        }),
      );
      const live = ok(await site.admin.GET('/v1/snapshot')).data;

      const baked = await folio(['bake', '--out', 'build/snapshot.json'], {
        env: { FOLIO_URL: server.url, FOLIO_KEY: site.key },
        cwd: files.dir,
      });
      assert.equal(baked.code, 0, baked.err);
      assert.equal(baked.out, `${live.version}\n`);
      assert.match(baked.err, /Baked 1 page \(1 entry\) and 0 objects into .*build\/snapshot\.json/);
      const file = JSON.parse(readFileSync(join(files.dir, 'build/snapshot.json'), 'utf8'));
      assert.equal(file.version, live.version);
      assert.deepEqual(file.content, {
        // Each entry carries its id (contract §17), so a build can resolve references.
        '/': [{ id: page.data[0]!.id, instanceKey: 'hero', componentId: 'Hero', fields: { title: 'Baked' } }],
      });
    });

    it('in a project with locales, writes every locale (?locale=*) and the SDK reads each from it', async () => {
      const site = await newProject(server.url);
      ok(
        await site.admin.PATCH('/v1/projects/{id}', {
          params: { path: { id: site.id } },
          body: { locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] } },
        }),
      );
      const fields = { title: text({ localized: true }) };
      await createFolio({ url: server.url, key: site.key }).register('/', [
        { componentId: 'Hero', instanceKey: 'hero', fields },
      ]);
      const page = ok(await site.admin.GET('/v1/content/{id}', { params: { path: { id: '/' } } }));
      const id = page.data[0]!.id;
      for (const [locale, title] of [
        ['en', 'Hello'],
        ['fr', 'Bonjour'],
      ] as const) {
        ok(
          await site.admin.PATCH('/v1/content/{id}', {
            params: { path: { id }, query: { locale } },
            body: { fields: { title }, status: 'published' },
          }),
        );
      }
      const env = { FOLIO_URL: server.url, FOLIO_KEY: site.key };
      const all = await fetch(`${server.url}/v1/snapshot?locale=*`, { headers: { 'x-cms-key': site.key } });
      const version = ((await all.json()) as { data: { version: string } }).data.version;

      const baked = await folio(['bake', '--out', 'all.json'], { env, cwd: files.dir });
      assert.equal(baked.code, 0, baked.err);
      assert.equal(baked.out, `${version}\n`);
      assert.match(baked.err, /Baked 1 page in 2 locales \(en, fr\) and 0 objects into .*all\.json/);
      const file = JSON.parse(readFileSync(join(files.dir, 'all.json'), 'utf8'));
      assert.equal(file.schema, 2);
      assert.equal(file.defaultLocale, 'en');
      const titles = async (locale?: string) =>
        (await createFolio({ url: server.url, key: site.key, snapshot: file, locale }).page('/')).map(
          (e) => e.fields.title,
        );
      assert.deepEqual(await titles('fr'), ['Bonjour']);
      assert.deepEqual(await titles('en'), ['Hello']);
      assert.deepEqual(await titles(), ['Hello']);

      const one = await folio(['bake', '--out', 'fr.json', '--locale', 'fr'], { env, cwd: files.dir });
      assert.equal(one.code, 0, one.err);
      assert.match(one.err, /Baked 1 page \(1 entry\) in fr and 0 objects/);
      const fr = JSON.parse(readFileSync(join(files.dir, 'fr.json'), 'utf8'));
      assert.equal(fr.locale, 'fr');
      assert.equal(fr.content['/'][0].fields.title, 'Bonjour');

      const unknown = await folio(['bake', '--out', 'de.json', '--locale', 'de'], { env, cwd: files.dir });
      assert.equal(unknown.code, 1);
      assert.match(unknown.err, /could not read the snapshot of locale de: .*validation_failed, HTTP 400/);
      assert.equal(existsSync(join(files.dir, 'de.json')), false);
    });

    it('a project without locales is baked as before; --locale is refused there', async () => {
      const site = await newProject(server.url);
      const env = { FOLIO_URL: server.url, FOLIO_KEY: site.key };
      const baked = await folio(['bake', '--out', 'plain.json'], { env, cwd: files.dir });
      assert.equal(baked.code, 0, baked.err);
      const file = JSON.parse(readFileSync(join(files.dir, 'plain.json'), 'utf8'));
      assert.equal(file.schema, 1);
      assert.equal('locale' in file, false);
      const star = await folio(['bake', '--out', 'star.json', '--locale', '*'], { env, cwd: files.dir });
      assert.equal(star.code, 1);
      assert.match(star.err, /validation_failed, HTTP 400/);
    });

    it('writes nothing and exits 0 when baking is off, removing an earlier snapshot', async () => {
      const site = await newProject(server.url);
      ok(
        await site.admin.PATCH('/v1/projects/{id}', {
          params: { path: { id: site.id } },
          body: { bakeEnabled: false },
        }),
      );
      const out = join(files.dir, 'off.json');
      writeFileSync(out, '{"stale":true}');
      const baked = await folio(['bake', '--out', out, '--key', site.key, '--url', server.url]);
      assert.equal(baked.code, 0, baked.err);
      assert.equal(baked.out, '');
      assert.match(baked.err, /Baking is off for this project \(bakeEnabled is false\)/);
      assert.match(baked.err, /earlier .*off\.json removed/);
      assert.equal(existsSync(out), false);

      const again = await folio(['bake', '--out', out, '--key', site.key, '--url', server.url]);
      assert.equal(again.code, 0);
      assert.doesNotMatch(again.err, /removed/);
    });

    it('bakes with a secret key and --project', async () => {
      const site = await newProject(server.url);
      const key = ok(
        await site.admin.POST('/v1/api-keys', {
          body: { name: 'build', scope: 'selected', projectIds: [site.id], access: 'read' },
        }),
      ).data.key;
      const baked = await folio(['bake', '--out', join(files.dir, 'secret.json')], {
        env: { FOLIO_URL: server.url, FOLIO_SECRET_KEY: key, FOLIO_PROJECT: site.id },
      });
      assert.equal(baked.code, 0, baked.err);
      assert.match(baked.out, /^sha256:[0-9a-f]{64}\n$/);
    });

    it("names the API's code when Folio refuses the key, and writes nothing", async () => {
      const out = join(files.dir, 'refused.json');
      const baked = await folio(['bake', '--out', out], {
        env: { FOLIO_URL: server.url, FOLIO_KEY: 'cms_pk_unknown' },
      });
      assert.equal(baked.code, 1);
      assert.match(baked.err, /^folio bake: could not read the snapshot: .*\(unauthorized, HTTP 401\)/);
      assert.equal(existsSync(out), false);
    });

    it('says what is missing without a key, and when Folio does not answer', async () => {
      const missing = await folio(['bake'], { env: { FOLIO_URL: server.url } });
      assert.equal(missing.code, 2);
      assert.match(missing.err, /bake needs the publishable key \(--key or FOLIO_KEY\)/);
      assert.match(missing.err, /Run "folio bake --help"/);

      const dead = await deadUrl();
      const down = await folio(['bake', '--key', 'cms_pk_x', '--url', dead]);
      assert.equal(down.code, 1);
      assert.equal(
        down.err,
        `folio bake: could not read the snapshot: Folio at ${dead} did not answer (ECONNREFUSED)\n`,
      );
    });
  });
}
