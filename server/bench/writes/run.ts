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
 * - one: all ten on one entry (every write waits on the same row);
 * - rules and bare (Folio only, issue 34): ten editors publishing ten entries of a component of 20
 *   fields and a list of 50 items, declared with rules and without them (target: at most 10% dearer).
 * Folio on SQLite and PostgreSQL (a fresh database per server start), Directus on PostgreSQL; the
 * servers run one at a time on CPU 1, the load generator on CPU 0 (bench/lib/processes.ts).
 * BENCH_ROUNDS (default 3) alternating rounds; figures are medians of the rounds. Targets (issue 13):
 * Folio PostgreSQL ≥ 10× Directus's PATCH with ten entries, ≥ 4× with one.
 * Writes bench/results/writes.json and writes.md.
 */
import { spawnSync } from 'node:child_process';
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
type Scenario = 'ten' | 'one' | 'rules' | 'bare';

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

/**
 * Issue 34: a component of 20 fields with rules and a list of 50 items (its items with rules too),
 * and the same declarations with every rule taken out. Ten editors publish ten entries of each
 * (`rules` and `bare`, alternating which goes first by round); the target is `rules` at most 10%
 * dearer than `bare`.
 */
const RULES = ['required', 'minLength', 'maxLength', 'pattern', 'min', 'max', 'integer'];
const TEXT_RULES = { required: true, minLength: 1, maxLength: 200, pattern: { source: '[A-Za-z0-9 -]+' } };
const RULED_FIELDS = [
  ...Array.from({ length: 8 }, (_, i) => ({ key: `t${i}`, type: 'text', ...TEXT_RULES })),
  ...Array.from({ length: 4 }, (_, i) => ({
    key: `n${i}`,
    type: 'number',
    required: true,
    min: 0,
    max: 1000,
    integer: true,
  })),
  ...Array.from({ length: 3 }, (_, i) => ({
    key: `s${i}`,
    type: 'select',
    required: true,
    options: [{ value: 'a' }, { value: 'b' }, { value: 'c' }],
  })),
  ...Array.from({ length: 2 }, (_, i) => ({
    key: `d${i}`,
    type: 'date',
    required: true,
    min: '2000-01-01',
    max: '2100-01-01',
  })),
  { key: 'u0', type: 'url', required: true },
  { key: 'c0', type: 'color', required: true },
  { key: 'b0', type: 'boolean', required: true },
  {
    key: 'items',
    type: 'list',
    required: true,
    min: 1,
    max: 100,
    fields: [
      { key: 'title', type: 'text', required: true, maxLength: 80, pattern: { source: '[A-Za-z0-9 ]+' } },
      { key: 'count', type: 'number', required: true, min: 0, max: 100, integer: true },
    ],
  },
];
const withoutRules = (declared: Record<string, unknown>[]): Record<string, unknown>[] =>
  declared.map((d) => {
    const bare = Object.fromEntries(Object.entries(d).filter(([k]) => !RULES.includes(k)));
    return Array.isArray(d.fields) ? { ...bare, fields: withoutRules(d.fields) } : bare;
  });
const RULED_BODY = JSON.stringify({
  fields: {
    ...Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`t${i}`, i === 0 ? 'Title {n}' : `Text ${i}`]),
    ),
    ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`n${i}`, i * 10])),
    ...Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`s${i}`, 'b'])),
    d0: '2026-11-27',
    d1: '2027-01-01',
    u0: 'https://example.com/a',
    c0: '#aabbcc',
    b0: true,
    items: Array.from({ length: 50 }, (_, i) => ({ _key: `k${i}`, title: `Item ${i}`, count: i })),
  },
  status: 'published',
});

/**
 * The checks themselves (steadier than the rates on a shared machine): µs per publish for the shape
 * check of the write (checkWrite) and the rules (checkPublish), with each scenario's declarations.
 * Run by plain node on the build (bench/writes/rules-checks.mjs), as the server runs: under tsx every
 * closure the checks create is renamed at creation, which a profile put at 40% of their time.
 */
function rulesCheckMicros(): { rules: number; bare: number } {
  const { fields } = JSON.parse(RULED_BODY.replace('{n}', '1-1')) as { fields: Record<string, unknown> };
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'bench/writes/rules-checks.mjs'),
      JSON.stringify({ rules: RULED_FIELDS, bare: withoutRules(RULED_FIELDS), fields }),
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`rules-checks.mjs: ${run.stderr}`);
  return JSON.parse(run.stdout) as { rules: number; bare: number };
}

