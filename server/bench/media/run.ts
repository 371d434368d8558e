/**
 * `npm run bench:media`: upload throughput of ~1 MB images and served-file requests per second,
 * each against a bare node:http baseline measured in the same run. Both servers run as child
 * processes (autocannon runs here), on SQLite in a temporary data directory unless
 * BENCH_DATABASE_URL names a PostgreSQL database. BENCH_DURATION (seconds per scenario, default 5).
 * The serving scenarios, whose target is a share of the bare server (issue 13: keep 97-98%), are
 * measured in one-second turns, Folio and the bare server alternating (the order reversed every
 * turn), and the share is the median of each turn's own ratio: measured one after the other, five
 * seconds each, the same build's share of one scenario ranged from 60% to 106% in three runs on this
 * VM, whose speed drifts from second to second. Servers on CPU 1, autocannon on CPU 0.
 * Writes bench/results/media.json and media.md.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { pinLoadGenerator, type Started, startFolio, startScript } from '../lib/processes.js';

const root = new URL('../..', import.meta.url).pathname;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);

interface Scenario {
  name: string;
  server: 'folio' | 'bare';
  requestsPerSec: number;
  mbPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Folio's rows of paired scenarios: the median over turns of Folio's req/s over the bare server's. */
  shareOfBare?: number;
  /** Paired scenarios: each turn's req/s, in turn order. */
  turns?: number[];
}

async function measure(
  name: string,
  server: Scenario['server'],
  options: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: Buffer;
    connections: number;
  },
  /** Bytes per request that count as payload for MB/s (the upload size, or the served size). */
  payloadBytes: number,
): Promise<Scenario> {
  const result: any = await cannon(options, DURATION);
  const requestsPerSec = result.requests.average;
  const scenario: Scenario = {
    name,
    server,
    requestsPerSec: Math.round(requestsPerSec * 10) / 10,
    mbPerSec: Math.round(((requestsPerSec * payloadBytes) / 1e6) * 10) / 10,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  print(scenario);
  return scenario;
}

type Target = Parameters<typeof measure>[2];

function cannon(options: Target, seconds: number): Promise<any> {
  return autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: seconds,
  });
}

