/**
 * `npm run bench:locales`: languages, the visitor side (contract §14, §17; issue 35, Speed), each
 * against its baseline in the same run. SQLite, the compiled build, autocannon, BENCH_ROUNDS
 * interleaved rounds of BENCH_DURATION seconds (medians).
 *
 * 1. A visitor read in a non-default locale whose chain has two steps (fr-CA → fr → en: each entry's
 *    title from fr, its body from en), against a default-locale read of the same page (target: within
 *    5%) and a bare node:http server sending the fr-CA bytes (target >= 0.75x bare). A 20-entry page.
 * 2. GET /v1/snapshot?locale=* of 1,000 pages x 20 entries x 5 locales (BENCH_SNAPSHOT_PAGES): the
 *    cold build's time, its bytes and the server's peak RSS (VmHWM), then its 304 against today's
 *    snapshot 304 (a project without locales, on the same server).
 *
 * The default-locale read of a project without locales before and after this change: run
 * `BENCH_BASE=<main's commit> npm run bench:compare` (this build against that one, side by side).
 * Writes bench/results/locales.json and locales.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { canonicalJson } from '../../src/shared/canonical.js';
import { newId } from '../../src/shared/ids.js';
import { json, newBenchProject } from '../lib/editors.js';
import { cpuMicros, pinLoadGenerator, root, startFolio, startScript } from '../lib/processes.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SNAPSHOT_PAGES = Number(process.env.BENCH_SNAPSHOT_PAGES ?? 1000);
const CONNECTIONS = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const CARD = [
  { key: 'title', type: 'text', localized: true },
  { key: 'body', type: 'text', localized: true },
  { key: 'cta', type: 'text' },
];

const LOCALES = {
  default: 'en',
  available: [
    { code: 'en' },
    { code: 'fr', fallback: 'en' },
    { code: 'fr-CA', fallback: 'fr' },
    { code: 'de', fallback: 'en' },
    { code: 'es', fallback: 'en' },
  ],
};

/**
 * Rows written straight to the tables: `pages` x `perPage` Cards published in en, and in each of
 * `translated` a published title of its own (its body falls back to en; cta is shared).
 */
async function seed(db: Db, projectId: string, pages: string[], perPage: number, translated: string[]) {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (let p = 0; p < pages.length; p += 25) {
      const chunk = pages.slice(p, p + 25);
      const definitions = [];
      const entries = [];
      const slots = [];
      for (const pageId of chunk) {
        for (let i = 0; i < perPage; i++) {
          const instanceKey = `card-${String(i).padStart(2, '0')}`;
          definitions.push({
            projectId,
            pageId,
            instanceKey,
            componentId: 'Card',
            fields: JSON.stringify(CARD),
            createdAt: now,
            updatedAt: now,
          });
          const en = {
            title: `Card ${i} of ${pageId}`,
            body: 'Folio keeps every language of a page in step. '.repeat(3),
            cta: 'Start',
          };
          const fields = canonicalJson(en);
          const id = newId('ent');
          entries.push({
            id,
            projectId,
            pageId,
            instanceKey,
            componentId: 'Card',
            fields,
            publishedFields: fields,
            publishedAt: now,
            createdAt: now,
            updatedAt: now,
            version: 2,
            publishedVersion: 2,
          });
          for (const locale of translated) {
            const own = { title: `${en.title} (${locale})` };
            slots.push({
              entryId: id,
              locale,
              projectId,
              fields: canonicalJson(own),
              publishedFields: canonicalJson({ cta: en.cta, ...own }),
              publishedAt: now,
              version: 2,
              publishedVersion: 2,
              updatedAt: now,
            });
          }
        }
      }
      await trx.insertInto('componentDefinitions').values(definitions).execute();
      await trx.insertInto('contentEntries').values(entries).execute();
      for (let s = 0; s < slots.length; s += 500)
        await trx
          .insertInto('entryLocales')
          .values(slots.slice(s, s + 500))
          .execute();
    }
  });
}

/**
 * One scenario: throughput, and the server's CPU time per request (from /proc: hardly moved by
 * other load on a shared machine, where throughput swings by tens of percent).
 */
async function measure(name: string, url: string, headers: Record<string, string>, pid: number) {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const cpuBefore = cpuMicros(pid);
  const r: any = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  const cpu = cpuMicros(pid) - cpuBefore;
  const result = {
    name,
    requestsPerSec: Math.round(r.requests.average),
    cpuMicrosPerRequest: Math.round((cpu / Math.max(1, r.requests.total)) * 10) / 10,
    latencyP99Ms: r.latency.p99,
    // A revalidation answers 304 (autocannon counts it as non-2xx): anything else is the error there.
    errors:
      r.errors +
      r.timeouts +
      (headers['if-none-match'] ? r['1xx'] + r['2xx'] + r['4xx'] + r['5xx'] : r.non2xx),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (result.errors > 0) throw new Error(`${name}: ${result.errors} errors`);
  return result;
}

/** A project with locales (LOCALES) through the API, its admin's token kept for the PATCH. */
async function localizedProject(base: string, name: string, locales: unknown = LOCALES) {
  const project = await newBenchProject(base, name);
  if (locales !== null)
    await json(`${base}/v1/projects/${project.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${project.token}` },
      body: JSON.stringify({ locales }),
    });
  return project;
}

const peakRssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Math.round(Number(line?.replace(/[^0-9]/g, '') ?? 0) / 1024);
};

/** 1. fr-CA (two steps of fallback) against en and bare node:http. */
async function localeRead(dir: string) {
  const file = join(dir, 'cms.sqlite');
  const env = {
    DATABASE_URL: `sqlite:${file}`,
    CMS_DATA_DIR: dir,
    CMS_WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  const folio = await startFolio(env, join(dir, 'read.log'));
  const project = await localizedProject(folio.url, 'Locales read bench');
  await folio.stop(); // seeded straight into the tables, then served by a fresh process
  const handle = await openDatabase({ kind: 'sqlite', file });
  await seed(handle.db, project.id, ['/'], 20, ['fr']);
  await handle.close();
  const server = await startFolio(env, join(dir, 'read.log'));
  const key = { 'x-cms-key': project.key };
  const urls = { en: `${server.url}/v1/content/%2F`, frCa: `${server.url}/v1/content/%2F?locale=fr-CA` };
  const page = await fetch(urls.frCa, { headers: key });
  const body = Buffer.from(await page.arrayBuffer());
  const text = body.toString();
  if (!text.includes('(fr)') || !text.includes('"locale":"fr-CA"'))
    throw new Error('fr-CA does not read through fr');
  writeFileSync(join(dir, 'page.json'), body);
  const bare = await startScript('bench/content/bare-server.ts', [
    join(dir, 'page.json'),
    page.headers.get('etag') ?? '',
  ]);
  const runs = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, at, pid] of [
      ['bare', `${bare.url}/v1/content/%2F`, bare.child.pid],
      ['en', urls.en, server.child.pid],
      ['frCa', urls.frCa, server.child.pid],
    ] as const) {
      const r = await measure(`${name}: 20-entry page`, at, key, pid as number);
      runs.set(name, [...(runs.get(name) ?? []), r.requestsPerSec]);
      cpu.set(name, [...(cpu.get(name) ?? []), r.cpuMicrosPerRequest]);
    }
  }
  await server.stop();
  await bare.stop();
  const [bareRps, enRps, frCaRps] = ['bare', 'en', 'frCa'].map((n) => median(runs.get(n) ?? [])) as number[];
  const [bareCpu, enCpu, frCaCpu] = ['bare', 'en', 'frCa'].map((n) => median(cpu.get(n) ?? [])) as number[];
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    pageBytes: body.length,
    bareRps,
    enRps,
    frCaRps,
    bareCpuMicros: bareCpu,
    enCpuMicros: enCpu,
    frCaCpuMicros: frCaCpu,
    frCaVsEn: r2((frCaRps as number) / (enRps as number)),
    frCaVsBare: r2((frCaRps as number) / (bareRps as number)),
    // CPU per request: the ratio of the work each costs the server (en / frCa: >= 0.95 is within 5%).
    cpuEnVsFrCa: r2((enCpu as number) / (frCaCpu as number)),
    cpuBareVsFrCa: r2((bareCpu as number) / (frCaCpu as number)),
  };
}

