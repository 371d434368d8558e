#!/usr/bin/env node
/**
 * `npm test` for the example site: builds what the browser tests run (the server, and the packages the
 * site and its build use, when their sources are newer than their build), runs Playwright, and ends
 * with the plain line "N passed, N failed" that the root runner adds up. The tests build the site
 * themselves. Arguments filter the spec files by path, as in the other workspaces.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const site = new URL('..', import.meta.url).pathname;
const root = join(site, '../..');
const testDir = join(site, 'test');
const filters = process.argv.slice(2);
const specs = readdirSync(testDir)
  .filter((name) => name.endsWith('.spec.ts'))
  .filter((name) => filters.length === 0 || filters.some((f) => join(testDir, name).includes(f)));

const done = (passed, failed, code) => {
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exit(code);
};
if (specs.length === 0) done(0, 0, 0);

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}
const run = (args, cwd = root) => {
  const result = spawnSync('npm', args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stdout.write(`\nnpm ${args.join(' ')} failed\n`);
    done(0, 1, 1);
  }
};
// In dependency order: the client before the SDK and the CLI, the SDK before the React bindings.
for (const [workspace, dir, built] of [
  ['@folio/server', 'server', 'server/dist/server.js'],
  ['@folio/client', 'packages/client', 'packages/client/dist/index.js'],
  ['@folio/sdk', 'packages/sdk', 'packages/sdk/dist/index.js'],
  ['@folio/react', 'packages/react', 'packages/react/dist/index.js'],
  ['@folio/cli', 'packages/cli', 'packages/cli/dist/bin.js'],
  // Served by Folio at /admin for the visual-editing test.
  ['@folio/dashboard', 'dashboard', 'dashboard/dist/index.html'],
]) {
  const output = join(root, built);
  if (!existsSync(output) || statSync(output).mtimeMs < newestIn(join(root, dir, 'src'))) {
    run(['run', '--silent', 'build', '-w', workspace]);
  }
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  process.stdout.write(
    `\nNo Chromium at ${chromium}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH.\n`,
  );
  done(0, 1, 1);
}

rmSync(join(site, 'test-results/results.json'), { force: true });
const pw = spawnSync(
  process.execPath,
  [join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...specs],
  {
    cwd: site,
    stdio: 'inherit',
  },
);
let passed = 0;
let failed = 0;
try {
  const { stats } = JSON.parse(readFileSync(join(site, 'test-results/results.json'), 'utf8'));
  passed = stats.expected;
  failed = stats.unexpected + stats.flaky;
} catch {
  failed = 1;
}
if (pw.status !== 0 && failed === 0) failed = 1;
done(passed, failed, failed > 0 ? 1 : 0);
