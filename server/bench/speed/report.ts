/** bench/speed's figures: medians of the fresh processes, the ratios and issue 13's targets. */

interface Throughput {
  requestsPerSec: number;
  latencyP99Ms: number;
  /** The server's user + system CPU time per request answered (robust to other load on the machine). */
  cpuMicrosPerRequest: number;
  /** req/s in each turn of the round (bench/speed/run.ts, runRound), in the order measured. */
  slices?: number[];
  /** p99 ms in each turn, in the same order (what the round's median p99 is read from). */
  p99s?: number[];
}

export interface Sample {
  coldStartMs: number;
  /** The server's CPU time (user + system) from spawn to the first 200. */
  coldStartCpuMs: number;
  /** Resident memory 1 s after the warm-up. */
  rssAfterLoadMb: number;
  page: Throughput;
  snapshot304: Throughput;
  loadAverage: number[];
}

/** Medians; idleRssMb from the idle phase (bench/speed/run.ts, idleRss). */
type Summary = Omit<Sample, 'loadAverage'> & { idleRssMb: number };

/** The paired ratios the targets are read on (see pairedRatio). */
export interface Pairs {
  [system: string]: { pageVsBare: number; snapshotVsBare: number; pageVsWarn?: number };
}

export interface Figures {
  at: string;
  machine: { cpus: number; model: string; node: string };
  durationSeconds: number;
  rounds: number;
  connections: number;
  pageBytes: number;
  loadAverage: { start: number[]; end: number[] };
  systems: Record<string, Summary>;
  pairs: Pairs;
  /** How long each process sat without a request before its idle RSS was read. */
  idleSeconds: number;
  /** Seconds of each of the two warm-up scenarios (absent in runs before it could be set: 1). */
  warmupSeconds?: number;
  /** bare node:http's page read driven by each load generator (why wrk: bench/lib/wrk.ts). */
  clientCeiling: { autocannonRequestsPerSec: number; wrkRequestsPerSec: number };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const throughput = (list: Throughput[]): Throughput => ({
  requestsPerSec: median(list.map((t) => t.requestsPerSec)),
  latencyP99Ms: median(list.map((t) => t.latencyP99Ms)),
  cpuMicrosPerRequest: median(list.map((t) => t.cpuMicrosPerRequest)),
});

/**
 * The median, over every round and turn, of a's req/s over b's in the same turn: systems measured in
 * neighbouring seconds (bench/speed/run.ts, runRound), so the VM's drift between minutes cancels.
 */
function pairedRatio(a: Sample[], b: Sample[], scenario: 'page' | 'snapshot304'): number {
  const ratios: number[] = [];
  a.forEach((sample, round) => {
    const mine = sample[scenario].slices ?? [];
    const theirs = b[round]?.[scenario].slices ?? [];
    mine.forEach((rps, turn) => {
      const other = theirs[turn];
      if (other) ratios.push(rps / other);
    });
  });
  return ratios.length ? Math.round(median(ratios) * 100) / 100 : 0;
}

export function pairsOf(samples: Map<string, Sample[]>): Pairs {
  const bare = samples.get(BARE) ?? [];
  const out: Pairs = {};
  for (const [name, list] of samples) {
    if (!name.startsWith('Folio')) continue;
    const warn = samples.get(name.replace('LOG_LEVEL=info', 'LOG_LEVEL=warn'));
    out[name] = {
      pageVsBare: pairedRatio(list, bare, 'page'),
      snapshotVsBare: pairedRatio(list, bare, 'snapshot304'),
      ...(warn && name.includes('LOG_LEVEL=info') ? { pageVsWarn: pairedRatio(list, warn, 'page') } : {}),
    };
  }
  return out;
}

export function summarise(
  samples: Map<string, Sample[]>,
  idle: Map<string, number[]>,
): Record<string, Summary> {
  const out: Record<string, Summary> = {};
  for (const [name, list] of samples) {
    out[name] = {
      coldStartMs: median(list.map((s) => s.coldStartMs)),
      coldStartCpuMs: median(list.map((s) => s.coldStartCpuMs)),
      rssAfterLoadMb: median(list.map((s) => s.rssAfterLoadMb)),
      idleRssMb: median(idle.get(name) ?? [0]),
      page: { ...throughput(list.map((s) => s.page)), slices: undefined, p99s: undefined },
      snapshot304: { ...throughput(list.map((s) => s.snapshot304)), slices: undefined, p99s: undefined },
    };
  }
  return out;
}

const BARE = 'bare node:http, precomputed bytes';
const FASTIFY = 'bare Fastify, serialising the page';
const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 100) / 100 : 0);
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

