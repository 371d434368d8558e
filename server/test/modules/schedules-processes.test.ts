import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  HERO,
  heroEntry,
  newSite,
  patchEntry,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { PASSWORD, uniqueEmail } from '../helpers/factories.js';
import { sleep, waitFor } from '../helpers/hooks.js';
import {
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
  type WorkerProcess,
} from '../helpers/process.js';
import {
  createSchedule,
  historyOf,
  inMs,
  listSchedules,
  scheduleById,
  settled,
} from '../helpers/schedules.js';

/**
 * Scheduled publishing across real processes (contract §9, issue 11 item 4): exactly once whatever
 * the number of workers, and across a crash between claiming a schedule and publishing. PostgreSQL,
 * where several instances share a database; and the SQLite server that runs its own schedules.
 */
describeEachDb('scheduled publishing across processes', (ctx) => {
  const started: (ServerProcess | WorkerProcess)[] = [];
  const stop = async (p: ServerProcess | WorkerProcess, signal: NodeJS.Signals = 'SIGTERM') => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
    return p.exited;
  };
  after(async () => {
    for (const p of started) await stop(p, 'SIGKILL');
  });
  const worker = async () => {
    const config = ctx.database.config;
    assert.equal(config.kind, 'postgres');
    const w = await startWorkerProcess({
      DATABASE_URL: config.kind === 'postgres' ? config.url : '',
      CMS_DATA_DIR: ctx.config.dataDir,
      CMS_WORKER_POLL_MS: '20',
    });
    started.push(w);
    return w;
  };
  const countEvents = async (projectId: string) =>
    (await ctx.db.selectFrom('events').select('id').where('projectId', '=', projectId).execute()).length;

  it('two workers on one database run each of the same due schedules exactly once', async (t) => {
    if (ctx.kind !== 'postgres') return t.skip('several instances share a PostgreSQL database');
    const site = await newSite(ctx.app);
    const entries: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await heroEntry(ctx.app, site, `/p${i}`);
      await patchEntry(ctx.app, site, id, { fields: { title: `draft ${i}` } });
      entries.push(id);
    }
    // One entry is live and its page cached by this test's app (an instance the workers never see).
    await patchEntry(ctx.app, site, entries[0]!, { fields: { title: 'before' }, status: 'published' });
    await patchEntry(ctx.app, site, entries[0]!, { fields: { title: 'after' } });
    assert.equal((await visitorEntries(ctx.app, site, '/p0'))[0]?.fields.title, 'before');
    const components = [
      HERO,
      { componentId: 'Text', instanceKey: 'intro', fields: [{ key: 'body', type: 'text' }] },
    ];
    for (const page of ['/launch-a', '/launch-b']) {
      await sync(ctx.app, site, page, components);
      for (const e of await editorEntries(ctx.app, site, page)) {
        await patchEntry(ctx.app, site, e.id, { fields: { title: `on ${page}` } });
      }
    }

    const workers = [await worker(), await worker()];
    // Every schedule due at the same moment, while both workers poll every 20 ms.
    // Far enough ahead that creating them all (a dozen requests) ends first even on a loaded machine.
    const at = inMs(10_000);
    const schedules = [];
    for (const entryId of entries)
      schedules.push(await createSchedule(ctx.app, site, { action: 'publish', entryId, at }));
    for (const pageId of ['/launch-a', '/launch-b']) {
      schedules.push(await createSchedule(ctx.app, site, { action: 'publish', pageId, at }));
    }
    assert.ok(Date.now() < Date.parse(at), 'the schedules were created before they were due');
    await waitFor(
      async () => (await listSchedules(ctx.app, site, 'status=pending')).length === 0,
      30_000,
      'every schedule to run',
    );

    const all = await listSchedules(ctx.app, site);
    assert.deepEqual(new Set(all.map((s) => s.status)), new Set(['done']));
    for (const s of all) assert.ok(s.executedAt && s.executedAt >= at);
    for (const [i, entryId] of entries.entries()) {
      const history = await historyOf(ctx.app, site, entryId);
      assert.equal(history.length, i === 0 ? 2 : 1, `entry ${i} was published ${history.length} times`);
    }
    for (const page of ['/launch-a', '/launch-b']) {
      for (const e of await editorEntries(ctx.app, site, page)) {
        assert.equal((await historyOf(ctx.app, site, e.id)).length, 1);
      }
    }
    // One event per schedule, plus the manual publish.
    assert.equal(await countEvents(site.project.id), schedules.length + 1);
    const published = await ctx.db
      .selectFrom('activity')
      .select(['action'])
      .where('projectId', '=', site.project.id)
      .where('actorType', '=', 'system')
      .execute();
    assert.equal(published.filter((r) => r.action === 'entry.published').length, 20);
    assert.equal(published.filter((r) => r.action === 'page.published').length, 2);
    // The workers' pg_notify reached this instance's cache.
    await waitFor(
      async () => (await visitorEntries(ctx.app, site, '/p0'))[0]?.fields.title === 'after',
      5_000,
      'the cached page to follow',
    );

    for (const w of workers) assert.equal(await stop(w), 0);
    const ran = workers.map((w) => (w.output().match(/ran a schedule/g) ?? []).length);
    assert.equal(
      ran.reduce((a, b) => a + b, 0),
      schedules.length,
      `runs logged per worker: ${ran.join(', ')}`,
    );
  });

  it('a worker killed between claiming a schedule and publishing leaves it to the next, which runs it once', async (t) => {
    if (ctx.kind !== 'postgres') return t.skip('a crash with several instances: PostgreSQL');
    const config = ctx.database.config;
    if (config.kind !== 'postgres') return;
    const site = await newSite(ctx.app);
    const entryId = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, entryId, { fields: { title: 'scheduled' } });
    const s = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(1_000) });

    // The test holds the entry's row lock, so a worker that claimed the schedule waits inside its
    // transaction, after the claim and before the publish.
    const holder = new pg.Client({ connectionString: config.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from content_entries where id = $1 for update', [entryId]);
      while (Date.now() <= Date.parse(s.at)) await sleep(50);

      const first = await worker();
      const rowLocked = async () =>
        (await sql`select id from schedules where id = ${s.id} for update skip locked`.execute(ctx.db)).rows
          .length === 0;
      const waitingOnEntry = async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db)
          ).rows[0]?.n ?? 0,
        ) > 0;
      await waitFor(
        async () => (await rowLocked()) && (await waitingOnEntry()),
        30_000,
        'the worker to claim and block',
      );

      first.child.kill('SIGKILL');
      await first.exited;
      assert.equal((await scheduleById(ctx.app, site, s.id)).status, 'pending');
      assert.deepEqual(await historyOf(ctx.app, site, entryId), []);
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
    }

    // The killed worker's transaction never commits: the next worker runs the schedule, once.
    const second = await worker();
    const done = await settled(ctx.app, site, s.id, 30_000);
    assert.equal(done.status, 'done');
    const history = await historyOf(ctx.app, site, entryId);
    assert.equal(history.length, 1);
    assert.deepEqual(history[0]?.fields, { title: 'scheduled' });
    assert.equal(await countEvents(site.project.id), 1);
    assert.equal(await stop(second), 0);
  });

  it('a SQLite server whose deliveries run in a stand-alone worker still runs its schedules', async (t) => {
    if (ctx.kind !== 'sqlite') return t.skip('SQLite only');
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-sched-'));
    try {
      const server = await startServerProcess({
        CMS_DATA_DIR: dataDir,
        CMS_WORKER_ENABLED: 'false',
        CMS_WORKER_POLL_MS: '20',
      });
      started.push(server);
      const api = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const json = (await res.json()) as { data: any };
        assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json.data;
      };
      const email = uniqueEmail('admin');
      const { project } = await api(
        'POST',
        '/v1/projects',
        {},
        { name: 'S', admin: { email, password: PASSWORD } },
      );
      const { token } = await api('POST', '/v1/auth/login', {}, { email, password: PASSWORD });
      const editing = { 'x-cms-key': project.apiKey as string, authorization: `Bearer ${token}` };
      await api(
        'POST',
        '/v1/definitions/sync',
        { 'x-cms-key': project.apiKey },
        { pageId: '/', components: [HERO] },
      );
      const [entry] = await api('GET', '/v1/content/%2F', editing);
      await api('PATCH', `/v1/content/${entry.id}`, editing, {
        fields: { title: 'before' },
        status: 'published',
      });
      await api('PATCH', `/v1/content/${entry.id}`, editing, { fields: { title: 'after' } });
      const visitorTitle = async () =>
        (await api('GET', '/v1/content/%2F', { 'x-cms-key': project.apiKey }))[0]?.fields.title;
      assert.equal(await visitorTitle(), 'before'); // cached in the server

      const s = await api('POST', '/v1/schedules', editing, {
        action: 'publish',
        entryId: entry.id,
        at: inMs(800),
      });
      await waitFor(
        async () =>
          ((await api('GET', '/v1/schedules', editing)) as { id: string; status: string }[]).find(
            (x) => x.id === s.id,
          )?.status === 'done',
        20_000,
        'the server to run the schedule',
      );
      assert.equal(await visitorTitle(), 'after');
      assert.equal(await stop(server), 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
