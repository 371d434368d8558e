import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFolioClient, type FolioClient, type FolioResult, type Ok, type Schemas } from '@folio/client';
// The real server, from its source (run through tsx like its own tests): no build needed first.
import { buildApp } from '../../../../server/src/app.js';
import { loadConfig } from '../../../../server/src/config.js';
import { createTestDatabase, type DbKind, dbKinds } from '../../../../server/test/helpers/db.js';

/**
 * A real Folio for the SDK's tests (and the React bindings'): the server's own app on a fresh database
 * of either kind, listening on a local port. SQLite always; PostgreSQL too when TEST_DATABASE_URL is
 * set (test/run.ts migrates a template database once, as the server's runner does).
 */
export { type DbKind, dbKinds };

export interface RunningFolio {
  kind: DbKind;
  url: string;
  /** Stops listening and closes the app (its live streams end); the database stays until close(). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function startFolio(kind: DbKind, env: Record<string, string> = {}): Promise<RunningFolio> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-sdk-'));
  const database = await createTestDatabase(kind);
  const config = loadConfig({
    // Errors only (a 500's stack, which a test's assertion cannot show); FOLIO_TEST_LOG for more.
    LOG_LEVEL: process.env.FOLIO_TEST_LOG ?? 'error',
    CMS_DATA_DIR: dataDir,
    // Every test makes its own project, from one address.
    CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '100000',
    ...env,
  });
  const app = await buildApp({ config, database: database.handle });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    // After a fetch is aborted mid-stream (a stopped live stream), undici opens a fresh connection that
    // never sends a request, and Node counts it as busy until the keep-alive timeout (72 s): close()
    // would wait that long. Whatever is still open a moment after close() began is cut.
    const force = setTimeout(() => app.server.closeAllConnections(), 1500);
    await app.close();
    clearTimeout(force);
  };
  return {
    kind,
    url,
    stop,
    async close() {
      await stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The success of a client result, or a failure that shows what Folio answered. */
export function ok<R>(result: FolioResult<R>): Ok<R> {
  if (!result.ok || result.notModified) {
    const error = result.ok ? 'not modified' : JSON.stringify(result.error);
    throw new Error(`expected a success, got ${result.status}: ${error}`);
  }
  return result;
}

export interface Site {
  projectId: string;
  /** The publishable key. */
  key: string;
  /** An admin's session with the site key: the editor's side of the tests. */
  admin: FolioClient;
  /**
   * Sets fields of the entry `instanceKey` of a page and publishes them (or only saves a draft), in
   * `locale` when given (`PATCH ?locale=`, contract §14).
   */
  edit(
    pageId: string,
    instanceKey: string,
    fields: Record<string, unknown>,
    status?: 'published' | 'draft',
    locale?: string,
  ): Promise<void>;
  /** The project's languages (contract §14), as an admin sets them. */
  setLocales(locales: Schemas['UpdateProjectBody']['locales']): Promise<void>;
  /** The entry id of `instanceKey` on a page, as an editor sees it. */
  entryId(pageId: string, instanceKey: string): Promise<string>;
  previewToken(): Promise<string>;
  setBakeEnabled(bakeEnabled: boolean): Promise<void>;
}

let sites = 0;

/** A new project with its admin, made through the API as a person would. */
export async function newSite(folio: RunningFolio): Promise<Site> {
  const anonymous = createFolioClient({ baseUrl: folio.url });
  const email = `admin-${process.pid}-${++sites}@example.com`;
  const password = 'correct horse battery staple';
  const created = ok(
    await anonymous.POST('/v1/projects', { body: { name: `Site ${sites}`, admin: { email, password } } }),
  );
  const login = ok(await anonymous.POST('/v1/auth/login', { body: { email, password } }));
  const project = created.data.project;
  const admin = createFolioClient({
    baseUrl: folio.url,
    credentials: { session: login.data.token, publishableKey: project.apiKey },
  });

  async function entryId(pageId: string, instanceKey: string): Promise<string> {
    const page = ok(await admin.GET('/v1/content/{id}', { params: { path: { id: pageId } } }));
    const entry = page.data.find((e) => e.instanceKey === instanceKey);
    if (!entry) throw new Error(`no entry ${instanceKey} on ${pageId}`);
    return entry.id;
  }

  return {
    projectId: project.id,
    key: project.apiKey,
    admin,
    entryId,
    async edit(pageId, instanceKey, fields, status = 'published', locale) {
      const id = await entryId(pageId, instanceKey);
      const query = locale === undefined ? {} : { query: { locale } };
      ok(
        await admin.PATCH('/v1/content/{id}', {
          params: { path: { id }, ...query },
          body: { fields, status },
        }),
      );
    },
    async setLocales(locales) {
      ok(await admin.PATCH('/v1/projects/{id}', { params: { path: { id: project.id } }, body: { locales } }));
    },
    async previewToken() {
      return ok(await admin.POST('/v1/preview-tokens', { body: { ttlSeconds: 600 } })).data.token;
    },
    async setBakeEnabled(bakeEnabled) {
      ok(
        await admin.PATCH('/v1/projects/{id}', {
          params: { path: { id: project.id } },
          body: { bakeEnabled },
        }),
      );
    },
  };
}

export interface Recorded {
  method: string;
  path: string;
  status: number;
}

/** A fetch that records every request it sends (method, path and query, status): the tests' counter. */
export function countingFetch(): { fetch: (request: Request) => Promise<Response>; requests: Recorded[] } {
  const requests: Recorded[] = [];
  return {
    requests,
    fetch: async (request) => {
      const response = await fetch(request);
      const url = new URL(request.url);
      requests.push({ method: request.method, path: url.pathname + url.search, status: response.status });
      return response;
    },
  };
}

/** Resolves when `check` returns (or resolves to) true, polled every 10 ms, or fails after `ms`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms = 5000,
  what = 'the condition',
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