/** Ten entries of the 20-field component on a page of their own, declared with or without its rules. */
async function seedRulesPage(base: string, headers: Record<string, string>, pageId: string, ruled: boolean) {
  const components = Array.from({ length: EDITORS }, (_, i) => ({
    componentId: 'Rich',
    instanceKey: `rich-${String(i).padStart(2, '0')}`,
    fields: ruled ? RULED_FIELDS : withoutRules(RULED_FIELDS),
  }));
  const res = await fetch(`${base}/v1/definitions/sync`, {
    method: 'POST',
    headers: { 'x-cms-key': headers['x-cms-key']!, 'content-type': 'application/json' },
    body: JSON.stringify({ pageId, components }),
  });
  if (!res.ok) throw new Error(`definitions/sync ${pageId}: ${res.status} ${await res.text()}`);
  const entries = await fetch(`${base}/v1/content/${encodeURIComponent(pageId)}`, { headers });
  const ids = ((await entries.json()) as { data: { id: string }[] }).data.map((e) => e.id);
  // One publish each first, so the entry is known to the instance and the rules apply to a full value.
  for (const id of ids) {
    const once = await fetch(`${base}/v1/content/${id}`, {
      method: 'PATCH',
      headers,
      body: RULED_BODY.replace('{n}', '0'),
    });
    if (!once.ok) throw new Error(`PATCH ${pageId}: ${once.status} ${await once.text()}`);
  }
  return ids;
}

/** A run with error answers is no figure: its req/s would count refusals (or a bug's fast failures). */
function refuseErrors(system: string, scenario: Scenario, errors: number): void {
  if (errors > 0) throw new Error(`${system} answered ${errors} errors in the "${scenario}" scenario`);
}

async function runFolio(db: 'sqlite' | 'postgres', dir: string, round: number): Promise<Figures[]> {
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
    const pages = {
      rules: await seedRulesPage(server.url, headers, '/rules', true),
      bare: await seedRulesPage(server.url, headers, '/bare', false),
    };
    for (const scenario of round % 2 === 0 ? (['bare', 'rules'] as const) : (['rules', 'bare'] as const)) {
      const paths = pages[scenario].map((id) => `/v1/content/${id}`);
      await load(server.url, headers, paths, RULED_BODY, server.child.pid!, db === 'postgres', WARM_UP);
      const f = await load(server.url, headers, paths, RULED_BODY, server.child.pid!, db === 'postgres');
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
        ...(await runFolio('postgres', dir, round)),
        ...(await runFolio('sqlite', dir, round)),
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
  /** Issue 34: the publish with rules against the same without, per database, each round's own ratio. */
  const rulesCost = (['postgres', 'sqlite'] as const)
    .map((db) => {
      const of = (scenario: Scenario) =>
        rounds.filter((r) => r.system === `folio-${db}` && r.scenario === scenario);
      const ruled = of('rules');
      const bare = of('bare');
      if (ruled.length === 0 || ruled.length !== bare.length) return null;
      const each = ruled.map((r, i) => ({
        rate: bare[i]!.requestsPerSec / Math.max(1, r.requestsPerSec),
        cpu: r.cpuMicrosPerWrite / Math.max(1, bare[i]!.cpuMicrosPerWrite),
      }));
      const rate = +median(each.map((e) => e.rate)).toFixed(3);
      const cpu = +median(each.map((e) => e.cpu)).toFixed(3);
      return { db, rates: each.map((e) => +e.rate.toFixed(3)), rate, cpu, met: rate <= 1.1 };
    })
    .filter((r) => r !== null);
  const checks = rulesCheckMicros();
  const out = join(root, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'writes.json'),
    `${JSON.stringify({ ...meta, statements, targets, rulesCost, checks, summary, rounds }, null, 2)}\n`,
  );
  const label: Record<Scenario, string> = {
    ten: '10 editors × 10 entries',
    one: '10 editors × 1 entry',
    rules: '10 × 10, 20 fields + 50 items, with rules',
    bare: '10 × 10, 20 fields + 50 items, no rules',
  };
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

## Target (issue 34): a publish with rules at most 10% dearer than the same without

A component of 20 fields with rules (text: required, length, pattern; number: required, range,
integer; select, date, url, color, boolean: required) and a list of 50 items with rules of their
own, published by ten editors on ten entries, against the same declarations with every rule taken
out. Cost: the no-rules rate over the rules rate (each round's own ratio, then the median); the
server's CPU per write likewise.

| database | cost (rate) per round | median | server CPU per write, rules / none | target | |
|---|---|---:|---:|---:|---|
${rulesCost.map((r) => `| ${r.db} | ${r.rates.join(', ')} | ${r.rate}× | ${r.cpu}× | ≤ 1.1× | ${r.met ? 'met' : 'NOT met'} |`).join('\n')}

The checks alone (shape check of the write and the rules, per publish; plain node on the build):
${checks.rules} µs with the rules, ${checks.bare} µs without: ${(checks.rules - checks.bare).toFixed(1)} µs more,
against the server CPU per write in the table above.

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
