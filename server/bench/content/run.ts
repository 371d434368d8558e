/**
 * `npm run bench:content`: the content hot paths against a bare node:http server sending the same
 * bytes, measured in the same run (autocannon here, each server in its own child process).
 *
 * 1. Visitor GET /v1/content/:pageId, a 20-entry page of ~15 KB (target >= 0.5x bare, p99 < 5 ms
 *    at 50 connections).
 * 2. GET /v1/snapshot revalidation with If-None-Match -> 304 (target >= 0.8x bare).
 * 3. A snapshot of 1,000 pages x 20 entries built cold, in process (target < 300 ms on SQLite).
 *
 * SQLite in a temporary directory. BENCH_DURATION: seconds per scenario (default 5); BENCH_ROUNDS:
 * interleaved rounds, each scenario reporting its median (default 3).
 * Writes bench/results/content.json and content.md.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/db/connect.js';
import { createInProcessChangeBus } from '../../src/db/dialect/change-bus.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { freshSnapshotSources } from '../../src/jobs/handlers.js';
import { createSnapshotService } from '../../src/modules/snapshot/snapshot.service.js';
import { pinLoadGenerator, startFolio, startScript } from '../lib/processes.js';
import { seedProject } from './seed.js';

const root = new URL('../..', import.meta.url).pathname;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

interface Result {
  name: string;
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  statusOk: number;
  errors: number;
}

async function measure(name: string, url: string, headers: Record<string, string>, status: number) {
  // Warm-up (JIT, caches), not recorded.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const r: any = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  const result: Result = {
    name,
    requestsPerSec: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    requests: r.requests.total,
    statusOk: status === 200 ? r['2xx'] : r['3xx'],
    errors: r.errors + r.timeouts + r.non2xx - (status === 304 ? r['3xx'] : 0),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

async function main() {
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-content-'));
  const file = join(dir, 'cms.sqlite');
  try {
    const handle = await openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(handle.db);
    const small = await seedProject(handle.db, 'Page bench', 1, 20);
    const big = await seedProject(handle.db, 'Snapshot bench', 1000, 20);

    // Cold snapshot builds: a fresh service (empty cache) each time, on the 20,000-entry project.
    const cold: number[] = [];
    let snapshotBytes = 0;
    for (let i = 0; i < 5; i++) {
      const service = createSnapshotService(createInProcessChangeBus(), freshSnapshotSources(handle.db));
      const t0 = performance.now();
      const built = await service.snapshot(big.id);
      cold.push(Math.round((performance.now() - t0) * 10) / 10);
      snapshotBytes = built.bytes;
    }
    await handle.close();
    process.stdout.write(`cold snapshot builds (ms): ${cold.join(', ')}; ${snapshotBytes} bytes\n`);

    const results: Result[] = [];
    const env = {
      DATABASE_URL: `sqlite:${file}`,
      CMS_DATA_DIR: dir,
      CMS_WORKER_ENABLED: 'false',
    };
    const folio = await startFolio({ ...env, LOG_LEVEL: 'warn' }, join(dir, 'folio-warn.log'));
    const pageUrl = `${folio.url}/v1/content/%2F`;
    const key = { 'x-cms-key': small.apiKey };
    const page = await fetch(pageUrl, { headers: key });
    const body = Buffer.from(await page.arrayBuffer());
    const pageEtag = page.headers.get('etag')!;
    const snap = await fetch(`${folio.url}/v1/snapshot`, { headers: { 'x-cms-key': big.apiKey } });
    const snapEtag = snap.headers.get('etag')!;
    await snap.arrayBuffer();
    writeFileSync(join(dir, 'page.json'), body);

    const bare = await startScript('bench/content/bare-server.ts', [join(dir, 'page.json'), pageEtag]);
    const bareUrl = `${bare.url}/`;
    const floor = await startScript('bench/content/fastify-floor.ts', [join(dir, 'page.json'), pageEtag]);
    const floorUrl = `${floor.url}/`;
    // The same page at the default log level (info: one access line per request, to a file), on a
    // copy of the database: one server per SQLite file (src/db/sqlite-lock.ts).
    const infoDir = join(dir, 'info');
    mkdirSync(infoDir);
    copyFileSync(file, join(infoDir, 'cms.sqlite'));
    const folioInfo = await startFolio(
      {
        ...env,
        DATABASE_URL: `sqlite:${join(infoDir, 'cms.sqlite')}`,
        CMS_DATA_DIR: infoDir,
        LOG_LEVEL: 'info',
      },
      join(dir, 'folio-info.log'),
    );
    const scenarios: [string, string, Record<string, string>, number][] = [
      // Baselines get the same request as Folio (path and headers), not only the same answer.
      ['bare: page 200', `${bareUrl}v1/content/%2F`, key, 200],
      ['fastify floor: page 200', `${floorUrl}v1/content/%2F`, key, 200],
      ['folio: visitor page 200', pageUrl, key, 200],
      ['bare: 304', `${bareUrl}v1/content/%2F`, { ...key, 'if-none-match': pageEtag }, 304],
      ['fastify floor: 304', `${floorUrl}v1/content/%2F`, { ...key, 'if-none-match': pageEtag }, 304],
      [
        'folio: snapshot 304',
        `${folio.url}/v1/snapshot`,
        { 'x-cms-key': big.apiKey, 'if-none-match': snapEtag },
        304,
      ],
      ['folio: visitor page 304', pageUrl, { ...key, 'if-none-match': pageEtag }, 304],
      ['folio (LOG_LEVEL=info): visitor page 200', `${folioInfo.url}/v1/content/%2F`, key, 200],
    ];
    // Rounds interleave the scenarios, and each reports its median round: on a shared two-core
    // machine one run of one scenario swings by +-15%, which a single pass would put into a ratio.
    const runs = new Map<string, Result[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, url, headers, status] of scenarios) {
        const list = runs.get(name) ?? [];
        list.push(await measure(name, url, headers, status));
        runs.set(name, list);
      }
    }
    for (const [name] of scenarios) {
      const sorted = [...runs.get(name)!].sort((x, y) => x.requestsPerSec - y.requestsPerSec);
      results.push(sorted[Math.floor(sorted.length / 2)]!);
    }
    await folio.stop();
    await folioInfo.stop();
    await bare.stop();
    await floor.stop();

    const rps = (name: string) => results.find((r) => r.name === name)!.requestsPerSec;
    const summary = {
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      durationSeconds: DURATION,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      pageBytes: body.length,
      snapshot: { pages: 1000, entriesPerPage: 20, bytes: snapshotBytes, coldBuildMs: cold },
      ratios: {
        page200VsBare: +(rps('folio: visitor page 200') / rps('bare: page 200')).toFixed(2),
        snapshot304VsBare: +(rps('folio: snapshot 304') / rps('bare: 304')).toFixed(2),
        page304VsBare: +(rps('folio: visitor page 304') / rps('bare: 304')).toFixed(2),
        fastifyFloor200VsBare: +(rps('fastify floor: page 200') / rps('bare: page 200')).toFixed(2),
        fastifyFloor304VsBare: +(rps('fastify floor: 304') / rps('bare: 304')).toFixed(2),
        page200InfoLogsVsBare: +(
          rps('folio (LOG_LEVEL=info): visitor page 200') / rps('bare: page 200')
        ).toFixed(2),
      },
      results,
    };
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/content.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const md = [
      '# Content bench',
      '',
      `${summary.machine.cpus} CPUs (${summary.machine.model}), Node ${summary.machine.node}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per scenario after a 1 s warm-up, the median of ${ROUNDS} interleaved rounds; SQLite. Servers and autocannon share the machine.`,
      '',
      '| scenario | req/s | p50 ms | p99 ms | requests | errors |',
      '|---|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.name} | ${r.requestsPerSec} | ${r.latencyP50Ms} | ${r.latencyP99Ms} | ${r.requests} | ${r.errors} |`,
      ),
      '',
      `- Visitor page (${body.length} bytes, 20 entries) vs bare: **${summary.ratios.page200VsBare}x** (target >= 0.5x, p99 < 5 ms)`,
      `- Snapshot 304 vs bare 304: **${summary.ratios.snapshot304VsBare}x** (target >= 0.8x); page 304 vs bare: ${summary.ratios.page304VsBare}x`,
      `- A bare Fastify route with the same bytes (the framework's floor): ${summary.ratios.fastifyFloor200VsBare}x (200), ${summary.ratios.fastifyFloor304VsBare}x (304)`,
      `- With LOG_LEVEL=info (request logging on): ${summary.ratios.page200InfoLogsVsBare}x`,
      `- Snapshot of 1,000 pages x 20 entries (${snapshotBytes} bytes) built cold: ${cold.join(', ')} ms (target < 300 ms)`,
      '',
    ].join('\n');
    writeFileSync(join(root, 'bench/results/content.md'), md);
    process.stdout.write(`\n${md}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
