import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildSync } from 'esbuild';

/*
 * Each start is a real node process: the loader (runBundle) runs a small CommonJS bundle with V8's
 * real code cache, as dist/server.js runs dist/server.cjs.
 */
const dir = mkdtempSync(join(tmpdir(), 'folio-run-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The loader built as scripts/bundle.ts builds it, run by plain node (tsx would turn source maps on).
const entry = join(dir, 'entry.mjs');
buildSync({
  stdin: {
    contents: `import { runBundle } from './run-bundle.ts';
runBundle(process.argv[2], { cache: process.argv[3], saveAfterMs: 0 });`,
    resolveDir: new URL('.', import.meta.url).pathname,
    loader: 'ts',
  },
  outfile: entry,
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});

/** A bundle that answers with its own value, the loader's status and what CommonJS gives it. */
function bundle(name: string, value: string): string {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(
    file,
    `function answer() { return ${JSON.stringify(value)}; }
const status = globalThis[Symbol.for('folio.compileCache')];
process.stdout.write(JSON.stringify({ value: answer(), status, dirname: __dirname, filename: __filename,
  required: typeof require('node:path').join, exportsIsModuleExports: exports === module.exports }));
setTimeout(() => {}, 20); // lets the loader's save run before the process ends
`,
  );
  return file;
}

function start(file: string, cache: string, nodeArgs: string[] = []) {
  const { CMS_COMPILE_CACHE: _ignored, ...env } = process.env;
  const child = spawnSync(process.execPath, [...nodeArgs, entry, file, cache], { encoding: 'utf8', env });
  assert.equal(child.status, 0, child.stderr);
  return { ...JSON.parse(child.stdout), stderr: child.stderr } as {
    value: string;
    status: string;
    dirname: string;
    filename: string;
    required: string;
    exportsIsModuleExports: boolean;
    stderr: string;
  };
}

const cacheFiles = (cache: string) => readdirSync(cache).filter((f) => f.endsWith('.v8'));

describe('runBundle: a process bundle with V8 code cache', () => {
  it('compiles from source and writes the cache, then starts from it, as node would run the module', () => {
    const file = bundle('plain', 'first');
    const cache = join(dir, 'cache-plain');
    const first = start(file, cache);
    assert.equal(first.status, 'missing');
    assert.equal(first.value, 'first');
    assert.deepEqual(
      [first.dirname, first.filename, first.required, first.exportsIsModuleExports],
      [dir, file, 'function', true],
    );
    assert.equal(cacheFiles(cache).length, 1);
    assert.match(cacheFiles(cache)[0] as string, /^plain-[0-9a-f]{32}\.v8$/);
    const second = start(file, cache);
    assert.equal(second.status, 'used');
    assert.equal(second.value, 'first');
  });

  it('never runs the code cached for other bytes of the same length', () => {
    const cache = join(dir, 'cache-changed');
    const file = bundle('changed', 'aaaa');
    assert.equal(start(file, cache).status, 'missing');
    assert.equal(start(file, cache).status, 'used');
    bundle('changed', 'bbbb'); // same length: V8's own check would take the old cache
    const changed = start(file, cache);
    assert.equal(changed.value, 'bbbb');
    assert.equal(changed.status, 'missing');
    assert.equal(cacheFiles(cache).length, 2);
  });

  it('keeps one cache per set of node flags (V8 refuses a cache made under other flags)', () => {
    const cache = join(dir, 'cache-flags');
    const file = bundle('flags', 'x');
    start(file, cache);
    assert.equal(start(file, cache).status, 'used');
    assert.equal(start(file, cache, ['--max-semi-space-size=4']).status, 'missing');
    assert.equal(start(file, cache, ['--max-semi-space-size=4']).status, 'used');
    assert.equal(start(file, cache).status, 'used');
  });

  it('compiles from source when V8 refuses the cached file, and replaces it', () => {
    const cache = join(dir, 'cache-broken');
    const file = bundle('broken', 'still runs');
    start(file, cache);
    const [name] = cacheFiles(cache);
    writeFileSync(join(cache, name as string), Buffer.alloc(4096, 7));
    const refused = start(file, cache);
    assert.equal(refused.status, 'rejected');
    assert.equal(refused.value, 'still runs');
    assert.equal(start(file, cache).status, 'used');
  });

  it('starts without a cache when its directory cannot be written, with one warning', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const file = bundle('unwritable', 'y');
    const run = start(file, join(blocker, 'cache'));
    assert.equal(run.value, 'y');
    assert.equal(run.status, 'missing');
    assert.match(run.stderr, /Folio could not write its compile cache to .*a-file\/cache/);
    assert.equal(start(file, join(blocker, 'cache')).status, 'missing');
  });

  it('keeps the cache beside the bundle when no directory is given (an empty one included)', () => {
    const file = bundle('default', 'd');
    assert.equal(start(file, '').status, 'missing');
    assert.ok(cacheFiles(join(dir, 'compile-cache')).some((f) => f.startsWith('default-')));
    assert.equal(start(file, '').status, 'used');
  });

  it('is off with CMS_COMPILE_CACHE=off and under --enable-source-maps (node then loads the bundle)', () => {
    const file = bundle('off', 'z');
    const cache = join(dir, 'cache-off');
    const off = start(file, 'off');
    assert.deepEqual([off.status, off.value], ['off', 'z']);
    const mapped = start(file, cache, ['--enable-source-maps']);
    assert.deepEqual([mapped.status, mapped.value], ['off', 'z']);
    assert.throws(() => readdirSync(cache), /ENOENT/);
  });
});
