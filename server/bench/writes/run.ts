/**
 * `npm run bench:writes -w @folio/server`: the editor's write path against Directus, in one run.
 *
 * Folio: PATCH /v1/content/:entryId with `{ fields, status: "published" }` and a session token —
 * the editor's save and publish in one request (there is no separate publish route: contract §3,
 * "PATCH { status: "published" } publishes the working copy after applying fields"). Each request
 * writes the entry, a history row, the outbox event and the activity record.
 * Directus (when BENCH_DIRECTUS_DIR points at an install, bench/writes/README.md): PATCH
 * /items/<collection>/<id> with a static admin token.
 *
 * Scenarios, 10 connections for BENCH_DURATION seconds (default 10) each, after BENCH_WARM_UP seconds
 * (default 3) of the same load that are not counted:
 * - ten: ten editors on ten different entries (connection i writes entry i);
 * - one: all ten on one entry (every write waits on the same row).
 * Folio on SQLite and PostgreSQL (a fresh database per server start), Directus on PostgreSQL; the
 * servers run one at a time on CPU 1, the load generator on CPU 0 (bench/lib/processes.ts).
 * BENCH_ROUNDS (default 3) alternating rounds; figures are medians of the rounds. Targets (issue 13):
 * Folio PostgreSQL ≥ 10× Directus's PATCH with ten entries, ≥ 4× with one.
 * Writes bench/results/writes.json and writes.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedEditorsPage } from '../lib/editors.js';
import { cpuMicros, pinLoadGenerator, postgresCpuMicros, root, startFolio } from '../lib/processes.js';
import { requireWrk, wrk } from '../lib/wrk.js';
import { type DirectusServer, startDirectus } from './directus.js';
import { countStatements } from './statements.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/**
 * Seconds of the same load before each measured scenario, not counted. Why: a fresh Folio answered
 * its first seconds of writes at half its steady rate (the JIT compiling the write path, first
 * statements prepared), and before this every round measured Folio fresh but Directus warm from the
 * round before. Both now warm up the same way.
 */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDITORS = 10;
/** Directus PATCH req/s measured on this machine on 2026-11-23 (issue 13); used only without an install. */
const DIRECTUS_COMMITTED = 70;

type System = 'folio-sqlite' | 'folio-postgres' | 'directus';
type Scenario = 'ten' | 'one';

