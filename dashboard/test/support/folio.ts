import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Schemas } from '@folio/client';
import { test } from '@playwright/test';

/**
 * A real Folio for one test file: the built server (server/dist/server.js) on a fresh SQLite data
 * directory and a free port, serving the built dashboard. `folioForThisFile()` starts it before the file's
 * first test and stops it (and removes its data) after the last. The API helpers below set up what a
 * test needs, and act as "another editor", through plain HTTP.
 */

const root = new URL('../../..', import.meta.url).pathname;
export const PASSWORD = 'correct horse battery staple';

export interface Folio {
  url: string;
  admin: string;
}

let seq = 0;
export const uniqueEmail = (label: string) =>
  `${label}-${process.pid}-${Date.now().toString(36)}-${seq++}@example.com`;

/** `env`: settings this file's server needs beyond the defaults (e.g. CMS_ALLOW_PRIVATE_HOOK_TARGETS). */
export function folioForThisFile(env: Record<string, string> = {}): () => Folio {
  let child: ChildProcess | undefined;
  let dataDir = '';
  let folio: Folio | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dataDir = mkdtempSync(join(tmpdir(), 'folio-dashboard-e2e-'));
    // A port chosen here rather than PORT=0, so that media URLs (CMS_PUBLIC_URL) name the real one.
    const port = await freePort();
    child = spawn(process.execPath, [join(root, 'server/dist/server.js')], {
      cwd: dataDir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        CMS_DATA_DIR: dataDir,
        CMS_DASHBOARD_DIR: join(root, 'dashboard/dist'),
        LOG_LEVEL: 'warn',
        CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`Folio did not start:\n${output}`)), 60_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /running at (http:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      child!.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Folio exited (${code}) before it started:\n${output}`));
      });
    });
    folio = { url, admin: `${url}/admin` };
  });
  test.afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child!.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!folio)
      throw new Error('Folio is not running (folioForThisFile() must be called at the top of the file)');
    return folio;
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** One call to the API; throws with the body on anything but 2xx. */
export async function api<T = unknown>(
  folio: Folio,
  method: string,
  path: string,
  options: { token?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.key) headers['x-cms-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(folio.url + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export interface Site {
  projectId: string;
  apiKey: string;
  admin: { email: string; token: string };
}

/** A project and its admin, signed in through the API. */
export async function newSite(folio: Folio, name = 'Test site'): Promise<Site> {
  const email = uniqueEmail('admin');
  const created = await api<{ project: { id: string; apiKey: string } }>(folio, 'POST', '/v1/projects', {
    body: { name, admin: { email, password: PASSWORD } },
  });
  const token = await signInApi(folio, email);
  return { projectId: created.project.id, apiKey: created.project.apiKey, admin: { email, token } };
}

export async function signInApi(folio: Folio, email: string, password = PASSWORD): Promise<string> {
  const login = await api<{ token: string }>(folio, 'POST', '/v1/auth/login', { body: { email, password } });
  return login.token;
}

/** Another member of the project (an editor by default), signed in through the API. */
export async function newMember(folio: Folio, site: Site, role: 'editor' | 'admin' = 'editor') {
  const email = uniqueEmail(role);
  await api(folio, 'POST', '/v1/users', {
    token: site.admin.token,
    headers: { 'x-cms-project-id': site.projectId },
    body: { email, role, password: PASSWORD },
  });
  return { email, token: await signInApi(folio, email) };
}

/** Registers a page's components the way a site's SDK does (publishable key). */
export async function syncPage(folio: Folio, site: Site, pageId: string, components: unknown[]) {
  return api(folio, 'POST', '/v1/definitions/sync', { key: site.apiKey, body: { pageId, components } });
}

/** Wire types from the generated client, as the dashboard uses them. */
export type EntryData = Schemas['Entry'];

/** The page as an editor sees it (working copies). */
export async function editorEntries(folio: Folio, site: Site, pageId: string, token = site.admin.token) {
  return api<EntryData[]>(folio, 'GET', `/v1/content/${encodeURIComponent(pageId)}`, {
    token,
    key: site.apiKey,
  });
}

/** The page as visitors see it (published copies only). */
export async function visitorEntries(folio: Folio, site: Site, pageId: string) {
  return api<EntryData[]>(folio, 'GET', `/v1/content/${encodeURIComponent(pageId)}`, { key: site.apiKey });
}

export async function entryOf(folio: Folio, site: Site, pageId: string, instanceKey: string) {
  const entry = (await editorEntries(folio, site, pageId)).find((e) => e.instanceKey === instanceKey);
  if (!entry) throw new Error(`no entry ${instanceKey} on ${pageId}`);
  return entry;
}

export async function patchEntry(
  folio: Folio,
  site: Site,
  token: string,
  entryId: string,
  body: { fields?: Record<string, unknown>; status?: 'draft' | 'published' },
) {
  return api<EntryData>(folio, 'PATCH', `/v1/content/${entryId}`, { token, key: site.apiKey, body });
}

export type MediaData = Schemas['Media'];

/** An image uploaded through the API, as another editor would. */
export async function uploadMedia(folio: Folio, site: Site, filename: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), filename);
  const res = await fetch(`${folio.url}/v1/media/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${site.admin.token}`, 'x-cms-project-id': site.projectId },
    body: form,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`upload ${filename}: ${res.status} ${text}`);
  return (JSON.parse(text) as { data: MediaData }).data;
}

/** Headers of an admin's call in the site's project. */
export const asAdmin = (site: Site) => ({
  token: site.admin.token,
  headers: { 'x-cms-project-id': site.projectId },
});