function print(scenario: Scenario): void {
  const { name, server } = scenario;
  process.stdout.write(
    `${name.padEnd(44)} ${server.padEnd(6)} ${String(scenario.requestsPerSec).padStart(9)} req/s ${String(scenario.mbPerSec).padStart(8)} MB/s  p50 ${scenario.latencyP50Ms} ms  p99 ${scenario.latencyP99Ms} ms${scenario.non2xx || scenario.errors ? `  (non-2xx ${scenario.non2xx}, errors ${scenario.errors})` : ''}${scenario.shareOfBare ? `  ${Math.round(scenario.shareOfBare * 100)}% of bare (median of turns)` : ''}\n`,
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * One serving scenario on both servers, in DURATION one-second turns each, alternating (the order
 * reversed every turn). Rows: totals over the turns, latencies the median of the turns'; Folio's row
 * carries the median of the turns' own ratios.
 */
async function measurePair(
  name: string,
  folio: Target,
  bare: Target,
  payloadBytes: number,
): Promise<Scenario[]> {
  const turns: Record<'folio' | 'bare', any[]> = { folio: [], bare: [] };
  for (let turn = 0; turn < DURATION; turn++) {
    const order = turn % 2 === 0 ? (['folio', 'bare'] as const) : (['bare', 'folio'] as const);
    for (const server of order) turns[server].push(await cannon(server === 'folio' ? folio : bare, 1));
  }
  const rate = (r: any) => r.requests.total / (r.duration || 1);
  const row = (server: 'folio' | 'bare'): Scenario => {
    const runs = turns[server];
    const requests = runs.reduce((n, r) => n + r.requests.total, 0);
    const seconds = runs.reduce((n, r) => n + (r.duration || 1), 0);
    const requestsPerSec = requests / seconds;
    return {
      name,
      server,
      requestsPerSec: Math.round(requestsPerSec * 10) / 10,
      mbPerSec: Math.round(((requestsPerSec * payloadBytes) / 1e6) * 10) / 10,
      latencyP50Ms: median(runs.map((r) => r.latency.p50)),
      latencyP99Ms: median(runs.map((r) => r.latency.p99)),
      requests,
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      errors: runs.reduce((n, r) => n + r.errors + r.timeouts, 0),
      turns: runs.map((r) => Math.round(rate(r))),
    };
  };
  const rows = [row('folio'), row('bare')];
  (rows[0] as Scenario).shareOfBare =
    Math.round(median(turns.folio.map((f, i) => rate(f) / rate(turns.bare[i]))) * 1000) / 1000;
  for (const r of rows) print(r);
  return rows;
}

function multipartBody(bytes: Buffer, filename: string, type: string) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function json(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body: any = await res.json();
  if (!res.ok) throw new Error(`${init.method} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

async function main(): Promise<void> {
  pinLoadGenerator();
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-media-'));
  const bareTmp = join(dataDir, 'bare-tmp');
  mkdirSync(bareTmp);
  const running: Started[] = [];
  try {
    const folio = await startFolio(
      {
        CMS_DATA_DIR: dataDir,
        CMS_WORKER_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      },
      join(dataDir, 'folio.log'),
    );
    running.push(folio);

    // A project, its admin session, and the images: a ~1 MB PNG of noise (barely compressible) and a
    // smaller 800×600 JPEG, the size of a typical web photo.
    const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery staple';
    const created = await json(`${folio.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', admin: { email, password } }),
    });
    const { token } = await json(`${folio.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const auth = { authorization: `Bearer ${token}`, 'x-cms-project-id': created.project.id };
    const noise = (w: number, h: number) =>
      sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } });
    const big = await noise(590, 590).png().toBuffer();
    // Smooth (upscaled noise), so it compresses like a photo rather than like static.
    const small = await sharp(await noise(80, 60).png().toBuffer())
      .resize(800, 600)
      .jpeg({ quality: 80 })
      .toBuffer();

    const uploadOne = async (bytes: Buffer, name: string, type: string) => {
      const body = multipartBody(bytes, name, type);
      return json(`${folio.url}/v1/media/upload`, {
        method: 'POST',
        headers: { ...auth, 'content-type': body.contentType },
        body: new Uint8Array(body.payload),
      });
    };
    const bigMedia = await uploadOne(big, 'big.png', 'image/png');
    const smallMedia = await uploadOne(small, 'small.jpg', 'image/jpeg');
    const path = (media: { url: string }) => new URL(media.url).pathname;
    const variantQuery = '?w=320&format=webp';
    const variant = await fetch(`${folio.url}${path(smallMedia)}${variantQuery}`);
    const variantBytes = Buffer.from(await variant.arrayBuffer());
    const head = await fetch(`${folio.url}${path(smallMedia)}`, { method: 'HEAD' });
    const smallEtag = head.headers.get('etag') ?? '';
    const variantDir = join(dataDir, 'media', 'variants', created.project.id, smallMedia.id);

    const originals = join(dataDir, 'media', 'originals', created.project.id);
    const bare = await startScript('bench/media/bare-server.ts', [originals, bareTmp]);
    running.push(bare);
    // The bare server serves the variant from its own directory, under its own name.
    const bareVariant = await startScript('bench/media/bare-server.ts', [variantDir, bareTmp]);
    running.push(bareVariant);

    process.stdout.write(
      `media bench: ${DURATION}s per scenario, ${cpus().length} CPUs, upload ${big.length} B PNG, small ${small.length} B JPEG, variant ${variantBytes.length} B WebP\n\n`,
    );
    const results: Scenario[] = [];
    const upload = multipartBody(big, 'big.png', 'image/png');
    results.push(
      await measure(
        'upload ~1 MB PNG (multipart, sniff, hash, store, row)',
        'folio',
        {
          url: `${folio.url}/v1/media/upload`,
          method: 'POST',
          headers: { ...auth, 'content-type': upload.contentType },
          body: upload.payload,
          connections: 4,
        },
        big.length,
      ),
      await measure(
        'upload ~1 MB raw body (stream to file + sha256)',
        'bare',
        {
          url: `${bare.url}/upload`,
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream' },
          body: big,
          connections: 4,
        },
        big.length,
      ),
    );
    const bigFile = `${bigMedia.id}.png`;
    const smallFile = `${smallMedia.id}.jpg`;
    results.push(
      ...(await measurePair(
        'serve ~1 MB PNG',
        { url: `${folio.url}${path(bigMedia)}`, connections: 8 },
        { url: `${bare.url}/${bigFile}`, connections: 8 },
        big.length,
      )),
      ...(await measurePair(
        'serve small JPEG',
        { url: `${folio.url}${path(smallMedia)}`, connections: 8 },
        { url: `${bare.url}/${smallFile}`, connections: 8 },
        small.length,
      )),
      ...(await measurePair(
        'serve cached variant (w=320 webp)',
        { url: `${folio.url}${path(smallMedia)}${variantQuery}`, connections: 8 },
        { url: `${bareVariant.url}/w320-hauto-cover.webp`, connections: 8 },
        variantBytes.length,
      )),
      await measure(
        'revalidate small JPEG (If-None-Match → 304)',
        'folio',
        {
          url: `${folio.url}${path(smallMedia)}`,
          headers: { 'if-none-match': smallEtag },
          connections: 8,
        },
        0,
      ),
    );
    writeResults(results, {
      uploadBytes: big.length,
      smallBytes: small.length,
      variantBytes: variantBytes.length,
    });
  } finally {
    for (const server of running) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function writeResults(results: Scenario[], sizes: Record<string, number>): void {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    durationSeconds: DURATION,
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite',
    sizes,
  };
  writeFileSync(join(dir, 'media.json'), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.server} | ${r.requestsPerSec} | ${r.mbPerSec} | ${r.latencyP50Ms} | ${r.latencyP99Ms} | ${r.non2xx} | ${r.errors} |`,
  );
  const ratio = (name: string) => {
    const share = results.find((r) => r.name === name && r.server === 'folio')?.shareOfBare;
    return share === undefined ? 'n/a' : `${Math.round(share * 100)}%`;
  };
  const md = `# Media bench

${meta.date}, Node ${meta.node}, ${meta.cpus} CPUs (shared), ${DURATION} s per scenario, ${meta.database}.
Servers run as child processes on CPU 1; autocannon runs in the parent on CPU 0. Sizes: ${JSON.stringify(sizes)}.
The serving scenarios run in ${DURATION} one-second turns per server, Folio and the bare server alternating; their
req/s are over all turns, their p50 and p99 the median of the turns'.

| scenario | server | req/s | MB/s | p50 ms | p99 ms | non-2xx | errors |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Folio as a share of the bare server's requests/s (the median of each turn's own ratio): serve ~1 MB ${ratio('serve ~1 MB PNG')},
serve small JPEG ${ratio('serve small JPEG')}, cached variant ${ratio('serve cached variant (w=320 webp)')}.
The upload baseline only streams and hashes a raw body; Folio also parses multipart, sniffs the type,
reads the dimensions with sharp, renames into place and commits the row and its event.
The 304 scenario has no baseline (the bare server does not revalidate); its non-2xx are the 304s.
`;
  writeFileSync(join(dir, 'media.md'), md);
  process.stdout.write(`\nwrote bench/results/media.json and media.md\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
