/**
 * The second half of `npm run build`: after tsc has compiled src/ to dist/, esbuild bundles the two
 * processes, dist/server.js and dist/worker.js, each into one file (plus the chunks they share and
 * those loaded on first use), replacing tsc's output for those two entry points.
 *
 * Why (issue 13 #2): the compiled server is ~200 of our files and ~1,000 of its dependencies', and
 * Node resolves, reads and links each ES module one by one at start. A CPU profile of the start
 * showed module loading as the largest part of the time to the first 200 once route schemas were
 * compiled lazily (src/http/lazy-schemas.ts). One file per process is read and parsed lazily by V8.
 *
 * - Native modules stay outside (better-sqlite3, sharp, @node-rs/argon2) and so do packages that
 *   find their own files from `__dirname` (@fastify/swagger-ui serves its static assets that way);
 *   `import('sharp')` and the other dynamic imports stay lazy, as separate chunks.
 * - Chunks are written beside the entries (dist/chunk-*.js), one level below server/: code that finds
 *   files from `import.meta.url` (src/paths.ts) sees the same depth in every file.
 * - CommonJS dependencies get `require`, `__filename` and `__dirname` from a banner (ESM has none).
 * - Source maps are written beside each file (run with --enable-source-maps for mapped traces).
 * dist/app.js and the rest of tsc's output stay: dist/cli/migrate.js and the tests' tooling use them.
 */
import { readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

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

// Chunks of a previous build (their names carry a hash).
for (const file of readdirSync(dist)) if (file.startsWith('chunk-')) rmSync(join(dist, file));

await build({
  entryPoints: { server: join(root, 'src/server.ts'), worker: join(root, 'src/worker.ts') },
  outdir: dist,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [pgOnNode],
  external: ['better-sqlite3', 'sharp', '@node-rs/argon2', 'pg-native', '@fastify/swagger-ui'],
  banner: {
    js: [
      "import { createRequire as __folioRequire } from 'node:module';",
      "import { dirname as __folioDirname } from 'node:path';",
      "import { fileURLToPath as __folioPath } from 'node:url';",
      'const require = __folioRequire(import.meta.url);',
      'const __filename = __folioPath(import.meta.url);',
      'const __dirname = __folioDirname(__filename);',
    ].join('\n'),
  },
});
