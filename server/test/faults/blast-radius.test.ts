import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { editorEntries, HERO, newSite, pageUrl, type Site, sync } from '../helpers/content.js';
import { createTestDatabase, type DbKind, dbKinds, type TestDatabase } from '../helpers/db.js';
import { setMode, syncAs } from '../helpers/fields.js';
import { checkLeaks } from '../helpers/leaks.js';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';
import { put } from '../helpers/references.js';
import { remoteApp } from '../helpers/remote.js';

/**
 * Blast radius (issue 42, Deliver 2): one client sends an attack while another reads a small
 * published page with its publishable key and polls /health. For each attack, the reader's median
 * stays under READ_MEDIAN_MS and every /health answers within HEALTH_MS. The server is a process of
 * its own (src/server.ts), as in production: an attack that blocks its event loop shows here as it
 * would to a site's visitors. Each attack lasts ATTACK_MS; every request is aborted when it ends,
 * and a server that no longer answers /health is killed and started again on the same database, so
 * a failing attack fails in seconds and leaves the next one a fresh process.
 *
 * The setups are the issue's (items 1, 2, 3 and 7), at the issue's sizes where §23's bounds make
 * them cheap. Scaled: the rules' CPU budget (CMS_RULES_BUDGET_MS) is 20 ms here; at its default of
 * 200 ms, one editor sending back to back would hold the event loop most of the time by design.
 * The control (a body over the body limit, refused before parsing by every version) shows the
 * harness passes when an attack is refused cheaply.
 */
const ATTACK_MS = 4_000;
const READ_MEDIAN_MS = 50;
const HEALTH_MS = 1_000;
/** A read the reader gives up on: counted at this time, so a blocked server shows in the median. */
const READ_GIVE_UP_MS = 2_000;
const HEALTH_EVERY_MS = 100;
/** The reader's pace: a site's visitors arrive on their own schedule, not after the last answer. */
const READ_EVERY_MS = 20;

const ENV = {
  // A server without the §23 bounds builds gigabytes for item 1 before it is killed: capped, so it
  // runs out within this machine (the test fails either way).
  NODE_OPTIONS: '--max-old-space-size=768',
  CMS_PROJECT_CREATE_LIMIT_PER_HOUR: '100000',
  CMS_RULES_BUDGET_MS: '20',
  LOG_LEVEL: 'error',
};

/** Issue 42's pattern (item 2 and 3), and one a hundred times smaller if a program bound refuses it. */
const COSTLY_PATTERN = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){999}!';
const SMALLER_PATTERN = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){99}!';

interface Timed {
  ms: number;
  status: number;
}

/**
 * The other client, in a thread of its own: the attacker's megabytes of request bodies are built and
 * sent on this thread's event loop, which would otherwise delay the reader's own timers and sockets
 * and count against the server. For `ms`, it reads `page` with `headers` every READ_EVERY_MS (one
 * connection, each read given up after READ_GIVE_UP_MS) and polls `/health` every HEALTH_EVERY_MS (given up
 * after HEALTH_MS); plain JavaScript, so the thread needs no loader.
 */
const READER = `
const { parentPort, workerData: w } = require('node:worker_threads');
const { Agent, request } = require('node:http');
const get = (agent, url, headers, giveUp) => new Promise((resolve) => {
  const started = performance.now();
  const done = (status) => resolve({ ms: performance.now() - started, status });
  const req = request(url, { headers, agent, timeout: giveUp }, (res) => {
    res.resume();
    res.on('end', () => done(res.statusCode));
    res.on('error', () => done(0));
  });
  req.on('timeout', () => { req.destroy(); resolve({ ms: giveUp, status: 0 }); });
  req.on('error', () => done(0));
  req.end();
});
(async () => {
  const readerAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < w.warmUp; i++) await get(readerAgent, w.page, w.headers, w.readGiveUp);
  parentPort.postMessage({ started: true });
  const ends = Date.now() + w.ms;
  const reads = [];
  const health = [];
  await Promise.all([
    (async () => {
      // Paced: a read is due every w.readEvery ms and timed from when it was due, so a read that
      // waited behind a blocked server counts its wait (no coordinated omission), and the median
      // is over time, not over the many quick reads a free server answers in a burst.
      for (let due = performance.now(); Date.now() < ends; due += w.readEvery) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const read = await get(readerAgent, w.page, w.headers, w.readGiveUp);
        reads.push({ status: read.status, ms: performance.now() - due });
      }
    })(),
    (async () => {
      while (Date.now() < ends) {
        const started = Date.now();
        health.push(await get(healthAgent, w.health, {}, w.healthGiveUp));
        await new Promise((r) => setTimeout(r, Math.max(0, w.every - (Date.now() - started))));
      }
    })(),
  ]);
  readerAgent.destroy();
  healthAgent.destroy();
  parentPort.postMessage({ reads, health });
})();
`;

