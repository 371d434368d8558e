import { join } from 'node:path';
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