/** 2. The `*` snapshot of SNAPSHOT_PAGES pages x 20 entries x 5 locales; its 304 against a plain snapshot's. */
async function allLocalesSnapshot(dir: string) {
  const file = join(dir, 'cms.sqlite');
  const env = {
    DATABASE_URL: `sqlite:${file}`,
    CMS_DATA_DIR: dir,
    CMS_WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  const folio = await startFolio(env, join(dir, 'snapshot.log'));
  const big = await localizedProject(folio.url, 'Locales snapshot bench');
  const plain = await localizedProject(folio.url, 'No locales', null);
  await folio.stop();
  const handle = await openDatabase({ kind: 'sqlite', file });
  const pages = Array.from({ length: SNAPSHOT_PAGES }, (_, i) => `/p/${i}`);
  const seeding = performance.now();
  await seed(handle.db, big.id, pages, 20, ['fr', 'fr-CA', 'de', 'es']);
  await seed(handle.db, plain.id, ['/'], 20, []);
  process.stdout.write(`seeded in ${Math.round(performance.now() - seeding)} ms\n`);
  await handle.close();
  const server = await startFolio(env, join(dir, 'snapshot.log'));
  const pid = server.child.pid as number;
  const rssBefore = peakRssMb(pid);
  const bigKey = { 'x-cms-key': big.key };
  const plainKey = { 'x-cms-key': plain.key };
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/snapshot?locale=*`, { headers: bigKey });
  const body = Buffer.from(await res.arrayBuffer());
  const buildMs = Math.round(performance.now() - started);
  if (res.status !== 200) throw new Error(`snapshot *: ${res.status} ${body.toString().slice(0, 200)}`);
  const rssPeak = peakRssMb(pid);
  const starEtag = res.headers.get('etag') ?? '';
  const again = performance.now();
  await (await fetch(`${server.url}/v1/snapshot?locale=*`, { headers: bigKey })).arrayBuffer();
  const cachedMs = Math.round(performance.now() - again);
  const plainRes = await fetch(`${server.url}/v1/snapshot`, { headers: plainKey });
  await plainRes.arrayBuffer();
  const plainEtag = plainRes.headers.get('etag') ?? '';
  const runs = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url, headers] of [
      ['plain', `${server.url}/v1/snapshot`, { ...plainKey, 'if-none-match': plainEtag }],
      ['star', `${server.url}/v1/snapshot?locale=*`, { ...bigKey, 'if-none-match': starEtag }],
    ] as const) {
      const r = await measure(`${name}: snapshot 304`, url, headers, pid);
      runs.set(name, [...(runs.get(name) ?? []), r.requestsPerSec]);
      cpu.set(name, [...(cpu.get(name) ?? []), r.cpuMicrosPerRequest]);
    }
  }
  await server.stop();
  const plainRps = median(runs.get('plain') ?? []);
  const starRps = median(runs.get('star') ?? []);
  const plainCpu = median(cpu.get('plain') ?? []);
  const starCpu = median(cpu.get('star') ?? []);
  return {
    pages: SNAPSHOT_PAGES,
    entries: SNAPSHOT_PAGES * 20,
    locales: LOCALES.available.length,
    buildMs,
    cachedMs,
    bytes: body.length,
    rssBeforeMb: rssBefore,
    rssPeakMb: rssPeak,
    plain304Rps: plainRps,
    star304Rps: starRps,
    plain304CpuMicros: plainCpu,
    star304CpuMicros: starCpu,
    ratio: Math.round((starRps / plainRps) * 100) / 100,
    cpuRatio: Math.round((plainCpu / starCpu) * 100) / 100,
  };
}

async function main() {
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-locales-'));
  try {
    mkdirSync(join(dir, 'read'));
    mkdirSync(join(dir, 'snapshot'));
    const read = await localeRead(join(dir, 'read'));
    process.stdout.write(`${JSON.stringify({ read })}\n`);
    const snapshot = await allLocalesSnapshot(join(dir, 'snapshot'));
    process.stdout.write(`${JSON.stringify({ snapshot })}\n`);
    const results = { at: new Date().toISOString(), duration: DURATION, rounds: ROUNDS, read, snapshot };
    const out = join(root, 'bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'locales.json'), `${JSON.stringify(results, null, 2)}\n`);
    const md = [
      '# bench:locales',
      '',
      `Run ${results.at}; SQLite; ${ROUNDS} interleaved rounds of ${DURATION} s per scenario (medians). Throughput swings with other load on a shared machine; the server's CPU time per request (from /proc) hardly does: read the ratios of both.`,
      '',
      '| scenario | figure | target |',
      '|---|---|---|',
      `| visitor read in fr-CA (→ fr → en), 20 entries (${read.pageBytes} bytes), vs the default locale's | ${read.frCaRps} vs ${read.enRps} req/s (${read.frCaVsEn}x); server CPU ${read.frCaCpuMicros} vs ${read.enCpuMicros} µs/request (${read.cpuEnVsFrCa}x) | within 5% |`,
      `| the same fr-CA read vs bare node:http | ${read.frCaRps} vs ${read.bareRps} req/s (${read.frCaVsBare}x); CPU ${read.frCaCpuMicros} vs ${read.bareCpuMicros} µs/request (${read.cpuBareVsFrCa}x) | >= 0.75x |`,
      `| GET /v1/snapshot?locale=*, ${snapshot.pages} pages x 20 entries x ${snapshot.locales} locales: cold build | ${snapshot.buildMs} ms (cached: ${snapshot.cachedMs} ms), ${snapshot.bytes} bytes, peak RSS ${snapshot.rssPeakMb} MB (${snapshot.rssBeforeMb} MB before) | reported |`,
      `| its 304 vs a project without locales' snapshot 304 | ${snapshot.star304Rps} vs ${snapshot.plain304Rps} req/s (${snapshot.ratio}x); CPU ${snapshot.star304CpuMicros} vs ${snapshot.plain304CpuMicros} µs/request (${snapshot.cpuRatio}x) | as fast |`,
      '',
      'The default-locale read of a project without locales, before and after: `BENCH_BASE=<main> npm run bench:compare` (this branch: bench/results/locales-compare.md).',
      '',
    ].join('\n');
    writeFileSync(join(out, 'locales.md'), md);
    process.stdout.write(md);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