/** Runs the reader for `ms` once it has warmed up; `onStart` when it begins measuring. */
function reader(base: string, headers: Record<string, string>, ms: number, onStart: () => void) {
  return new Promise<{ reads: Timed[]; health: Timed[] }>((resolve, reject) => {
    const worker = new Worker(READER, {
      eval: true,
      workerData: {
        page: `${base}${pageUrl('/')}`,
        health: `${base}/health`,
        headers,
        ms,
        warmUp: 5,
        readGiveUp: READ_GIVE_UP_MS,
        readEvery: READ_EVERY_MS,
        healthGiveUp: HEALTH_MS,
        every: HEALTH_EVERY_MS,
      },
    });
    worker.on('message', (message) => {
      if (message.started) onStart();
      else resolve(message);
    });
    worker.on('error', reject);
  });
}

/** Whether the server answers /health within HEALTH_MS. */
async function answers(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(HEALTH_MS) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : Number.NaN;
};

interface Setup {
  reader: Site;
  refs: Site;
  locked: Site;
  rules: Site;
  patternEntry: string;
  patternSource: string;
}

interface Attack {
  name: string;
  /** Requests the attacker keeps in flight (one client may open several connections). */
  parallel?: number;
  /** One request of the attack, aborted by `signal`; its answer's status (0: no answer). */
  send(base: string, setup: Setup, turn: number, signal: AbortSignal): Promise<number>;
}

async function attackRequest(url: string, init: RequestInit): Promise<number> {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0; // aborted, or a connection the server cut (a refusal before reading the body)
  }
}

const syncBody = (components: unknown[]) => Buffer.from(JSON.stringify({ pageId: '/attack', components }));

/** Bodies built once (megabytes each). */
const BODIES = {
  /** Over the 5 MB body limit: refused before parsing by every version (the control). */
  overLimit: syncBody([
    { componentId: 'X', instanceKey: 'x', fields: [], label: 'x'.repeat(6 * 1024 * 1024) },
  ]),
  /** Item 2: 40 components, each the costly pattern with a 60,000-character default (2.4 MB). */
  patternDefaults: syncBody(
    Array.from({ length: 40 }, (_, i) => ({
      componentId: 'Costly',
      instanceKey: `c${i}`,
      fields: [{ key: 't', type: 'text', pattern: { source: COSTLY_PATTERN }, default: 'a'.repeat(60_000) }],
    })),
  ),
  /** Item 2 under 1 MB: the lock must be consulted before the defaults are checked. */
  patternDefaultsSmall: syncBody(
    Array.from({ length: 12 }, (_, i) => ({
      componentId: 'Costly',
      instanceKey: `c${i}`,
      fields: [{ key: 't', type: 'text', pattern: { source: COSTLY_PATTERN }, default: 'a'.repeat(60_000) }],
    })),
  ),
  /** Item 7: a 4.5 MB sync that is valid in shape (500 components of 60 fields). */
  refusedSync: syncBody(
    Array.from({ length: 500 }, (_, i) => ({
      componentId: `C${i}`,
      instanceKey: `c${i}`,
      fields: Array.from({ length: 60 }, (_, j) => ({ key: `f${j}`, type: 'text', label: 'x'.repeat(110) })),
    })),
  ),
  /** Item 3: a 60,000-character text, and a list of 900 items of 1,000 characters. */
  longText: Buffer.from(JSON.stringify({ fields: { t: 'a'.repeat(60_000) } })),
  longList: Buffer.from(
    JSON.stringify({ fields: { items: Array.from({ length: 900 }, () => ({ t: 'a'.repeat(1_000) })) } }),
  ),
};

const post = (key: Record<string, string>, body: Buffer, signal: AbortSignal): RequestInit => ({
  method: 'POST',
  headers: { ...key, 'content-type': 'application/json' },
  body,
  signal,
});

