#!/usr/bin/env node
/**
 * `npm run bench:size`: what the SDK and the React bindings add to a site's JavaScript, minified by
 * esbuild and gzipped (level 9), from the built `dist/` (what the packages ship), every export kept.
 *
 * Budgets (issue 15): SDK core <= 5 KB, React bindings <= 3 KB, each measured without what it
 * depends on: the core without @folio/client and openapi-fetch (the generated client, marked
 * external), the bindings without react and @folio/sdk. The totals a site really pays are measured in
 * the same run as the baseline: the SDK with the client and openapi-fetch bundled in, and all of it
 * with the bindings. Writes bench/results.md and exits 1 when a budget is exceeded.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url).pathname;
const sdk = new URL('../dist/index.js', import.meta.url).pathname;
const react = new URL('../../react/dist/index.js', import.meta.url).pathname;
const client = new URL('../../client/dist/index.js', import.meta.url).pathname;

/**
 * Code splitting on, as a site's bundler does: the visual-editing code, behind a dynamic import(), goes
 * to a chunk of its own that a page loads only in the dashboard's pane. A row counts the entry and
 * what it imports statically (`lazy: false`), or only what is loaded later (`lazy: true`).
 */
async function measure(label, contents, external, budget, lazy = false) {
  const entry = join(here, '.size-entry.mjs');
  writeFileSync(entry, contents);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    outdir: join(here, '.size-out'),
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    external,
    logLevel: 'error',
  }).finally(() => rmSync(entry));
  const outputs = result.metafile.outputs;
  const main = Object.keys(outputs).find((path) => outputs[path].entryPoint);
  const eager = new Set();
  const visit = (path) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const i of outputs[path].imports)
      if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  visit(main);
  const files = result.outputFiles.filter((file) => {
    const path = Object.keys(outputs).find((p) => file.path.endsWith(p));
    return path && !path.endsWith('.map') && eager.has(path) !== lazy;
  });
  const code = Buffer.concat(files.map((file) => file.contents));
  return { label, minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, budget };
}

const everything = (path) => `export * from ${JSON.stringify(path)};`;
const rows = [
  await measure(
    'SDK core (@folio/sdk, without @folio/client and openapi-fetch)',
    everything(sdk),
    ['@folio/client'],
    5 * 1024,
  ),
  await measure(
    "Visual editing (@folio/sdk's lazy chunks: the bridge, loaded in a frame only; the session, after the editor's init only)",
    everything(sdk),
    ['@folio/client'],
    undefined,
    true,
  ),
  await measure(
    'React bindings (@folio/react, without react and @folio/sdk)',
    everything(react),
    ['react', 'react/*', 'react-dom', '@folio/sdk'],
    3 * 1024,
  ),
  await measure('openapi-fetch alone', everything('openapi-fetch'), []),
  await measure('@folio/client (with openapi-fetch)', everything(client), []),
  await measure('SDK with @folio/client and openapi-fetch (what a site loads)', everything(sdk), []),
  await measure(
    'SDK + React bindings + client + openapi-fetch (without react)',
    `${everything(sdk)}\n${everything(react)}`,
    ['react', 'react/*', 'react-dom'],
  ),
];

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
const lines = [
  '# Bundle size of @folio/sdk and @folio/react',
  '',
  `Measured ${new Date().toISOString()} by \`npm run bench:size\` in packages/sdk (esbuild ${(await import('esbuild')).version}, minify, ESM, gzip -9), from the built dist/ of each package with every export kept.`,
  '',
  '| bundle | minified | minified + gzip | budget |',
  '|---|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${kb(r.minified)} | ${kb(r.gzipped)} | ${r.budget ? `${kb(r.budget)}: ${r.gzipped <= r.budget ? 'within' : '**over**'}` : '—'} |`,
  ),
  '',
  'The budgets count only each package\'s own code: openapi-fetch is not counted in "SDK core" (it comes',
  'with @folio/client, the generated client, which is external there); the rows below it give the totals.',
  '',
];
writeFileSync(new URL('results.md', import.meta.url), lines.join('\n'));
process.stdout.write(lines.join('\n'));
process.exitCode = rows.every((r) => !r.budget || r.gzipped <= r.budget) ? 0 : 1;
