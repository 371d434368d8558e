import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Project } from './folio';
import { repoRoot } from './folio';
import { type Env, freePort, type Running, runToEnd, startServer } from './processes';

/** The example site, run as its README says: `next dev`, `npm run build:site`, `next start`. */
export const siteDir = new URL('../../', import.meta.url).pathname;
const next = join(repoRoot, 'node_modules/next/dist/bin/next');

function siteEnv(folio: { url: string }, project: Project): Env {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FOLIO_URL: folio.url,
    FOLIO_KEY: project.key,
    NEXT_TELEMETRY_DISABLED: '1',
  };
}

async function serve(args: string[], env: Env, timeoutMs: number): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startServer(process.execPath, [next, ...args, '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: siteDir,
    env,
    url,
    timeoutMs,
  });
}

/** `next dev`: the page registers its components on mount. */
export const startDev = (folio: { url: string }, project: Project) =>
  serve(['dev'], siteEnv(folio, project), 180_000);

/** `npm run build:site`: bakes the snapshot with the `folio` CLI, then `next build`. Returns its output. */
export const buildSite = (folio: { url: string }, project: Project) =>
  runToEnd('npm', ['run', 'build:site'], { cwd: siteDir, env: siteEnv(folio, project) });

/** `next start`: serves the last build. */
export const startBuilt = (folio: { url: string }, project: Project) =>
  serve(['start'], siteEnv(folio, project), 60_000);

/** `npm run build:static`: bakes, then exports the site as files into `out/`. Returns its output. */
export const buildStatic = (folio: { url: string }, project: Project) =>
  runToEnd('npm', ['run', 'build:static'], { cwd: siteDir, env: siteEnv(folio, project) });

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The exported files served as a plain static host serves them (`/fr` is `fr.html`), and nothing else:
 * no Next, no Folio.
 */
export async function serveFiles(dir: string): Promise<Running> {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    for (const candidate of [path, `${path}.html`, join(path, 'index.html')]) {
      const file = join(dir, candidate);
      if (!file.startsWith(dir)) break;
      const body = await readFile(file).catch(() => null);
      if (body) {
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        response.end(body);
        return;
      }
    }
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end((await readFile(join(dir, '404.html')).catch(() => null)) ?? 'not found');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => '',
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