const ATTACKS: Attack[] = [
  {
    name: 'control: 6 MB syncs over the body limit',
    send: (base, s, _turn, signal) =>
      attackRequest(`${base}/v1/definitions/sync`, post(s.locked.key, BODIES.overLimit, signal)),
  },
  {
    name: 'item 1: reference fans read by a visitor (1,000 per level, depth 2 and 3; 1,000 onto a 900 KB entry)',
    send: (base, s, turn, signal) =>
      attackRequest(`${base}${pageUrl(turn % 3 === 2 ? '/big-fan' : '/x')}?depth=${turn % 3 === 1 ? 3 : 2}`, {
        headers: s.refs.key,
        signal,
      }),
  },
  {
    name: 'item 2: publishable-key syncs of costly patterns with 60,000-character defaults, project locked',
    send: (base, s, turn, signal) =>
      attackRequest(
        `${base}/v1/definitions/sync`,
        post(s.locked.key, turn % 2 ? BODIES.patternDefaultsSmall : BODIES.patternDefaults, signal),
      ),
  },
  {
    name: 'item 3: an editor writes and reads long values under a costly pattern',
    send: (base, s, turn, signal) => {
      if (turn % 2 === 1)
        return attackRequest(`${base}${pageUrl('/pattern')}`, { headers: s.rules.editing, signal });
      return attackRequest(`${base}/v1/content/${s.patternEntry}`, {
        method: 'PATCH',
        headers: { ...s.rules.editing, 'content-type': 'application/json' },
        body: turn % 4 === 0 ? BODIES.longText : BODIES.longList,
        signal,
      });
    },
  },
  {
    name: 'item 7: 4.5 MB publishable-key syncs on a locked project, 4 at a time',
    parallel: 4,
    send: (base, s, _turn, signal) =>
      attackRequest(`${base}/v1/definitions/sync`, post(s.locked.key, BODIES.refusedSync, signal)),
  },
];

const FAN = {
  componentId: 'Fan',
  instanceKey: 'fan',
  fields: [{ key: 'items', type: 'list', fields: [{ key: 'ref', type: 'reference' }] }],
};
const BIG = {
  componentId: 'Big',
  instanceKey: 'big',
  fields: [{ key: 'parts', type: 'list', fields: [{ key: 't', type: 'text' }] }],
};
const pattern = (source: string) => ({
  componentId: 'Pattern',
  instanceKey: 'pattern',
  fields: [
    { key: 't', type: 'text', pattern: { source } },
    { key: 'items', type: 'list', fields: [{ key: 't', type: 'text', pattern: { source } }] },
  ],
});

async function entryOf(app: ReturnType<typeof remoteApp>, site: Site, pageId: string, component: object) {
  const res = await syncAs(app, site.editing, { pageId, components: [component] });
  if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (await editorEntries(app, site, pageId))[0]?.id as string;
}

/** The issue's setups, made through the API of the running server. */
async function makeSetup(base: string): Promise<Setup> {
  const app = remoteApp(base);
  const reader = await newSite(app, 'Reader');
  await sync(app, reader, '/', [HERO]);
  const [hero] = await editorEntries(app, reader, '/');
  await put(app, reader, hero?.id as string, { title: 'Hello', count: 1 });

  // Item 1: X, Y, Z, W, each a list of 1,000 references to the next; 1,000 items onto one 900 KB entry.
  const refs = await newSite(app, 'Fans');
  const levels: string[] = [];
  for (const pageId of ['/x', '/y', '/z', '/w']) levels.push(await entryOf(app, refs, pageId, FAN));
  for (let i = levels.length - 1; i >= 0; i--) {
    const next = levels[i + 1];
    await put(app, refs, levels[i] as string, {
      items: next ? Array.from({ length: 1_000 }, () => ({ ref: next })) : [],
    });
  }
  const big = await entryOf(app, refs, '/big', BIG);
  await put(app, refs, big, { parts: Array.from({ length: 9 }, () => ({ t: 'b'.repeat(100_000) })) });
  const bigFan = await entryOf(app, refs, '/big-fan', FAN);
  await put(app, refs, bigFan, { items: Array.from({ length: 1_000 }, () => ({ ref: big })) });

  const locked = await newSite(app, 'Locked');
  assert.equal((await setMode(app, locked, 'locked')).status, 200);

  // Item 3: a new definition keeps its rules; a bound on pattern programs (§23) may refuse the
  // issue's pattern, and then the editor's path is tried with the smaller one.
  const rules = await newSite(app, 'Rules');
  let patternSource = COSTLY_PATTERN;
  let patternEntry: string;
  try {
    patternEntry = await entryOf(app, rules, '/pattern', pattern(COSTLY_PATTERN));
  } catch {
    patternSource = SMALLER_PATTERN;
    patternEntry = await entryOf(app, rules, '/pattern', pattern(SMALLER_PATTERN));
  }
  return { reader, refs, locked, rules, patternEntry, patternSource };
}

