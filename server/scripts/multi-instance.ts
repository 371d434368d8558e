/**
 * `npm run test:multi-instance` (in CI): the topology of compose.yaml, without Docker, on this machine.
 * PostgreSQL (a database of its own), a real S3-protocol server (s3rver), two Folio API processes
 * (`CMS_WORKER_ENABLED=false`, each with its own data directory, as two hosts have), one stand-alone
 * worker (`dist/worker.js`), and nginx in front, round-robining between the two with the directives
 * of deploy/nginx.conf. Every check goes through the proxy unless it is about one instance.
 *
 * Checks: the README walk-through; an upload served identically by both instances (bytes, ETag, URL);
 * a delete that 404s on both; a publish seen on both within 1 s; a preview token ended on one refused
 * by the other, its stream there ended within 1 s; webhooks delivered once; killing one
 * API instance mid-load loses no acknowledged write, and clients see no error beyond the requests in
 * flight at the kill. Prints its figures, writes them to bench/results/multi-instance.json, and exits
 * non-zero on the first failed check. Needs `npm run build` first and nginx (installed here when
 * missing, as root, from Debian's packages).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import sharp from 'sharp';
import { freePort } from '../bench/lib/processes.js';

const serverRoot = new URL('..', import.meta.url).pathname;
const repoRoot = join(serverRoot, '..');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'correct horse battery staple';

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
const figures: Record<string, unknown> = {};

function log(message: string): void {
  process.stdout.write(`${message}\n`);
}

async function step(name: string, fn: () => Promise<void>): Promise<void> {
  const t = performance.now();
  await fn();
  log(`ok - ${name} (${Math.round(performance.now() - t)} ms)`);
}

function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  log('nginx is missing: installing it from Debian');
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return '/usr/sbin/nginx';
}

function spawnLogged(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  dir: string,
) {
  const fd = openSync(join(dir, `${name}.log`), 'a');
  const child = spawn(command, args, {
    cwd: serverRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  children.push(child);
  return child;
}

async function waitFor(url: string, what: string, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not answer ${url} within 60 s`);
}

async function api(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

let logDir = '';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'folio-multi-'));
  logDir = dir;
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  // PostgreSQL: a database of this run's own.
  const dbName = `folio_multi_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  cleanups.push(async () => {
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;

  // The bucket: a real S3-protocol server.
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'folio-media' }],
  });
  const { port: s3Port } = await s3.run();
  cleanups.push(() => s3.close());

  const [portA, portB, proxyPort, workerPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const metricsToken = randomBytes(16).toString('hex');
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const shared = {
    DATABASE_URL: dbUrl.toString(),
    CMS_STORAGE: 's3',
    CMS_S3_BUCKET: 'folio-media',
    CMS_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    CMS_S3_REGION: 'us-east-1',
    CMS_S3_ACCESS_KEY_ID: 'S3RVER',
    CMS_S3_SECRET_ACCESS_KEY: 'S3RVER',
    CMS_S3_FORCE_PATH_STYLE: 'true',
    CMS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CMS_PUBLIC_URL: publicUrl,
    CMS_TRUST_PROXY: 'true',
    CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
    CMS_WORKER_POLL_MS: '100',
    CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '1000',
    CMS_METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };

  // Migrations once, before any instance serves (as compose.yaml's `migrate` service).
  execFileSync(process.execPath, [join(serverRoot, 'dist/cli/migrate.js')], {
    env: { ...process.env, ...shared },
    stdio: 'inherit',
  });

  const instance = (name: string, port: number) =>
    spawnLogged(
      name,
      process.execPath,
      [join(serverRoot, 'dist/server.js')],
      {
        ...shared,
        PORT: String(port),
        CMS_WORKER_ENABLED: 'false',
        CMS_DATA_DIR: mkdtempSync(join(dir, `${name}-data-`)),
      },
      dir,
    );
  const a = instance('api-a', portA);
  const b = instance('api-b', portB);
  const worker = spawnLogged(
    'worker',
    process.execPath,
    [join(serverRoot, 'dist/worker.js')],
    {
      ...shared,
      CMS_DATA_DIR: mkdtempSync(join(dir, 'worker-data-')),
      CMS_WORKER_PORT: String(workerPort),
    },
    dir,
  );
  const A = `http://127.0.0.1:${portA}`;
  const B = `http://127.0.0.1:${portB}`;
  await Promise.all([waitFor(`${A}/health`, 'API A', a), waitFor(`${B}/health`, 'API B', b)]);

  // nginx with deploy/nginx.conf's directives, pointed at our ports.
  const nginx = nginxBinary();
  const site = readFileSync(join(repoRoot, 'deploy/nginx.conf'), 'utf8')
    .replace('server api-1:3000', `server 127.0.0.1:${portA}`)
    .replace('server api-2:3000', `server 127.0.0.1:${portB}`)
    .replace('listen 80;', `listen 127.0.0.1:${proxyPort};`);
  assert.ok(
    site.includes(`127.0.0.1:${portA}`) && site.includes(`listen 127.0.0.1:${proxyPort}`),
    'nginx.conf rendered',
  );
  const nginxDir = join(dir, 'nginx');
  mkdirSync(join(nginxDir, 'logs'), { recursive: true });
  writeFileSync(
    join(nginxDir, 'nginx.conf'),
    `worker_processes 1;
pid ${nginxDir}/nginx.pid;
error_log ${nginxDir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${nginxDir}/body;
  proxy_temp_path ${nginxDir}/proxy;
  fastcgi_temp_path ${nginxDir}/fastcgi;
  uwsgi_temp_path ${nginxDir}/uwsgi;
  scgi_temp_path ${nginxDir}/scgi;
${site}
}
`,
  );
  const proxy = spawnLogged(
    'nginx',
    nginx,
    ['-p', nginxDir, '-c', join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'],
    {},
    dir,
  );
  const P = publicUrl;
  await waitFor(`${P}/health`, 'nginx', proxy);

  await step('each instance and the worker are ready; metrics need the token', async () => {
    await waitFor(`http://127.0.0.1:${workerPort}/health/ready`, 'the worker', worker);
    for (const base of [A, B, P]) {
      const ready = await api(base, '/health/ready');
      assert.equal(ready.status, 200, `${base}/health/ready: ${JSON.stringify(ready.body)}`);
      assert.equal(ready.body.data.status, 'ready');
    }
    for (const base of [P, `http://127.0.0.1:${workerPort}`]) {
      assert.equal((await api(base, '/metrics')).status, 401, `${base}/metrics without the token`);
      const metrics = await api(base, '/metrics', { headers: { authorization: `Bearer ${metricsToken}` } });
      assert.equal(metrics.status, 200);
      assert.match(String(metrics.body), /folio_outbox_pending/);
    }
  });

  // 1. The README walk-through, through the proxy.
  let project: any;
  let token = '';
  let entryId = '';
  await step('README walk-through through the proxy', async () => {
    const email = `ops-${Date.now()}@example.com`;
    const created = await api(P, '/v1/projects', {
      method: 'POST',
      body: { name: 'Multi', admin: { email, password: PASSWORD } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    project = created.body.data.project;
    token = (await api(P, '/v1/auth/login', { method: 'POST', body: { email, password: PASSWORD } })).body
      .data.token;
    const synced = await api(P, '/v1/definitions/sync', {
      method: 'POST',
      headers: { 'x-cms-key': project.apiKey },
      body: {
        pageId: '/',
        components: [{ componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] }],
      },
    });
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    const entries = await api(P, '/v1/content/%2F', {
      headers: { authorization: `Bearer ${token}`, 'x-cms-key': project.apiKey },
    });
    entryId = entries.body.data[0].id;
    const published = await api(P, `/v1/content/${entryId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'x-cms-key': project.apiKey },
      body: { fields: { title: 'Hello' }, status: 'published' },
    });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const visitor = await api(P, '/v1/content/%2F', { headers: { 'x-cms-key': project.apiKey } });
    assert.equal(visitor.body.data[0].fields.title, 'Hello');
    const snapshot = await api(P, '/v1/snapshot', { headers: { 'x-cms-key': project.apiKey } });
    assert.equal(snapshot.status, 200);
    assert.match(snapshot.body.data.version, /^sha256:/);
  });
  const editor = () => ({ authorization: `Bearer ${token}`, 'x-cms-key': project.apiKey });

  // 2. Media: one upload, the same bytes, ETag and URL from both instances; a delete 404s on both.
  await step('an upload is served identically by both instances, and a delete 404s on both', async () => {
    const image = await sharp(randomBytes(64 * 48 * 3), { raw: { width: 64, height: 48, channels: 3 } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([image], { type: 'image/png' }), 'photo.png');
    const res = await fetch(`${P}/v1/media/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id },
      body: form,
    });
    const uploaded = (await res.json()) as any;
    assert.equal(res.status, 201, JSON.stringify(uploaded));
    const media = uploaded.data;
    assert.ok(media.url.startsWith(publicUrl), `media URL on the public address: ${media.url}`);
    const path = media.url.slice(publicUrl.length);
    const listA = await api(A, '/v1/media', {
      headers: { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id },
    });
    const listB = await api(B, '/v1/media', {
      headers: { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id },
    });
    assert.deepEqual(listA.body.data, listB.body.data, 'both instances list the same record and URL');
    const variant = `${path}?w=32`;
    for (const p of [path, variant]) {
      // The variant is made by A, then read by B. Asked at once, both would make it and put the same
      // bytes under one key, which S3, R2 and MinIO take atomically; s3rver rewrites the file and its
      // metadata in place, so a HEAD in between can read half of them (about one pair in a hundred failed).
      const fromA = await fetch(`${A}${p}`);
      const fromB = await fetch(`${B}${p}`);
      assert.equal(fromA.status, 200, `${p} through A`);
      assert.equal(fromB.status, 200, `${p} through B`);
      assert.equal(fromA.headers.get('etag'), fromB.headers.get('etag'));
      assert.deepEqual(Buffer.from(await fromA.arrayBuffer()), Buffer.from(await fromB.arrayBuffer()));
    }
    const deleted = await api(P, `/v1/media/${media.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id },
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    for (const base of [A, B, P]) {
      for (const p of [path, variant]) {
        const after = await fetch(`${base}${p}`);
        await after.arrayBuffer();
        assert.equal(after.status, 404, `${base}${p} after the delete`);
      }
    }
  });

  // 3. A publish through one instance reaches visitors of the other within 1 s (LISTEN/NOTIFY).
  await step('a publish is seen on both instances within 1 s', async () => {
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Warm both caches with the current copy, so the other instance must be told to drop it.
      await api(A, '/v1/content/%2F', { headers: { 'x-cms-key': project.apiKey } });
      await api(B, '/v1/content/%2F', { headers: { 'x-cms-key': project.apiKey } });
      const [writer, reader] = i % 2 === 0 ? [A, B] : [B, A];
      const title = `Seen ${i}`;
      const res = await api(writer, `/v1/content/${entryId}`, {
        method: 'PATCH',
        headers: editor(),
        body: { fields: { title }, status: 'published' },
      });
      assert.equal(res.status, 200);
      const t = performance.now();
      for (;;) {
        const read = await api(reader, '/v1/content/%2F', { headers: { 'x-cms-key': project.apiKey } });
        if (read.body.data[0].fields.title === title) break;
        assert.ok(performance.now() - t < 1000, `publish ${i} not seen on the other instance within 1 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
      delays.push(performance.now() - t);
    }
    delays.sort((x, y) => x - y);
    figures.publishSeenOnOtherInstanceMs = {
      median: +delays[10]!.toFixed(1),
      max: +delays.at(-1)!.toFixed(1),
      publishes: delays.length,
    };
  });

  // 3b. A preview token ended through one instance is refused by the other at once, and a preview
  // stream open on the other ends within 1 s (the change bus, topic preview).
  await step('a preview token ended on A is refused on B, and its stream on B ends, within 1 s', async () => {
    const made = await api(A, '/v1/preview-tokens', { method: 'POST', headers: editor(), body: {} });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const preview = { 'x-cms-key': project.apiKey, 'x-cms-preview': made.body.data.token as string };
    assert.equal((await api(B, '/v1/content/%2F', { headers: preview })).status, 200);
    const stream = await fetch(`${B}/v1/live?pageId=%2F`, { headers: preview });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: entry')) text += decoder.decode((await reader.read()).value);
    const ended = (async () => {
      while (!(await reader.read()).done) {
        // heartbeats until the end
      }
      return performance.now();
    })();
    const t = performance.now();
    const res = await api(A, '/v1/preview-tokens', { method: 'DELETE', headers: editor() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.deleted, 1);
    const read = await api(B, '/v1/content/%2F', { headers: preview });
    assert.equal(read.status, 401, `B still reads with the ended token: ${read.status}`);
    const streamEnded = await Promise.race([
      ended,
      new Promise<null>((r) => setTimeout(() => r(null), 1000)),
    ]);
    assert.ok(streamEnded !== null, "B's preview stream still open 1 s after the token ended on A");
    figures.previewStreamEndedOnOtherInstanceMs = +(streamEnded - t).toFixed(1);
  });

  // 4. Webhooks: each event delivered once by the one worker, whichever instance took the write.
  await step('webhooks are delivered once', async () => {
    // Deliveries by webhook-id, of this step's publishes only: an event of the previous step still
    // in the outbox when the webhook was created is delivered to it too, and is not a duplicate.
    const received = new Map<string, number>();
    const receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const title = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.entries?.[0]?.fields?.title;
        if (typeof title === 'string' && title.startsWith('Hook ')) {
          const id = String(req.headers['webhook-id']);
          received.set(id, (received.get(id) ?? 0) + 1);
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => receiver.close(() => r())));
    const port = (receiver.address() as { port: number }).port;
    const hook = await api(P, '/v1/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-cms-project-id': project.id },
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['content.published'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const PUBLISHES = 20;
    for (let i = 0; i < PUBLISHES; i++) {
      const res = await api(P, `/v1/content/${entryId}`, {
        method: 'PATCH',
        headers: editor(),
        body: { fields: { title: `Hook ${i}` }, status: 'published' },
      });
      assert.equal(res.status, 200);
    }
    const deadline = Date.now() + 15_000;
    while (received.size < PUBLISHES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // A little longer: a duplicate would arrive now.
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(received.size, PUBLISHES, `deliveries received: ${received.size} of ${PUBLISHES}`);
    const duplicates = [...received.values()].filter((n) => n > 1).length;
    assert.equal(duplicates, 0, 'no event delivered twice');
    figures.webhooks = { events: PUBLISHES, delivered: received.size, duplicates };
  });

  // 5. Kill one API instance mid-load: no acknowledged write lost; errors only for requests in flight.
  await step('killing one API instance mid-load loses no acknowledged write', async () => {
    const WRITERS = 8;
    const READERS = 4;
    const acknowledged: string[] = [];
    let writeErrors = 0;
    let readErrors = 0;
    let reads = 0;
    let writes = 0;
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const id = `o${n++}`;
        try {
          const res = await fetch(`${P}/v1/objects/save`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'x-cms-project-id': project.id,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ status: 'published', objects: [{ type: 'load', id, fields: { n: 1 } }] }),
          });
          await res.arrayBuffer();
          writes++;
          if (res.status === 200) acknowledged.push(id);
          else writeErrors++;
        } catch {
          writeErrors++;
        }
      }
    };
    const reader = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${P}/v1/content/%2F`, { headers: { 'x-cms-key': project.apiKey } });
          await res.arrayBuffer();
          reads++;
          if (res.status !== 200) readErrors++;
        } catch {
          readErrors++;
        }
      }
    };
    const load = [...Array.from({ length: WRITERS }, writer), ...Array.from({ length: READERS }, reader)];
    await new Promise((r) => setTimeout(r, 2000));
    a.kill('SIGKILL');
    const killedAt = { writes, reads };
    await new Promise((r) => setTimeout(r, 3000));
    stop = true;
    await Promise.all(load);
    const saved = await api(B, '/v1/objects?types=load', { headers: { 'x-cms-key': project.apiKey } });
    assert.equal(saved.status, 200);
    const present = new Set((saved.body.data as { id: string }[]).map((o) => o.id));
    const lost = acknowledged.filter((id) => !present.has(id));
    assert.deepEqual(lost, [], 'every acknowledged write is in the database');
    // A write in flight on the killed instance may fail (nginx never re-sends a POST); nothing else may.
    assert.ok(writeErrors <= WRITERS, `write errors ${writeErrors} > writers in flight ${WRITERS}`);
    assert.equal(readErrors, 0, 'reads are retried on the other instance by the proxy');
    figures.killOneInstance = {
      writers: WRITERS,
      readers: READERS,
      requestsBeforeKill: killedAt.writes + killedAt.reads,
      requests: writes + reads,
      acknowledgedWrites: acknowledged.length,
      lostWrites: lost.length,
      writeErrors,
      readErrors,
    };
  });

  const resultsDir = join(serverRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'multi-instance.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2)}\n`,
  );
  log(JSON.stringify(figures));
  void worker;
}

async function shutdown(): Promise<void> {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve();
          }, 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    ),
  );
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
}

try {
  await main();
  await shutdown();
  log('multi-instance: all checks passed');
} catch (err) {
  log(`not ok - ${(err as Error).stack ?? err}`);
  // What each process said, before the directory goes.
  for (const name of ['api-a', 'api-b', 'worker', 'nginx']) {
    try {
      const lines = readFileSync(join(logDir, `${name}.log`), 'utf8')
        .trim()
        .split('\n')
        .slice(-15);
      log(`--- ${name}.log (last lines)\n${lines.join('\n')}`);
    } catch {
      // never started
    }
  }
  await shutdown();
  process.exit(1);
}
