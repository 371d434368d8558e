import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import pg from 'pg';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite, pageUrl, type Site } from '../helpers/content.js';
import { adminUrl } from '../helpers/db.js';
import { bearer } from '../helpers/factories.js';
import { sleep, startReceiver, waitFor } from '../helpers/hooks.js';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';

const ROUNDS = 50;
const ROUND_MS = 100;
const CLIENTS = 8;

interface Answer {
  status: number;
  code: string | null;
  retryAfter: string | null;
  title?: string;
}

async function send(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, init);
  } catch (err) {
    // The connection to our server broke: the process died (asserted below), never a valid answer.
    return { status: 0, code: String((err as Error).cause ?? err), retryAfter: null };
  }
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return {
    status: res.status,
    code: body?.error?.code ?? null,
    retryAfter: res.headers.get('retry-after'),
    title: body?.data?.[0]?.fields?.title,
  };
}

/** Terminates every other connection to `database` (what a failover or pg_terminate_backend does). */
async function terminateBackends(admin: pg.Client, database: string): Promise<number> {
  const { rowCount } = await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return rowCount ?? 0;
}

// Issue 10, defect 1: a connection PostgreSQL drops while it is checked out used to emit an 'error'
// event nobody listened to, and the process died. Two real server processes (each with its worker
// and change-bus connection) are kept under load while every backend of the database is terminated
// again and again. Terminating backends is the code path of a PostgreSQL restart or failover seen
// from the client: sockets closed by the server, then refused or fresh connections.
describeEachDb('PostgreSQL connections terminated under load', (ctx) => {
  const children: ServerProcess[] = [];
  after(async () => {
    for (const c of children) {
      if (c.child.exitCode === null && c.child.signalCode === null) {
        c.child.kill('SIGKILL');
        await c.exited;
      }
    }
  });

  it(`no process exits over ${ROUNDS} rounds; answers are 2xx or 503 unavailable; everything recovers`, async (t) => {
    if (ctx.database.config.kind !== 'postgres') return t.skip('PostgreSQL only: SQLite has no connections');
    const url = ctx.database.config.url;
    const database = new URL(url).pathname.slice(1);
    const env = {
      DATABASE_URL: url,
      CMS_DATA_DIR: ctx.config.dataDir,
      CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
      CMS_WORKER_POLL_MS: '50',
      CMS_WEBHOOK_RETRY_SCHEDULE: '50,50,50,50,50',
      LOG_LEVEL: 'fatal',
    };
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    const [a, b] = started.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    }) as [ServerProcess, ServerProcess];
    const exits: string[] = [];
    for (const [name, c] of [
      ['A', a],
      ['B', b],
    ] as const) {
      void c.exited.then((code) => exits.push(`${name} exited with ${code}:\n${c.output()}`));
    }

    const site: Site = await newSite(ctx.app);
    const entryId = await heroEntry(ctx.app, site);
    const editing = { 'content-type': 'application/json', ...site.editing };
    const publish = (base: string, title: string) =>
      send(base, `/v1/content/${entryId}`, {
        method: 'PATCH',
        headers: editing,
        body: JSON.stringify({ fields: { title }, status: 'published' }),
      });

    // Load: reads that hit the database (session lookups, editor reads), cached visitor reads and
    // publishing writes, on both instances, until the rounds are over.
    const answers: Answer[] = [];
    let loading = true;
    let n = 0;
    const client = async (i: number) => {
      const base = i % 2 === 0 ? a.url : b.url;
      while (loading) {
        n += 1;
        const kind = n % 4;
        const answer =
          kind === 0
            ? await publish(base, `load ${n}`)
            : kind === 1
              ? await send(base, '/v1/auth/me', { headers: bearer(site.editor.token) })
              : kind === 2
                ? await send(base, pageUrl('/'), { headers: site.editing })
                : await send(base, pageUrl('/'), { headers: site.key });
        answers.push(answer);
      }
    };
    const load = Array.from({ length: CLIENTS }, (_, i) => client(i));

    let terminated = 0;
    // One admin connection for all rounds (it is on another database, so it is never terminated).
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        terminated += await terminateBackends(admin, database);
        await sleep(ROUND_MS);
        assert.deepEqual(exits, [], 'a server process exited');
      }
    } finally {
      loading = false;
      await admin.end();
    }
    await Promise.all(load);
    t.diagnostic(
      `${answers.length} requests, ${answers.filter((x) => x.status === 503).length} answered 503`,
    );
    const recovery = Date.now();
    assert.ok(terminated > ROUNDS, `backends were terminated (${terminated})`);

    const bad = answers.filter(
      (x) =>
        !(x.status >= 200 && x.status < 300) &&
        !(x.status === 503 && x.code === 'unavailable' && x.retryAfter),
    );
    assert.deepEqual(
      bad.slice(0, 5),
      [],
      `${bad.length} of ${answers.length} answers were neither 2xx nor 503`,
    );
    assert.ok(
      answers.some((x) => x.status === 503),
      'some requests met a dropped connection',
    );
    // Between rounds the pool reconnects: requests keep succeeding (how many depends on the machine's load).
    assert.ok(
      answers.filter((x) => x.status === 200).length > answers.length / 10,
      'requests kept succeeding',
    );

    // Recovery. The API answers again on both instances.
    await waitFor(async () => (await send(a.url, '/health')).status === 200, 10_000, 'A healthy');
    await waitFor(async () => (await send(b.url, '/health')).status === 200, 10_000, 'B healthy');
    // The change bus: B caches the page, a publish on A reaches it (B's LISTEN connection is back).
    await waitFor(async () => (await publish(a.url, 'before')).status === 200, 10_000, 'publish on A');
    await waitFor(async () => (await send(b.url, pageUrl('/'), { headers: site.key })).title === 'before');
    assert.equal((await publish(a.url, 'after')).status, 200);
    await waitFor(
      async () => (await send(b.url, pageUrl('/'), { headers: site.key })).title === 'after',
      10_000,
      'B sees the publish made on A',
    );
    // The worker: a webhook created now gets its delivery.
    const receiver = await startReceiver();
    try {
      const hook = await send(a.url, '/v1/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(site.admin.token) },
        body: JSON.stringify({ url: `${receiver.url}/after`, events: ['content.published'] }),
      });
      assert.equal(hook.status, 201);
      assert.equal((await publish(b.url, 'delivered')).status, 200);
      await waitFor(() => receiver.received.length > 0, 10_000, 'a webhook delivery');
    } finally {
      await receiver.close();
    }
    t.diagnostic(`recovered in ${Date.now() - recovery} ms`);
    assert.deepEqual(exits, []);
  });
});
