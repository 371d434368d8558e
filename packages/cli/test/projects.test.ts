import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFolioClient } from '@folio/client';
import { COMMANDS } from '../src/cli.js';
import { dbKinds, envLines, folio, ok, type RunningFolio, startFolio } from './harness.js';

for (const kind of dbKinds()) {
  describe(`folio create-project and login [${kind}]`, () => {
    let server: RunningFolio;
    before(async () => {
      server = await startFolio(kind);
    });
    after(() => server?.close());

    it('creates a project and prints what the other commands read from the environment', async () => {
      const created = await folio(
        [
          'create-project',
          '--name',
          'Marketing',
          '--email',
          'ada@example.com',
          '--password',
          'correct horse',
        ],
        { env: { FOLIO_URL: server.url } },
      );
      assert.equal(created.code, 0, created.err);
      const env = envLines(created.out);
      assert.deepEqual(Object.keys(env), ['FOLIO_URL', 'FOLIO_PROJECT', 'FOLIO_KEY', 'FOLIO_TOKEN']);
      assert.equal(env.FOLIO_URL, server.url);
      assert.match(env.FOLIO_PROJECT!, /^prj_/);
      assert.match(env.FOLIO_KEY!, /^cms_pk_/);
      assert.match(created.err, /Created project "Marketing" \(prj_\w+\); ada@example\.com is its admin\./);

      const session = createFolioClient({ baseUrl: server.url, credentials: { session: env.FOLIO_TOKEN } });
      const projects = ok(await session.GET('/v1/projects')).data;
      assert.deepEqual(
        projects.map((p) => [p.id, p.apiKey, p.role]),
        [[env.FOLIO_PROJECT, env.FOLIO_KEY, 'admin']],
      );
    });

    it('login prints a working session token; a wrong password is invalid_credentials', async () => {
      const signedIn = await folio(['login', '--email', 'ada@example.com'], {
        env: { FOLIO_URL: server.url, FOLIO_PASSWORD: 'correct horse' },
      });
      assert.equal(signedIn.code, 0, signedIn.err);
      const { FOLIO_TOKEN } = envLines(signedIn.out);
      const me = createFolioClient({ baseUrl: server.url, credentials: { session: FOLIO_TOKEN } });
      assert.equal(ok(await me.GET('/v1/auth/me')).data.email, 'ada@example.com');

      const wrong = await folio(['login', '--email', 'ada@example.com', '--password', 'not it at all'], {
        env: { FOLIO_URL: server.url },
      });
      assert.equal(wrong.code, 1);
      assert.match(wrong.err, /^folio login: could not sign in: .*\(invalid_credentials, HTTP 401\)\n$/);
    });

    it("an existing email with another password is the API's conflict; missing options are named", async () => {
      const taken = await folio(
        ['create-project', '--name', 'Other', '--email', 'ada@example.com', '--password', 'another password'],
        { env: { FOLIO_URL: server.url } },
      );
      assert.equal(taken.code, 1);
      assert.match(taken.err, /could not create the project: .*\(conflict, HTTP 409\)/);

      const noName = await folio(['create-project', '--email', 'x@example.com', '--password', 'long enough']);
      assert.equal(noName.code, 2);
      assert.match(noName.err, /--name is required/);
      const noPassword = await folio(['create-project', '--name', 'X', '--email', 'x@example.com']);
      assert.match(noPassword.err, /--password is required \(or FOLIO_PASSWORD\)/);

      const short = await folio(
        ['create-project', '--name', 'X', '--email', 'x@example.com', '--password', 'short'],
        {
          env: { FOLIO_URL: server.url },
        },
      );
      assert.equal(short.code, 1);
      assert.match(short.err, /\(validation_failed, HTTP 400\)\n {2}body\.admin\.password: /);
    });
  });
}

describe('folio: help and usage', () => {
  it('every command has --help, naming its usage and its connection options', async () => {
    for (const command of COMMANDS) {
      const help = await folio([command.name, '--help']);
      assert.equal(help.code, 0, command.name);
      assert.match(help.out, new RegExp(`^Usage: folio ${command.name}`), command.name);
      assert.match(help.out, /-h, --help/);
      if (command.connection === 'all') assert.match(help.out, /--token TOKEN .*FOLIO_TOKEN/);
      assert.deepEqual(await folio(['help', command.name]), help);
    }
  });

  it('lists the commands; an unknown command or option is a usage error (exit 2)', async () => {
    const help = await folio(['--help']);
    assert.equal(help.code, 0);
    for (const command of COMMANDS) assert.match(help.out, new RegExp(`\\n  ${command.name} +\\S`));
    assert.equal((await folio([])).code, 2);
    assert.equal((await folio(['--version'])).out, '0.1.0\n');

    const unknown = await folio(['publish']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /^folio: unknown command "publish"/);

    const option = await folio(['bake', '--outt', 'x.json']);
    assert.equal(option.code, 2);
    assert.match(option.err, /^folio bake: Unknown option '--outt'/);
    assert.match(option.err, /Run "folio bake --help" for its usage\./);

    const url = await folio(['bake', '--url', 'localhost:3000', '--key', 'k']);
    assert.equal(url.code, 2);
    assert.match(url.err, /--url must be an http\(s\) address/);
  });
});