function blastRadius(kind: DbKind): void {
  describe(`blast radius: one client's attack, another client's reads [${kind}]`, () => {
    checkLeaks(() => {
      const dir = mkdtempSync(join(tmpdir(), 'folio-blast-'));
      let database: TestDatabase | undefined;
      let databaseUrl = `sqlite:${join(dir, 'folio.sqlite')}`;
      let server: ServerProcess | undefined;
      let setup: Setup;
      const stop = async () => {
        if (server && server.child.exitCode === null && server.child.signalCode === null) {
          server.child.kill('SIGKILL');
          await server.exited;
        }
        server = undefined;
      };
      const start = async () => {
        server = await startServerProcess({
          ...ENV,
          DATABASE_URL: databaseUrl,
          CMS_DATA_DIR: join(dir, 'data'),
        });
      };
      /** A server that answers /health within HEALTH_MS; else a fresh process on the same database. */
      const healthy = async () => {
        if (server) {
          if (await answers(server.url)) return server.url;
          await stop();
        }
        await start();
        return (server as unknown as ServerProcess).url;
      };

      before(async () => {
        if (kind === 'postgres') {
          database = await createTestDatabase('postgres');
          await database.handle.close();
          databaseUrl = (database.config as { url: string }).url;
        }
        await start();
        setup = await makeSetup((server as unknown as ServerProcess).url);
      });
      after(async () => {
        await stop();
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      });

      for (const attack of ATTACKS) {
        it(`${attack.name}: reads keep a median under ${READ_MEDIAN_MS} ms, /health within ${HEALTH_MS} ms`, async (t) => {
          const base = await healthy();
          const statuses = new Map<number, number>();
          let ends = Number.POSITIVE_INFINITY;
          let signal: AbortSignal | undefined;
          let begin!: () => void;
          const begun = new Promise<void>((resolve) => {
            begin = resolve;
          });
          const measured = reader(base, setup.reader.key, ATTACK_MS, () => {
            ends = Date.now() + ATTACK_MS;
            signal = AbortSignal.timeout(ATTACK_MS);
            begin();
          });
          await begun;
          const client = async () => {
            for (let turn = 0; Date.now() < ends; turn++) {
              const status = await attack.send(base, setup, turn, signal as AbortSignal);
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
            }
          };
          await Promise.all(Array.from({ length: attack.parallel ?? 1 }, client));
          const { reads, health } = await measured;

          const readMs = reads.map((r) => r.ms);
          const worstHealth = Math.max(...health.map((h) => h.ms));
          const failedReads = reads.filter((r) => r.status !== 200).length;
          const failedHealth = health.filter((h) => h.status !== 200).length;
          const figures = `attack answers ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}; ${reads.length} reads, median ${median(readMs).toFixed(1)} ms, max ${Math.max(...readMs).toFixed(0)} ms, ${failedReads} failed; ${health.length} health checks, slowest ${worstHealth.toFixed(0)} ms, ${failedHealth} failed${attack.name.startsWith('item 3') ? `; pattern ${setup.patternSource === COSTLY_PATTERN ? '{999}' : '{99}'}` : ''}`;
          t.diagnostic(figures);
          assert.ok(reads.length > 0 && health.length > 0, figures);
          assert.ok(median(readMs) < READ_MEDIAN_MS, `the reader's median: ${figures}`);
          assert.equal(failedReads, 0, `reads failed: ${figures}`);
          assert.ok(worstHealth < HEALTH_MS && failedHealth === 0, `/health: ${figures}`);
        });
      }
    });
  });
}

for (const kind of dbKinds()) blastRadius(kind);
