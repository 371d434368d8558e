#!/usr/bin/env node
/**
 * The dashboard's first-load weight: builds it, then sums the gzipped size of the JavaScript that
 * index.html loads before anything else (the entry script and its modulepreloads), against the budget
 * of 250 KB. Chunks loaded on demand (the rich text editor, the media picker) are listed apart.
 * Writes bench/results/bundle-size.json and exits 1 over budget.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const dashboard = new URL('..', import.meta.url).pathname;
const dist = join(dashboard, 'dist');

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: dashboard, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [
  ...html.matchAll(/<script[^>]*\bsrc="\/admin\/([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/admin\/([^"]+\.js)"/g),
].map((m) => m[1]);
const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\/admin\/([^"]+\.css)"/g)].map(
  (m) => m[1],
);
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html))
  throw new Error('index.html has an inline script (the CSP forbids it)');

const size = (file) => {
  const bytes = readFileSync(join(dist, file));
  return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const kb = (n) => Math.round((n / 1024) * 10) / 10;
const sum = (list) => list.reduce((a, f) => a + f.gzip, 0);

const initialFiles = initial.map(size);
const allJs = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);
const lazyFiles = allJs.filter((f) => !initial.includes(f)).map(size);
const result = {
  measuredAt: new Date().toISOString(),
  budgetKbGzip: BUDGET_KB,
  initialJsKbGzip: kb(sum(initialFiles)),
  initialCssKbGzip: kb(sum(css.map(size))),
  lazyJsKbGzip: kb(sum(lazyFiles)),
  initial: initialFiles.map((f) => ({ ...f, kbGzip: kb(f.gzip) })),
  onDemand: lazyFiles.map((f) => ({ ...f, kbGzip: kb(f.gzip) })),
};
writeFileSync(join(dashboard, 'bench/results/bundle-size.json'), `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(
  `initial JavaScript: ${result.initialJsKbGzip} KB gzipped (budget ${BUDGET_KB} KB), CSS ${result.initialCssKbGzip} KB; on demand: ${result.lazyJsKbGzip} KB (${lazyFiles.map((f) => f.file.replace(/^assets\//, '')).join(', ')})\n`,
);
process.exitCode = result.initialJsKbGzip <= BUDGET_KB ? 0 : 1;
