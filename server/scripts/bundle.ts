/**
 * The second half of `npm run build`: after tsc has compiled src/ to dist/, esbuild bundles each of
 * the two processes into one CommonJS file, dist/server.cjs and dist/worker.cjs, run by the entries
 * dist/server.js and dist/worker.js (src/start/), which give V8 its code cache of the last start. Then
 * each process is started once, so that the build carries that cache (warmCompileCaches).
 *
 * Why one file (issue 13 #2): the compiled server is ~200 of our files and ~1,000 of its
 * dependencies', and Node resolves, reads and links each module one by one at start. Why CommonJS
 * and a loader: compiling the bundle was then most of a start, and the only code cache Node 20 offers
 * is vm.Script's (src/start/run-bundle.ts says what it bought).
 *
 * - Native modules stay outside (better-sqlite3, sharp, @node-rs/argon2) and so do packages that
 *   find their own files from `__dirname` (@fastify/swagger-ui serves its static assets that way);
 *   they are required on first use, as before.
 * - Code loaded on first use (the S3 client, file-type) is in the bundle but runs only when asked
 *   for; with the cache, code that never ran costs its bytes' read, not a parse.
 * - The bundles sit one level below server/, as src/ does: code that finds files from
 *   `import.meta.url` (src/paths.ts) sees the same depth in every form.
 * - Source maps are written beside each bundle: run node with --enable-source-maps for mapped stack
 *   traces (the loader then lets node load the bundle itself, without the cache).
 * dist/app.js and the rest of tsc's output stay: dist/cli/migrate.js and the tests' tooling use them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { freePort } from '../bench/lib/processes.js';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');

/**
 * node-postgres asks "am I in a Cloudflare Worker?" when it loads, and on Node 20 (no `navigator`)
 * answers by constructing a fetch `Response`, which loads Node's whole fetch implementation: 60 ms
 * of the start on PostgreSQL, for an answer that is always no here. The bundle answers it directly.
 * The build fails if pg's source no longer has the function, so an upgrade cannot drop this silently.
 */
const pgOnNode: Plugin = {
  name: 'pg-on-node',
  setup(b) {
    b.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const probe = 'function isCloudflareRuntime() {';
      if (!source.includes(probe)) throw new Error(`${args.path} no longer has ${probe} (scripts/bundle.ts)`);
      return { contents: source.replace(probe, `${probe}\n  return false;`), loader: 'js' };
    });
  },
};

/**
 * Each module is imported through its door, index.ts, which re-exports everything the module lends
 * (routes and services included). Module files do no work at import time (STYLE.md 8), so the bundle
 * may drop what a process never uses: without this the worker, which uses a module's jobs and lent
 * queries, would carry every route and schema behind the doors it imports (~200 KB more to load).
 */
const modulesWithoutSideEffects: Plugin = {
  name: 'modules-without-side-effects',
  setup(b) {
    const ours = [join(root, 'src/modules/'), join(root, 'src/outbox/')];
    const again = Symbol('resolving');
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === again) return undefined;
      const { path, errors } = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: again,
      });
      if (errors.length > 0 || !ours.some((dir) => path.startsWith(dir))) return undefined;
      return { path, sideEffects: false };
    });
  },
};

// What a previous build left: ES module chunks (before the bundles were CommonJS), compile caches.
for (const file of readdirSync(dist)) if (file.startsWith('chunk-')) rmSync(join(dist, file));
rmSync(join(dist, 'compile-cache'), { recursive: true, force: true });

// The processes: dist/server.cjs and dist/worker.cjs.
await build({
  entryPoints: { server: join(root, 'src/server.ts'), worker: join(root, 'src/worker.ts') },
  outdir: dist,
  entryNames: '[name]',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [pgOnNode, modulesWithoutSideEffects],
  external: ['better-sqlite3', 'sharp', '@node-rs/argon2', 'pg-native', '@fastify/swagger-ui'],
  // `import('sharp')` becomes a `require` on first use: a dynamic import in code compiled by
  // vm.Script would need node's experimental loader hook (src/start/run-bundle.ts).
  supported: { 'dynamic-import': false },
  // src/paths.ts finds the package from import.meta.url; in a CommonJS bundle it is the bundle's URL.
  define: { 'import.meta.url': '__folioBundleUrl' },
  banner: { js: "const __folioBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// Their entries, dist/server.js and dist/worker.js: the loader that runs each with its code cache.
await build({
  entryPoints: { server: join(root, 'src/start/server.ts'), worker: join(root, 'src/start/worker.ts') },
  outdir: dist,
  entryNames: '[name]',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

await warmCompileCaches();

/**
 * Starts each process once, on a scratch SQLite database, until it has written its compile cache
 * (src/start/run-bundle.ts), so that the first start of this build, on this machine, is already
 * quick: a container image built with `npm run build` carries the cache. A process that cannot
 * start fails the build here, which also checks the bundles run at all.
 */
async function warmCompileCaches(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'folio-build-'));
  try {
    await Promise.all(['server', 'worker'].map((name) => warm(name, scratch)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function warm(name: string, scratch: string): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(dist, `${name}.js`)], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${join(scratch, `${name}.sqlite`)}`,
      CMS_DATA_DIR: join(scratch, name),
      // The server is asked for its health once (what a start then compiles is in the cache).
      HOST: '127.0.0.1',
      PORT: String(port),
      CMS_WORKER_PORT: '0', // the worker's health and metrics server: not needed here
      LOG_LEVEL: 'warn',
      CMS_COMPILE_CACHE: join(dist, 'compile-cache'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 60_000;
    let asked = name !== 'server';
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`dist/${name}.js exited with ${child.exitCode}:\n${stderr}`);
      if (Date.now() > deadline)
        throw new Error(`dist/${name}.js wrote no compile cache in 60 s:\n${stderr}`);
      if (!asked) asked = (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.ok === true;
      if (asked && cached(name)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function cached(name: string): boolean {
  try {
    return readdirSync(join(dist, 'compile-cache')).some(
      (f) => f.startsWith(`${name}-`) && f.endsWith('.v8'),
    );
  } catch {
    return false; // not made yet
  }
}