export function markdown(f: Figures): string {
  const s = f.systems;
  const none = { requestsPerSec: 0, latencyP99Ms: 0, cpuMicrosPerRequest: 0 };
  const missing: Summary = {
    coldStartMs: 0,
    coldStartCpuMs: 0,
    rssAfterLoadMb: 0,
    idleRssMb: 0,
    page: none,
    snapshot304: none,
  };
  const bare = s[BARE] ?? missing;
  const fastify = s[FASTIFY] ?? missing;
  const rows = Object.entries(s).map(
    ([name, x]) =>
      `| ${name} | ${x.page.requestsPerSec} | ${f.pairs[name]?.pageVsBare ?? ratio(x.page.requestsPerSec, bare.page.requestsPerSec)}× | ${x.page.latencyP99Ms} | ${x.page.cpuMicrosPerRequest} (${ratio(x.page.cpuMicrosPerRequest, bare.page.cpuMicrosPerRequest)}×) | ${x.coldStartMs} | ${ratio(x.coldStartMs, fastify.coldStartMs)}× | ${x.coldStartCpuMs} | ${ratio(x.coldStartCpuMs, fastify.coldStartCpuMs)}× | ${x.rssAfterLoadMb} | ${ratio(x.rssAfterLoadMb, fastify.rssAfterLoadMb)}× | ${x.idleRssMb} | ${ratio(x.idleRssMb, fastify.idleRssMb)}× | ${x.snapshot304.requestsPerSec} | ${f.pairs[name]?.snapshotVsBare ?? ratio(x.snapshot304.requestsPerSec, bare.snapshot304.requestsPerSec)}× |`,
  );
  const targets: string[] = [];
  for (const db of ['SQLite', 'PostgreSQL']) {
    const info = s[`Folio ${db}, LOG_LEVEL=info`];
    const warn = s[`Folio ${db}, LOG_LEVEL=warn`];
    if (!info || !warn) continue;
    const pair = f.pairs[`Folio ${db}, LOG_LEVEL=info`];
    const pageRatio = pair?.pageVsBare ?? 0;
    const logCost = Math.round((1 - (pair?.pageVsWarn ?? 0)) * 100);
    const start = ratio(info.coldStartMs, fastify.coldStartMs);
    const rss = ratio(info.idleRssMb, fastify.idleRssMb);
    const snap = pair?.snapshotVsBare ?? 0;
    const p99 = info.page.latencyP99Ms;
    // The p99 target is absolute: where the bare server's own p99 misses it, the machine cannot show
    // it met, whatever Folio does (bench/results/speed-notes.md, round 16), and the cell says so.
    const bareMisses =
      bare.page.latencyP99Ms >= 5 ? ` (bare node:http's own: ${bare.page.latencyP99Ms} ms)` : '';
    targets.push(
      `| ${db} | ${pageRatio}× (≥ 0.6×) ${met(pageRatio >= 0.6)} | ${p99} ms (< 5) ${met(p99 < 5)}${bareMisses} | ${logCost}% (≤ 10%) ${met(logCost <= 10)} | ${start}× (≤ 1.5×) ${met(start <= 1.5)} | ${rss}× (≤ 1.3×) ${met(rss <= 1.3)} | ${snap}× (≥ 0.9×${db === 'SQLite' ? ', target for PostgreSQL' : ''}) ${met(snap >= 0.9)} |`,
    );
  }
  return [
    '# Speed bench (issue 13)',
    '',
    `${f.at}. ${f.machine.cpus} CPUs (${f.machine.model}), Node ${f.machine.node}. ${f.rounds} rounds. In each round every system is started (one at a time: its cold start), warmed up and left running; then they take turns, ${f.durationSeconds} turns of 1 s each per scenario (servers on CPU 1, wrk on CPU 0; baselines and Folio alternating, the order reversed every turn and every round). Figures are medians over rounds; every "vs bare" of a Folio row, and the access log cost, is the median over all turns of the ratio between two systems measured in the same turn, seconds apart (this VM's speed drifts by up to 2× between minutes, more than the access log costs). Visitor page: GET /v1/content/%2F with the publishable key, ${f.pageBytes} bytes (20 entries; 200 pages × 20 entries in the project), wrk (one thread) with ${f.connections} connections. Cold start: spawn to the first 200 of that page (wall time, and the CPU time the process used for it, which other load hardly moves). CPU µs/req: the server's user + system time per request answered, in brackets against bare node:http. RSS after load: 1 s after a ${2 * (f.warmupSeconds ?? 1)} s warm-up (page reads, then 304s). Idle RSS: ${f.idleSeconds} s after the same warm-up without a request (one process per system and round, up to three rounds, side by side once idle): V8 returns the young generation it grew under load, and freed pages, only after some idle time; issue 13's idle RSS target is read on it. Snapshot 304: GET /v1/snapshot with If-None-Match (the baselines answer their 304 with the same headers). Folio runs from dist/ at its defaults (worker in process) with its log written to a file, starting from the compile cache its build made (src/start/run-bundle.ts; a base build from before it has none); each SQLite process on its own copy of the database.`,
    '',
    `Load generator: wrk, not autocannon, which is a Node program and on its one core asks more slowly than a bare server answers. In this run bare node:http's page read was ${f.clientCeiling.autocannonRequestsPerSec} req/s driven by autocannon and ${f.clientCeiling.wrkRequestsPerSec} req/s driven by wrk (bench/lib/wrk.ts).`,
    '',
    `Load average (1, 5, 15 min) at the start ${f.loadAverage.start.join(', ')}, at the end ${f.loadAverage.end.join(', ')}: other helpers and CI share this two-core machine.`,
    '',
    '| system | page req/s | vs bare | p99 ms | CPU µs/req | cold start ms | vs Fastify | its CPU ms | vs Fastify | RSS after load MB | vs Fastify | idle RSS MB | vs Fastify | snapshot 304 req/s | vs bare |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'Targets (Folio at the default LOG_LEVEL=info; access log cost = 1 − the paired info/warn page throughput ratio):',
    '',
    '| database | page vs bare | page p99 | access log cost | cold start vs Fastify | idle RSS vs Fastify | snapshot 304 vs bare |',
    '|---|---|---|---|---|---|---|',
    ...targets,
    '',
  ].join('\n');
}
