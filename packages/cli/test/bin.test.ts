import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { withAdminClient } from '../../../server/test/helpers/db.js';
import { dbKinds, scratch } from './harness.js';

/**
 * The shipped `folio`: built (dist/bin.js, with its shebang), spawned as a process. `migrate` runs the
 * server's own migrator in a child, so it is tested here, on a fresh database of each kind.
 */
const run = promisify(execFile);
const cliRoot = new URL('..', import.meta.url).pathname;
const repoRoot = new URL('../../..', import.meta.url).pathname;
const bin = join(cliRoot, 'dist', 'bin.js');

async function folioBin(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; bin?: string } = {},
) {
  try {
    const { stdout, stderr } = await run(process.execPath, [options.bin ?? bin, ...args], {
      env: { PATH: process.env.PATH, ...options.env },
      cwd: options.cwd ?? cliRoot,
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

describe('the folio bin', () => {
  const files = scratch();
  before(async () => {
    // What `npm install` (the root's prepare) builds; rebuilt here so the test runs what the source says.
    await run(
      process.execPath,
      [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: cliRoot,
      },
    );
  });
  after(() => files.remove());

  it('runs as a command: --help lists the commands, exit codes reach the shell', async () => {
    const help = await folioBin(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: folio <command>/);
    const wrong = await folioBin(['bake']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /bake needs the publishable key/);
  });

  it('the bin npm links is a committed, executable file that loads the build', async () => {
    // npm links node_modules/.bin/folio only if the file exists at install time, before `prepare`
    // builds dist/: a bin inside dist/ was not linked on a fresh clone's first install.
    const manifest = JSON.parse(readFileSync(join(cliRoot, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    const linked = manifest.bin.folio!;
    assert.doesNotMatch(linked, /^(\.\/)?dist\//, 'the bin must exist before the build');
    const { stdout } = await run('git', ['ls-files', '--stage', '--', linked], { cwd: cliRoot });
    assert.match(stdout, /^100755 /, `${linked} is tracked by git and executable`);
    const help = await folioBin(['--help'], { bin: join(cliRoot, linked) });
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, /^Usage: folio <command>/);
    assert.match((await folioBin(['--version'], { bin: join(cliRoot, linked) })).out, /^\d+\.\d+\.\d+\n$/);
  });

  for (const kind of dbKinds()) {
    it(`migrate runs the server's migrations on a fresh database, then has nothing to do [${kind}]`, async () => {
      const name = `folio_cli_migrate_${process.env.FOLIO_TEST_RUN_ID ?? 'x'}_${process.pid}`;
      const env: NodeJS.ProcessEnv = { CMS_DATA_DIR: join(files.dir, `data-${kind}`), LOG_LEVEL: 'silent' };
      if (kind === 'postgres') {
        await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${name}`;
        env.DATABASE_URL = url.toString();
      }
      try {
        const first = await folioBin(['migrate'], { env });
        assert.equal(first.code, 0, first.err);
        assert.match(first.out, /^Up 0001_\w+: Success\n/);
        const second = await folioBin(['migrate', 'up'], { env });
        assert.equal(second.out, 'Nothing to migrate.\n');
        const down = await folioBin(['migrate', 'down'], { env });
        assert.match(down.out, /^Down \d{4}_\w+: Success\n$/);
        const bad = await folioBin(['migrate', 'sideways'], { env });
        assert.equal(bad.code, 1);
        assert.match(bad.err, /migrate takes "up" or "down"/);
      } finally {
        if (kind === 'postgres') {
          await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
        }
      }
    });
  }

  it('migrate explains what to do where @folio/server is not installed', async () => {
    // The CLI installed alone: its dist and its one dependency, nothing else.
    const prefix = join(files.dir, 'alone');
    const installed = join(prefix, 'node_modules', '@folio', 'cli');
    mkdirSync(installed, { recursive: true });
    cpSync(join(cliRoot, 'dist'), join(installed, 'dist'), { recursive: true });
    cpSync(join(cliRoot, 'package.json'), join(installed, 'package.json'));
    symlinkSync(join(repoRoot, 'packages', 'client'), join(prefix, 'node_modules', '@folio', 'client'));
    writeFileSync(join(prefix, 'package.json'), '{ "private": true }');

    const alone = await folioBin(['migrate'], { cwd: prefix, bin: join(installed, 'dist', 'bin.js') });
    assert.equal(alone.code, 1);
    assert.match(
      alone.err,
      /folio migrate runs the migrations of @folio\/server, which is not installed here/,
    );
    assert.match(alone.err, /npm install @folio\/server/);
  });
});
