/**
 * `npm run bench:live`: live fan-out (contract §10). BENCH_STREAMS streams (default 1,000) open on
 * one instance, all watching one page; each of BENCH_PUBLISHES publishes (default 20) must reach every
 * stream. Target: p99 from sending the publish to a stream receiving it under 200 ms. Also reports
 * the server's RSS per idle stream (VmRSS after the streams opened and settled, minus before, over N).
 *
 * Folio runs as in production (dist/server.js, its own process and CPU; SQLite in a temp directory).
 * Streams are plain HTTP/1.1 connections (one socket each), read by this process, which only looks
 * for the publish's marker in the bytes: its own parsing cost is part of the figure, as a browser's is.
 * Writes bench/results/live.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinLoadGenerator, root, startFolio } from '../lib/processes.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20);
const PASSWORD = 'bench password 123';

async function api(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0);
}

interface Stream {
  /** Text received since the last reset. */
  text: string;
  onData?: () => void;
  res: IncomingMessage;
}

function openStream(base: string, key: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/live?pageId=%2F`, { headers: { 'x-cms-key': key }, agent: false });
    req.once('error', reject);
    req.once('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream refused: ${res.statusCode}`));
      res.setEncoding('utf8');
      const stream: Stream = { text: '', res };
      res.on('data', (chunk: string) => {
        stream.text += chunk;
        stream.onData?.();
      });
      resolve(stream);
    });
    req.end();
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round = (n: number) => Math.round(n * 10) / 10;

async function main() {
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-live-'));
  try {
    const folio = await startFolio(
      {
        DATABASE_URL: `sqlite:${join(dir, 'cms.sqlite')}`,
        CMS_DATA_DIR: dir,
        CMS_WORKER_ENABLED: 'false',
        CMS_LIVE_MAX_STREAMS_PER_PROJECT: String(STREAMS),
        LOG_LEVEL: 'warn',
      },
      join(dir, 'folio.log'),
    );
    const base = folio.url;
    const email = 'bench@live.example';
    const { project } = await api(
      base,
      'POST',
      '/v1/projects',
      {},
      { name: 'Live bench', admin: { email, password: PASSWORD } },
    );
    const { token } = await api(base, 'POST', '/v1/auth/login', {}, { email, password: PASSWORD });
    const key = { 'x-cms-key': project.apiKey as string };
    const editing = { ...key, authorization: `Bearer ${token}` };
    await api(base, 'POST', '/v1/definitions/sync', key, {
      pageId: '/',
      components: [{ componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] }],
    });
    const [entry] = await api(base, 'GET', '/v1/content/%2F', editing);
    await api(base, 'PATCH', `/v1/content/${entry.id}`, editing, {
      fields: { title: 'start' },
      status: 'published',
    });

    const pid = folio.child.pid!;
    await new Promise((r) => setTimeout(r, 1000));
    const rssBefore = rssKb(pid);
    const streams: Stream[] = [];
    const openStarted = performance.now();
    // Opened in batches, as a crowd of visitors arrives, not one connection storm.
    for (let i = 0; i < STREAMS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, STREAMS - i) }, () => openStream(base, project.apiKey)),
      );
      streams.push(...batch);
    }
    const openMs = performance.now() - openStarted;
    // Every stream has its initial state, then the server settles.
    await Promise.all(
      streams.map(
        (s) =>
          new Promise<void>((resolve) => {
            const check = () => s.text.includes('"start"') && resolve();
            s.onData = check;
            check();
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 2000));
    const rssAfter = rssKb(pid);

    const latencies: number[] = [];
    let missed = 0;
    for (let p = 0; p < PUBLISHES; p++) {
      const marker = `"publish-${p}"`;
      for (const s of streams) s.text = '';
      const started = performance.now();
      const arrived = streams.map(
        (s) =>
          new Promise<number | null>((resolve) => {
            const timer = setTimeout(() => resolve(null), 5000);
            const check = () => {
              if (s.text.includes(marker)) {
                clearTimeout(timer);
                resolve(performance.now() - started);
              }
            };
            s.onData = check;
          }),
      );
      await api(base, 'PATCH', `/v1/content/${entry.id}`, editing, {
        fields: { title: `publish-${p}` },
        status: 'published',
      });
      for (const t of await Promise.all(arrived)) {
        if (t === null) missed += 1;
        else latencies.push(t);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const s of streams) s.res.destroy();
    await folio.stop();

    latencies.sort((a, b) => a - b);
    const result = {
      streams: STREAMS,
      publishes: PUBLISHES,
      deliveries: latencies.length,
      missed,
      latencyMs: {
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1) ?? 0),
      },
      target: { p99Ms: 200, met: missed === 0 && percentile(latencies, 99) < 200 },
      rssKb: {
        before: rssBefore,
        withStreams: rssAfter,
        perIdleStream: round((rssAfter - rssBefore) / STREAMS),
      },
      openAllMs: Math.round(openMs),
      node: process.version,
      at: new Date().toISOString(),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/live.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
