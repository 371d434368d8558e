import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
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

const run = promisify(execFile);
const cliRoot = new URL('..', import.meta.url).pathname;
const repoRoot = new URL('../../..', import.meta.url).pathname;

const v1 = {
  '/': [
    { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
    { componentId: 'Price', instanceKey: 'price', fields: [{ key: 'amount', type: 'text' }] },
  ],
};
const v2 = {
  '/': [
    {
      componentId: 'Hero',
      instanceKey: 'hero',
      fields: [
        { key: 'title', type: 'text' },
        { key: 'image', type: 'image' },
      ],
    },
    { componentId: 'Price', instanceKey: 'price', fields: [{ key: 'amount', type: 'number' }] },
  ],
  '/about': [{ componentId: 'Text', instanceKey: 'body', fields: [{ key: 'text', type: 'richtext' }] }],
};

for (const kind of dbKinds()) {
  describe(`folio push [${kind}]`, () => {
    let server: RunningFolio;
    let site: Project;
    const files = scratch();
    const file = (name: string, value: unknown) => {
      writeFileSync(join(files.dir, name), JSON.stringify(value));
      return name;
    };
    const definitions = async (pageId: string) =>
      ok(await site.admin.GET('/v1/definitions/{pageId}', { params: { path: { pageId } } })).data.map(
        ({ updatedAt: _, ...d }) => d,
      );
    before(async () => {
      server = await startFolio(kind);
      site = await newProject(server.url);
    });
    after(async () => {
      await server?.close();
      files.remove();
    });

    it('a dry run prints what would be created, and writes nothing', async () => {
      const dry = await folio(['push', file('v1.json', v1), '--dry-run'], { env: site.env, cwd: files.dir });
      assert.equal(dry.code, 0, dry.err);
      assert.equal(
        dry.out,
        '  /     create hero, price\nDry run of 1 page: 2 definitions to create, 0 to change, 0 rejected. Nothing was written.\n',
      );
      assert.deepEqual(await definitions('/'), []);
    });

    it('pushes with a session: creates, then changes types and adds fields on purpose', async () => {
      const first = await folio(['push', 'v1.json'], { env: site.env, cwd: files.dir });
      assert.equal(first.code, 0, first.err);
      assert.match(first.out, /Pushed 1 page: 2 definitions created, 0 changed, 0 rejected\./);
      assert.deepEqual(await definitions('/'), v1['/']);

      const dry = await folio(['push', file('v2.json', v2), '--dry-run'], { env: site.env, cwd: files.dir });
      assert.equal(dry.code, 0, dry.err);
      assert.equal(
        dry.out,
        [
          '  /       change hero (+image: image); change price (amount: text → number)',
          '  /about  create body',
          'Dry run of 2 pages: 1 definition to create, 2 to change, 0 rejected. Nothing was written.',
          '',
        ].join('\n'),
      );
      assert.deepEqual(await definitions('/'), v1['/']);

      const second = await folio(['push', 'v2.json'], { env: site.env, cwd: files.dir });
      assert.equal(second.code, 0, second.err);
      assert.match(second.out, /Pushed 2 pages: 1 definition created, 2 changed, 0 rejected\./);
      assert.deepEqual(await definitions('/'), v2['/']);
      assert.deepEqual(await definitions('/about'), v2['/about']);

      const again = await folio(['push', 'v2.json'], { env: site.env, cwd: files.dir });
      assert.match(again.out, / {2}\/ {7}unchanged\n {2}\/about {2}unchanged\n/);
    });

    it('asks before it removes fields; --yes answers for scripts; with nobody to ask it refuses', async () => {
      const v3 = { '/': [{ ...v2['/'][0]!, fields: [{ key: 'title', type: 'text' }] }, v2['/'][1]!] };
      file('v3.json', v3);
      const listed = /This push removes fields that FILE no longer lists:\n {2}\/ hero: image\n/;

      const script = await folio(['push', 'v3.json'], { env: site.env, cwd: files.dir });
      assert.equal(script.code, 2);
      assert.match(script.err, listed);
      assert.match(script.err, /there is no terminal to ask on; nothing was written/);
      assert.match(script.err, /Add --yes to remove them/);
      assert.deepEqual(await definitions('/'), v2['/']);

      const declined = await folio(['push', 'v3.json'], { env: site.env, cwd: files.dir, answer: false });
      assert.equal(declined.code, 1);
      assert.match(declined.err, listed);
      assert.match(declined.err, /Remove them\? \[y\/N\]\nfolio push: nothing was written/);
      assert.deepEqual(await definitions('/'), v2['/']);

      const accepted = await folio(['push', 'v3.json'], { env: site.env, cwd: files.dir, answer: true });
      assert.equal(accepted.code, 0, accepted.err);
      assert.deepEqual(await definitions('/'), v3['/']);

      // Adding needs no question; removing again with --yes asks nothing (no `ask` here at all).
      assert.equal((await folio(['push', 'v2.json'], { env: site.env, cwd: files.dir })).code, 0);
      // The real command with no terminal (stdin a pipe, as in CI): it refuses rather than waits.
      await run(
        process.execPath,
        [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: cliRoot,
        },
      );
      const piped = await run(process.execPath, [join(cliRoot, 'bin/folio.js'), 'push', 'v3.json'], {
        cwd: files.dir,
        env: { PATH: process.env.PATH, ...site.env },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(piped.code, 2);
      assert.match(piped.stderr, /there is no terminal to ask on; nothing was written/);
      assert.deepEqual(await definitions('/'), v2['/']);

      const yes = await folio(['push', 'v3.json', '--yes'], { env: site.env, cwd: files.dir });
      assert.equal(yes.code, 0, yes.err);
      assert.deepEqual(await definitions('/'), v3['/']);
      assert.equal((await folio(['push', 'v2.json'], { env: site.env, cwd: files.dir })).code, 0);
    });

    it('pushes with a write secret key and --project; a read key is refused', async () => {
      const key = async (access: 'read' | 'write') =>
        ok(
          await site.admin.POST('/v1/api-keys', {
            body: { name: `ci-${access}`, scope: 'selected', projectIds: [site.id], access },
          }),
        ).data.key;
      const doc = { '/pricing': [{ componentId: 'Table', instanceKey: 'table', fields: [] }] };
      const env = { FOLIO_URL: server.url, FOLIO_PROJECT: site.id };
      const pushed = await folio(['push', file('ci.json', doc), '--secret-key', await key('write')], {
        env,
        cwd: files.dir,
      });
      assert.equal(pushed.code, 0, pushed.err);
      assert.deepEqual(await definitions('/pricing'), doc['/pricing']);

      const refused = await folio(['push', 'ci.json', '--secret-key', await key('read')], {
        env,
        cwd: files.dir,
      });
      assert.equal(refused.code, 1);
      assert.match(refused.err, /\(forbidden, HTTP 403\)/);
    });

    it('writes nothing when one page is refused, and lists why', async () => {
      const bad = {
        '/ok': [{ componentId: 'A', instanceKey: 'a', fields: [] }],
        '/bad': [{ componentId: 'B', instanceKey: 'b', fields: [{ key: 'x', type: 'colour' }] }],
      };
      const pushed = await folio(['push', file('bad.json', bad)], { env: site.env, cwd: files.dir });
      assert.equal(pushed.code, 1);
      assert.match(
        pushed.err,
        /\/bad: could not sync the definitions of \/bad: .*\(validation_failed, HTTP 400\)/,
      );
      assert.match(pushed.err, /body\.components\/?.*type/);
      assert.match(pushed.err, /1 of 2 pages refused; nothing was written/);
      assert.deepEqual(await definitions('/ok'), []);
    });

    it('needs a session or a secret key, a file that exists, and JSON of the right shape', async () => {
      const keyOnly = await folio(['push', 'v1.json'], {
        env: { FOLIO_URL: server.url, FOLIO_KEY: site.key },
        cwd: files.dir,
      });
      assert.equal(keyOnly.code, 2);
      assert.match(keyOnly.err, /push needs a member's session \(--token or FOLIO_TOKEN/);

      const missing = await folio(['push', 'nope.json'], { env: site.env, cwd: files.dir });
      assert.equal(missing.code, 2);
      assert.match(missing.err, /cannot read nope\.json: ENOENT/);

      writeFileSync(join(files.dir, 'broken.json'), '{');
      const broken = await folio(['push', 'broken.json'], { env: site.env, cwd: files.dir });
      assert.equal(broken.code, 2);
      assert.match(broken.err, /broken\.json is not JSON/);

      const shape = await folio(['push', file('list.json', [1])], { env: site.env, cwd: files.dir });
      assert.equal(shape.code, 2);
      assert.match(shape.err, /list\.json must map page paths to arrays of components/);

      const none = await folio(['push'], { env: site.env });
      assert.equal(none.code, 2);
      assert.match(none.err, /missing argument/);
    });
  });
}
