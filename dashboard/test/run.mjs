#!/usr/bin/env node
/**
 * `npm test` for the dashboard: first the unit tests of pure logic (Vitest, files `*.test.ts` in src/, as
 * `npm run test:unit`), then builds what the browser tests need (the server and the client when
 * their sources are newer than their build, the dashboard always), runs Playwright, and ends with the
 * plain line "N passed, N failed" that the root runner adds up, both kinds counted. Arguments filter
 * the test files by path, as in the other workspaces; a filter that matches none runs nothing here,
 * which is no failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dashboard = new URL('..', import.meta.url).pathname;
const root = join(dashboard, '..');
const testDir = join(dashboard, 'test');
const filters = process.argv.slice(2);
const chosen = (path) => filters.length === 0 || filters.some((f) => path.includes(f));
const specs = readdirSync(testDir)
  .filter((name) => name.endsWith('.spec.ts'))
  .filter((name) => chosen(join(testDir, name)));
const units = readdirSync(join(dashboard, 'src'), { recursive: true })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join('src', name))
  .filter((path) => chosen(join(dashboard, path)));

let passed = 0;
let failed = 0;
const done = (passed, failed, code) => {
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exit(code);
};
if (specs.length === 0 && units.length === 0) done(0, 0, 0);

// The unit tests need no build and no browser: they run first, and count even when a build fails.
if (units.length > 0) {
  const report = join(dashboard, 'test-results/unit.json');
  rmSync(report, { force: true });
  const vitest = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...units,
    ],
    { cwd: dashboard, stdio: 'inherit' },
  );
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
  } catch {
    failed += 1;
  }
  if (vitest.status !== 0 && failed === 0) failed = 1;
}
if (specs.length === 0) done(passed, failed, failed > 0 ? 1 : 0);

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
    done(passed, failed + 1, 1);
  }
};
for (const [workspace, dir, built] of [
  ['@folio/server', 'server', 'server/dist/server.js'],
  ['@folio/client', 'packages/client', 'packages/client/dist/index.js'],
]) {
  const output = join(root, built);
  if (!existsSync(output) || statSync(output).mtimeMs < newestIn(join(root, dir, 'src'))) {
    run(['run', '--silent', 'build', '-w', workspace]);
  }
}
run(['run', '--silent', 'build'], dashboard);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  process.stdout.write(
    `\nNo Chromium at ${chromium}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH.\n`,
  );
  done(passed, failed + 1, 1);
}

// What git sees changed under test/screenshots: a run must not touch the committed references unless
// asked to (FOLIO_REFERENCE_SCREENSHOTS=1), so that `npm test` leaves the tree clean. No git (a
// tarball): nothing to compare.
const referencesChanged = () => {
  const git = spawnSync('git', ['status', '--porcelain', '--', 'test/screenshots'], {
    cwd: dashboard,
    encoding: 'utf8',
  });
  return git.status === 0 ? git.stdout : '';
};
const referencesBefore = referencesChanged();

rmSync(join(dashboard, 'test-results/results.json'), { force: true });
const pw = spawnSync(
  process.execPath,
  [join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...specs],
  {
    cwd: dashboard,
    stdio: 'inherit',
  },
);
const failedBefore = failed;
try {
  const { stats } = JSON.parse(readFileSync(join(dashboard, 'test-results/results.json'), 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
} catch {
  failed += 1;
}
if (pw.status !== 0 && failed === failedBefore) failed += 1;
const referencesAfter = referencesChanged();
if (process.env.FOLIO_REFERENCE_SCREENSHOTS !== '1' && referencesAfter !== referencesBefore) {
  process.stdout.write(
    `\nThe run changed committed screenshots (test/screenshots), leaving the tree dirty:\n${referencesAfter}` +
      'Tests write to test-results/screenshots; FOLIO_REFERENCE_SCREENSHOTS=1 updates the references on purpose.\n',
  );
  failed += 1;
}
done(passed, failed, failed > 0 ? 1 : 0);
