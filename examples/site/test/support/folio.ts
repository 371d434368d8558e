import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type Running, startServer } from './processes';

/**
 * A real Folio for the site's tests: the built server (server/dist/server.js) on a fresh SQLite data
 * directory and a free port. The helpers below act as the editor and the shop's server, through the
 * API over plain HTTP.
 */
export const repoRoot = new URL('../../../../', import.meta.url).pathname;

export interface Folio extends Running {
  /** Stops the server and removes its data. */
  close(): Promise<void>;
}

export async function startFolio(): Promise<Folio> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-site-e2e-'));
  // A port chosen here rather than PORT=0, so that media URLs (CMS_PUBLIC_URL) name the real one.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(process.execPath, [join(repoRoot, 'server/dist/server.js')], {
    cwd: dataDir,
    url: `${url}/health`,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      CMS_DATA_DIR: dataDir,
      // The dashboard at /admin, for the visual-editing test (test/visual-editing.spec.ts).
      CMS_DASHBOARD_DIR: join(repoRoot, 'dashboard/dist'),
      LOG_LEVEL: 'warn',
    },
  });
  return {
    ...server,
    url,
    async close() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One call to the API; throws with the body on anything but 2xx. */
export async function api<T = unknown>(
  folio: { url: string },
  method: string,
  path: string,
  options: { token?: string; key?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.key) headers['x-cms-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(folio.url + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export const PASSWORD = 'correct horse battery staple';

export interface Project {
  id: string;
  key: string;
  token: string;
  /** The admin's email (password: PASSWORD), to sign in to the dashboard. */
  email: string;
}

/** A project and its admin's session, made as `folio create-project` makes them. */
export async function newProject(folio: { url: string }): Promise<Project> {
  const email = `site-${process.pid}-${Date.now().toString(36)}@example.com`;
  const password = PASSWORD;
  const created = await api<{ project: { id: string; apiKey: string } }>(folio, 'POST', '/v1/projects', {
    body: { name: 'Bakery', admin: { email, password } },
  });
  const { token } = await api<{ token: string }>(folio, 'POST', '/v1/auth/login', {
    body: { email, password },
  });
  return { id: created.project.id, key: created.project.apiKey, token, email };
}

interface Entry {
  id: string;
  instanceKey: string;
  status: string;
  fields: Record<string, unknown>;
}

/** The editor's side: working copies of a page (`/` unless named), saves, publishes. */
export function editor(folio: { url: string }, project: Project) {
  const as = { token: project.token, key: project.key };
  const entries = (pageId = '/', locale?: string) =>
    api<Entry[]>(
      folio,
      'GET',
      `/v1/content/${encodeURIComponent(pageId)}${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`,
      as,
    );
  const entryOf = async (instanceKey: string, pageId = '/') => {
    const entry = (await entries(pageId)).find((e) => e.instanceKey === instanceKey);
    if (!entry) throw new Error(`no entry ${instanceKey} on ${pageId}`);
    return entry;
  };
  return {
    entries,
    entryOf,
    definitions: (pageId = '/') =>
      api<{ instanceKey: string; componentId: string; fields: { key: string; type: string }[] }[]>(
        folio,
        'GET',
        `/v1/definitions/${encodeURIComponent(pageId)}`,
        { token: project.token },
      ),
    async save(
      instanceKey: string,
      fields: Record<string, unknown>,
      status: 'draft' | 'published',
      pageId = '/',
    ) {
      const entry = await entryOf(instanceKey, pageId);
      return api<Entry>(folio, 'PATCH', `/v1/content/${entry.id}`, { ...as, body: { fields, status } });
    },
    /** PATCH ?locale=: a translator's save (and publish) in one language. */
    async saveIn(
      locale: string,
      instanceKey: string,
      fields: Record<string, unknown>,
      status: 'draft' | 'published',
      pageId = '/',
    ) {
      const entry = await entryOf(instanceKey, pageId);
      return api<Entry>(folio, 'PATCH', `/v1/content/${entry.id}?locale=${encodeURIComponent(locale)}`, {
        ...as,
        body: { fields, status },
      });
    },
    saveProducts: (objects: { id: string; fields: Record<string, unknown> }[]) =>
      api(folio, 'POST', '/v1/objects/save', {
        token: project.token,
        body: { status: 'published', objects: objects.map((o) => ({ type: 'product', ...o })) },
      }),
    previewToken: async () =>
      (await api<{ token: string }>(folio, 'POST', '/v1/preview-tokens', { token: project.token, body: {} }))
        .token,
    setPreviewUrl: (previewUrl: string | null) =>
      api(folio, 'PATCH', `/v1/projects/${project.id}`, { token: project.token, body: { previewUrl } }),
    setBakeEnabled: (bakeEnabled: boolean) =>
      api(folio, 'PATCH', `/v1/projects/${project.id}`, { token: project.token, body: { bakeEnabled } }),
  };
}