interface Figures {
  system: System;
  scenario: Scenario;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerWrite: number;
  /** PostgreSQL's CPU per write (every postgres process); null on SQLite, where it is the server's. */
  dbCpuMicrosPerWrite: number | null;
  /** The load generator's CPU per write (it shares CPU 0 with PostgreSQL). */
  clientCpuMicrosPerWrite: number;
  errors: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * The load generator (BENCH_LOAD, default wrk). Why wrk: it shares CPU 0 with PostgreSQL (which is
 * not pinned), and autocannon, a Node program, spent about 130 µs of that core per write, as much
 * as a quarter of what PostgreSQL needs per Folio publish; the system that writes fastest paid most
 * for its client. wrk spends a few µs. BENCH_LOAD=autocannon measures as rounds 1-5 did.
 */
const LOAD = process.env.BENCH_LOAD === 'autocannon' ? 'autocannon' : 'wrk';

/**
 * 10 connections for `duration` s; connection i writes paths[i] (all the same path for "one"), each
 * body `bodyTemplate` with `{n}` replaced by a number unlike the connection's previous one (every
 * write changes the entry). Also measured: the load generator's own CPU per write (this process
 * and the children it waited for: autocannon runs here, wrk as a child).
 */
async function load(
  base: string,
  headers: Record<string, string>,
  paths: string[],
  bodyTemplate: string,
  pid: number,
  postgres: boolean,
  duration = DURATION,
) {
  const cpu0 = cpuMicros(pid);
  const db0 = postgres ? postgresCpuMicros() : 0;
  const client0 = cpuMicros('self', true);
  const r = LOAD === 'wrk' ? await wrkLoad() : await autocannonLoad();
  return {
    ...r,
    cpuMicrosPerWrite: Math.round((cpuMicros(pid) - cpu0) / Math.max(1, r.total)),
    clientCpuMicrosPerWrite: Math.round((cpuMicros('self', true) - client0) / Math.max(1, r.total)),
    dbCpuMicrosPerWrite: postgres ? Math.round((postgresCpuMicros() - db0) / Math.max(1, r.total)) : null,
  };

  async function wrkLoad() {
    const connections = paths.length === 1 ? Array.from({ length: EDITORS }, () => paths[0]!) : paths;
    const r = await wrk({
      url: base,
      headers,
      connections: EDITORS,
      durationSeconds: duration,
      writes: { method: 'PATCH', paths: connections, bodyTemplate },
    });
    return {
      total: r.requests,
      requestsPerSec: r.requestsPerSec,
      p50Ms: r.latencyP50Ms,
      p99Ms: r.latencyP99Ms,
      errors: r.errors,
    };
  }

  async function autocannonLoad() {
    let clients = 0;
    let sent = 0;
    const r: any = await autocannon({
      url: base,
      connections: EDITORS,
      duration,
      // One path per connection: autocannon makes one client per connection, in order.
      setupClient: (client: any) => {
        const path = paths[clients++ % paths.length]!;
        client.setRequests([
          {
            method: 'PATCH',
            path,
            headers,
            setupRequest: (req: any) => ({ ...req, body: bodyTemplate.replace('{n}', String(sent++)) }),
          },
        ]);
      },
    });
    return {
      total: r.requests.total as number,
      requestsPerSec: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      errors: r.errors + r.timeouts + r.non2xx,
    };
  }
}

/** A run with error answers is no figure: its req/s would count refusals (or a bug's fast failures). */
function refuseErrors(system: string, scenario: Scenario, errors: number): void {
  if (errors > 0) throw new Error(`${system} answered ${errors} errors in the "${scenario}" scenario`);
}

async function runFolio(db: 'sqlite' | 'postgres', dir: string): Promise<Figures[]> {
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    CMS_DATA_DIR: mkdtempSync(join(dir, 'data-')),
    CMS_WORKER_ENABLED: 'false',
  };
  let dbName = '';
  const admin = new pg.Client({ connectionString: PG_URL });
  if (db === 'postgres') {
    dbName = `folio_bench_writes_${process.pid}_${Date.now()}`;
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  const server = await startFolio(env, join(dir, `folio-${db}.log`));
  try {
    const { headers, ids } = await seedEditorsPage(server.url, EDITORS, 'Writes bench');
    const body = JSON.stringify({
      fields: { title: 'Title {n}', body: 'x'.repeat(200) },
      status: 'published',
    });
    const out: Figures[] = [];
    for (const scenario of ['ten', 'one'] as const) {
      const paths = (scenario === 'ten' ? ids : [ids[0]!]).map((id) => `/v1/content/${id}`);
      await load(server.url, headers, paths, body, server.child.pid!, db === 'postgres', WARM_UP);
      const f = await load(server.url, headers, paths, body, server.child.pid!, db === 'postgres');
      refuseErrors(`Folio ${db}`, scenario, f.errors);
      out.push({ system: `folio-${db}`, scenario, ...f });
    }
    return out;
  } finally {
    await server.stop();
    if (db === 'postgres') {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

async function runDirectus(directus: DirectusServer): Promise<Figures[]> {
  const out: Figures[] = [];
  const body = JSON.stringify({ title: 'Title {n}', body: 'x'.repeat(200) });
  for (const scenario of ['ten', 'one'] as const) {
    const ids = scenario === 'ten' ? directus.ids : [directus.ids[0]!];
    const paths = ids.map((id) => `/items/${directus.collection}/${id}`);
    await load(directus.url, directus.headers, paths, body, directus.pid, true, WARM_UP);
    const f = await load(directus.url, directus.headers, paths, body, directus.pid, true);
    refuseErrors('Directus', scenario, f.errors);
    out.push({ system: 'directus', scenario, ...f });
  }
  return out;
}

function summarise(rounds: Figures[]) {
  const keys = [...new Set(rounds.map((r) => `${r.system}/${r.scenario}`))];
  return keys.map((k) => {
    const mine = rounds.filter((r) => `${r.system}/${r.scenario}` === k);
    const first = mine[0]!;
    return {
      system: first.system,
      scenario: first.scenario,
      requestsPerSec: median(mine.map((r) => r.requestsPerSec)),
      p50Ms: median(mine.map((r) => r.p50Ms)),
      p99Ms: median(mine.map((r) => r.p99Ms)),
      cpuMicrosPerWrite: median(mine.map((r) => r.cpuMicrosPerWrite)),
      dbCpuMicrosPerWrite:
        first.dbCpuMicrosPerWrite === null ? null : median(mine.map((r) => r.dbCpuMicrosPerWrite ?? 0)),
      clientCpuMicrosPerWrite: median(mine.map((r) => r.clientCpuMicrosPerWrite)),
      errors: mine.reduce((a, r) => a + r.errors, 0),
    };
  });
}

async function main() {
  if (LOAD === 'wrk') requireWrk();
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-writes-'));
  const rounds: Figures[] = [];
  // One database at a time: the counter is one global hook.
  const statements: {
    db: string;
    firstPatch: number;
    draftPatch: number;
    publishPatch: number;
    sessionRead: number;
    visitorRead: number;
    fastRead: number;
  }[] = [];
  for (const kind of process.env.TEST_DATABASE_URL
    ? (['sqlite', 'postgres'] as const)
    : (['sqlite'] as const)) {
    const r = await countStatements(kind);
    statements.push({
      db: kind,
      firstPatch: r.first.length,
      draftPatch: r.draft.length,
      publishPatch: r.publish.length,
      sessionRead: r.sessionRead.length,
      visitorRead: r.coldRead.length,
      fastRead: r.fastRead.length,
    });
  }
  let directus: DirectusServer | null = null;
  try {
    if (process.env.BENCH_DIRECTUS_DIR) directus = await startDirectus(PG_URL, dir, EDITORS);
    for (let round = 0; round < ROUNDS; round++) {
      const figures = [
        ...(directus ? await runDirectus(directus) : []),
        ...(await runFolio('postgres', dir)),
        ...(await runFolio('sqlite', dir)),
      ];
      for (const f of figures) process.stdout.write(`${JSON.stringify(f)}\n`);
      rounds.push(...figures);
    }
  } finally {
    await directus?.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const summary = summarise(rounds);
  const rate = (system: System, scenario: Scenario) =>
    summary.find((s) => s.system === system && s.scenario === scenario)?.requestsPerSec ?? 0;
  const baseline = (scenario: Scenario) => (directus ? rate('directus', scenario) : DIRECTUS_COMMITTED);
  /** Folio PostgreSQL over Directus within each round (measured a minute apart, not ten), then the median. */
  const pairedRatio = (scenario: Scenario) => {
    const of = (system: System) => rounds.filter((r) => r.system === system && r.scenario === scenario);
    const folio = of('folio-postgres');
    const theirs = of('directus');
    if (!directus || theirs.length !== folio.length)
      return rate('folio-postgres', scenario) / Math.max(1, baseline(scenario));
    return median(folio.map((f, i) => f.requestsPerSec / Math.max(1, theirs[i]?.requestsPerSec ?? 0)));
  };
  const targets = (['ten', 'one'] as const).map((scenario) => {
    const want = scenario === 'ten' ? 10 : 4;
    const ratio = pairedRatio(scenario);
    return { scenario, want, ratio: +ratio.toFixed(2), met: ratio >= want };
  });
  const meta = {
    date: new Date().toISOString(),
    loadGenerator: LOAD,
    durationS: DURATION,
    warmUpS: WARM_UP,
    rounds: ROUNDS,
    connections: EDITORS,
    baseline: directus
      ? `Directus measured in this run (${directus.version}, node ${directus.nodeVersion})`
      : `no Directus install (BENCH_DIRECTUS_DIR unset): the committed figure of ${DIRECTUS_COMMITTED}/s (2026-11-23), NOT measured in this run`,
    loadavg: (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim(),
  };
  const out = join(root, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'writes.json'),
    `${JSON.stringify({ ...meta, statements, targets, summary, rounds }, null, 2)}\n`,
  );
  const label: Record<Scenario, string> = { ten: '10 editors × 10 entries', one: '10 editors × 1 entry' };
  const rows = summary.map(
    (s) =>
      `| ${s.system} | ${label[s.scenario]} | ${s.requestsPerSec} | ${s.p50Ms} | ${s.p99Ms} | ${s.cpuMicrosPerWrite} | ${s.dbCpuMicrosPerWrite ?? '(in the server)'} | ${s.clientCpuMicrosPerWrite} | ${s.errors} |`,
  );
  const targetRows = targets.map(
    (t) =>
      `| ${label[t.scenario]} | ${rate('folio-postgres', t.scenario)} | ${baseline(t.scenario)} | ${t.ratio}× | ≥ ${t.want}× | ${t.met ? 'met' : 'NOT met'} |`,
  );
  const statementRows = statements.map(
    (s) =>
      `| ${s.db} | ${s.firstPatch} | ${s.draftPatch} | ${s.publishPatch} | ${s.sessionRead} | ${s.visitorRead} | ${s.fastRead} |`,
  );
  writeFileSync(
    join(out, 'writes.md'),
    `# Editor writes: Folio PATCH + publish against Directus PATCH

${meta.date}; load generator ${LOAD}; ${EDITORS} connections, ${DURATION} s per scenario after ${WARM_UP} s of the same load not counted, median of ${ROUNDS} rounds (each round: Directus, Folio PostgreSQL, Folio SQLite, one after the other); ratios are the median of each round's own ratio; load average at the end: ${meta.loadavg}.
Baseline: ${meta.baseline}.

Folio: \`PATCH /v1/content/:id\` \`{ fields, status: "published" }\` with a session token (save and publish: entry, history, outbox event, activity). Directus: \`PATCH /items/<collection>/<id>\` with a static admin token.

| system | scenario | req/s | p50 ms | p99 ms | server CPU µs per write | PostgreSQL CPU µs per write | load generator CPU µs per write | errors |
|---|---|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

## Targets (issue 13): Folio PostgreSQL against Directus

| scenario | Folio PG req/s | Directus req/s | ratio | target | |
|---|---:|---:|---:|---:|---|
${targetRows.join('\n')}

## Statements per request (counted at the driver, session token included)

The first PATCH of an entry on an instance takes the locked path; later ones, on PostgreSQL, the
optimistic one-statement write (server/docs/api.md, "One statement per PATCH on PostgreSQL").

The session check rides in the PATCH's first statement; a session read is an editor's GET /v1/projects;
a visitor read is GET /v1/content/:pageId with the publishable key, first (cold) and then cached (the
fast path, answered before Fastify).

| database | first publish PATCH | then a draft PATCH | then a publish PATCH | session read | visitor read, cold | visitor read, fast |
|---|---:|---:|---:|---:|---:|---:|
${statementRows.join('\n')}
`,
  );
  process.stdout.write('wrote bench/results/writes.json and writes.md\n');
}

await main();
