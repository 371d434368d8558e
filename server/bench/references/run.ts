/**
 * `npm run bench:references`: references (contract §13; issue 34, Speed), each against its baseline
 * in the same run.
 *
 * 1. A visitor read of a page whose entries hold lists, blocks and 5 references (depth 1), against a
 *    bare node:http server sending the same bytes (target >= 0.75x bare): resolved pages are served
 *    from memory like plain ones. SQLite, autocannon, BENCH_ROUNDS interleaved rounds (median).
 * 2. Publishing an entry that 1,000 pages reference, on two Folio instances on one PostgreSQL
 *    (BENCH_PAGES, default 1,000): every page reads the new text within 1 s on both instances
 *    (the time until the last one does is reported), and the publish itself at most 2x a plain
 *    publish's latency (an entry nobody references, on the same servers, alternating; medians of
 *    BENCH_PUBLISHES each).
 *
 *    The sweep's figure mixes coherence with its own cost (2,000 concurrent reads on two cores that
 *    also run both servers and PostgreSQL), so it is split: when the publish's notification reaches
 *    a listener of the bench's own, when a sample of pages polled on each instance all read the new
 *    text, and the same sweep over pages no instance has cached, with no publish, as its baseline.
 *
 * BENCH_DURATION: seconds per read scenario (default 5). TEST_DATABASE_URL: the PostgreSQL server.
 * BENCH_ONLY=publish: scenario 2 alone.
 * Writes bench/results/references.json and references.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { canonicalJson } from '../../src/shared/canonical.js';
import { newId } from '../../src/shared/ids.js';
import { json, newBenchProject } from '../lib/editors.js';
import { pinLoadGenerator, root, startFolio, startScript } from '../lib/processes.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 50;
/** Pages per instance polled for the coherence figure alone; cold sweeps for the sweep's own cost. */
const SAMPLE = 10;
const COLD_SWEEPS = 3;
/** `publish`: only scenario 2. */
const ONLY = process.env.BENCH_ONLY;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const TESTIMONIAL = [
  { key: 'quote', type: 'text' },
  { key: 'author', type: 'text' },
];
const SECTION = [
  { key: 'title', type: 'text' },
  {
    key: 'features',
    type: 'list',
    fields: [
      { key: 'title', type: 'text' },
      { key: 'icon', type: 'text' },
    ],
  },
  {
    key: 'body',
    type: 'blocks',
    blocks: [
      { componentId: 'Text', fields: [{ key: 'text', type: 'text' }] },
      { componentId: 'Quote', fields: [{ key: 'ref', type: 'reference' }] },
    ],
  },
  { key: 'picks', type: 'reference', multiple: true },
];

/** A new project with its admin signed in, and the headers an editor's write sends. */
async function newProject(base: string, name: string) {
  const { id, key, token } = await newBenchProject(base, name);
  return {
    id,
    key,
    editing: { authorization: `Bearer ${token}`, 'x-cms-key': key, 'content-type': 'application/json' },
  };
}

/** Rows written straight to the tables: `pages` of one entry each (SECTION, or a one-reference Card). */
async function seed(
  db: Db,
  projectId: string,
  pages: { pageId: string; instanceKey: string; componentId: string; declared: unknown[]; fields: object }[],
) {
  const now = new Date().toISOString();
  const ids: string[] = [];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < pages.length; i += 500) {
      const chunk = pages.slice(i, i + 500);
      await trx
        .insertInto('componentDefinitions')
        .values(
          chunk.map((p) => ({
            projectId,
            pageId: p.pageId,
            instanceKey: p.instanceKey,
            componentId: p.componentId,
            fields: JSON.stringify(p.declared),
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      const rows = chunk.map((p) => {
        const fields = canonicalJson(p.fields);
        const id = newId('ent');
        ids.push(id);
        return {
          id,
          projectId,
          pageId: p.pageId,
          instanceKey: p.instanceKey,
          componentId: p.componentId,
          fields,
          publishedFields: fields,
          publishedAt: now,
          createdAt: now,
          updatedAt: now,
          version: 2,
          publishedVersion: 2,
        };
      });
      await trx.insertInto('contentEntries').values(rows).execute();
    }
  });
  return ids;
}

async function measure(name: string, url: string, headers: Record<string, string>) {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const r: any = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  const result = {
    name,
    requestsPerSec: Math.round(r.requests.average),
    latencyP99Ms: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

/** 1. The resolved page read against bare node:http. */
async function pageRead(dir: string) {
  const file = join(dir, 'cms.sqlite');
  const env = {
    DATABASE_URL: `sqlite:${file}`,
    CMS_DATA_DIR: dir,
    CMS_WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  const folio = await startFolio(env, join(dir, 'read.log'));
  const project = await newProject(folio.url, 'References read bench');
  await folio.stop(); // seeded straight into the tables, then served by a fresh process
  const handle = await openDatabase({ kind: 'sqlite', file });
  const quotes = await seed(
    handle.db,
    project.id,
    Array.from({ length: 5 }, (_, i) => ({
      pageId: '@site',
      instanceKey: `quote-${i}`,
      componentId: 'Testimonial',
      declared: TESTIMONIAL,
      fields: { quote: `Folio let us ship in a week (${i}).`, author: `Customer ${i}` },
    })),
  );
  await seed(
    handle.db,
    project.id,
    Array.from({ length: 10 }, (_, i) => ({
      pageId: '/',
      instanceKey: `section-${String(i).padStart(2, '0')}`,
      componentId: 'Section',
      declared: SECTION,
      fields: {
        title: `Section ${i}`,
        features: Array.from({ length: 6 }, (_, f) => ({
          _key: `f${i}x${f}`,
          title: `Feature ${f}`,
          icon: 'bolt',
        })),
        body: [
          { _key: `t${i}`, _type: 'Text', text: 'Lorem ipsum dolor sit amet. '.repeat(4) },
          { _key: `q${i}`, _type: 'Quote', ref: quotes[i % 5] },
        ],
        picks: i === 0 ? quotes : [],
      },
    })),
  );
  await handle.close();
  const server = await startFolio(env, join(dir, 'read.log'));
  const url = `${server.url}/v1/content/%2F`;
  const key = { 'x-cms-key': project.key };
  const page = await fetch(url, { headers: key });
  const body = Buffer.from(await page.arrayBuffer());
  const etag = page.headers.get('etag') ?? '';
  if (!body.toString().includes('"componentId":"Testimonial"'))
    throw new Error('the page read is not resolved');
  writeFileSync(join(dir, 'page.json'), body);
  const bare = await startScript('bench/content/bare-server.ts', [join(dir, 'page.json'), etag]);
  const runs = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, at] of [
      ['bare', `${bare.url}/v1/content/%2F`],
      ['folio', url],
    ] as const) {
      const r = await measure(`${name}: page with 5 references, depth 1`, at, key);
      runs.set(name, [...(runs.get(name) ?? []), r.requestsPerSec]);
    }
  }
  await server.stop();
  await bare.stop();
  const bareRps = median(runs.get('bare') ?? []);
  const folioRps = median(runs.get('folio') ?? []);
  return { pageBytes: body.length, bareRps, folioRps, ratio: Math.round((folioRps / bareRps) * 100) / 100 };
}

/** 2. A publish of an entry that PAGES pages reference, seen on two instances. */
async function referencedPublish(dir: string) {
  const dbName = `folio_bench_references_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  const env = {
    DATABASE_URL: url.toString(),
    CMS_DATA_DIR: dir,
    CMS_WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  const servers: Awaited<ReturnType<typeof startFolio>>[] = [];
  try {
    const handle = await openDatabase({ kind: 'postgres', url: url.toString() });
    await migrateToLatest(handle.db);
    await handle.close();
    const a = await startFolio(env, join(dir, 'a.log'));
    servers.push(a);
    const project = await newProject(a.url, 'References publish bench');
    const seeding = await openDatabase({ kind: 'postgres', url: url.toString() });
    const [target, plain, still] = await seed(seeding.db, project.id, [
      {
        pageId: '@site',
        instanceKey: 'quote',
        componentId: 'Testimonial',
        declared: TESTIMONIAL,
        fields: { quote: 'v0' },
      },
      {
        pageId: '@plain', // a page of its own: its publish drops none of the 1,000 pages
        instanceKey: 'plain',
        componentId: 'Testimonial',
        declared: TESTIMONIAL,
        fields: { quote: 'v0' },
      },
      {
        pageId: '@cold',
        instanceKey: 'still',
        componentId: 'Testimonial',
        declared: TESTIMONIAL,
        fields: { quote: 'v0' },
      },
    ]);
    await seed(
      seeding.db,
      project.id,
      Array.from({ length: PAGES }, (_, i) => ({
        pageId: `/p/${i}`,
        instanceKey: 'card',
        componentId: 'Card',
        declared: [{ key: 'ref', type: 'reference' }],
        fields: { ref: target },
      })),
    );
    // The baseline sweeps: COLD_SWEEPS sets of PAGES pages that no instance has read yet, each
    // referencing an entry nobody publishes (on its own page, so no publish here touches them).
    for (let r = 0; r < COLD_SWEEPS; r++)
      await seed(
        seeding.db,
        project.id,
        Array.from({ length: PAGES }, (_, i) => ({
          pageId: `/c${r}/${i}`,
          instanceKey: 'card',
          componentId: 'Card',
          declared: [{ key: 'ref', type: 'reference' }],
          fields: { ref: still },
        })),
      );
    await seeding.close();
    const b = await startFolio(env, join(dir, 'b.log'));
    servers.push(b);
    const key = { 'x-cms-key': project.key };
    const quoteOf = async (base: string, i: number, prefix = '/p') => {
      const res = await fetch(`${base}/v1/content/${encodeURIComponent(`${prefix}/${i}`)}`, {
        headers: key,
      });
      const body = (await res.json()) as {
        data: { fields: { ref: { fields?: { quote?: string } } | null } }[];
      };
      return body.data[0]?.fields.ref?.fields?.quote;
    };
    /** Reads every page on both instances until each shows `text`; the ms that took. */
    const allRead = async (text: string, since: number, prefix = '/p') => {
      const pending = new Set(Array.from({ length: PAGES * 2 }, (_, i) => i));
      while (pending.size > 0) {
        await Promise.all(
          [...pending].map(async (n) => {
            const base = (n % 2 === 0 ? a : b).url;
            if ((await quoteOf(base, n >> 1, prefix)) === text) pending.delete(n);
          }),
        );
        if (pending.size > 0 && performance.now() - since > 30_000)
          throw new Error(`${pending.size} page reads still stale after 30 s`);
      }
      return performance.now() - since;
    };
    await allRead('v0', performance.now()); // both instances have cached every page
    /**
     * Coherence alone: SAMPLE pages spread over the 1,000, polled on one instance one after another
     * (a single request in flight) until each shows `text`; the ms from `since` until the last did.
     */
    const sampleRead = async (base: string, text: string, since: number) => {
      for (let s = 0; s < SAMPLE; s++) {
        const i = Math.floor((s * PAGES) / SAMPLE);
        while ((await quoteOf(base, i)) !== text)
          if (performance.now() - since > 10_000) throw new Error(`page ${i} still stale after 10 s`);
      }
      return performance.now() - since;
    };
    /** When the publish's page notification reached a listener of its own (the change bus's delivery). */
    const listener = new pg.Client({ connectionString: url.toString() });
    await listener.connect();
    await listener.query('LISTEN folio_changes');
    let delivered: ((at: number) => void) | null = null;
    listener.on('notification', (msg) => {
      if (msg.payload?.includes('"page"') && msg.payload.includes('@site')) delivered?.(performance.now());
    });
    const deliveredAt = () => new Promise<number>((resolve) => (delivered = resolve));
    const publish = async (id: string, text: string) => {
      const t = performance.now();
      await json(`${a.url}/v1/content/${id}`, {
        method: 'PATCH',
        headers: project.editing,
        body: JSON.stringify({ fields: { quote: text }, status: 'published' }),
      });
      return [t, performance.now() - t] as const;
    };
    const referenced: number[] = [];
    const plainTimes: number[] = [];
    const coherence: number[] = [];
    const delivery: number[] = [];
    const sampleA: number[] = [];
    const sampleB: number[] = [];
    for (let i = 1; i <= PUBLISHES; i++) {
      // Each publish after the servers have settled from the reads before it (the rebuild included).
      await new Promise((r) => setTimeout(r, 300));
      plainTimes.push((await publish(plain as string, `p${i}`))[1]);
      await new Promise((r) => setTimeout(r, 300));
      const arrival = deliveredAt();
      const [start, took] = await publish(target as string, `v${i}`);
      referenced.push(took);
      delivery.push((await arrival) - start);
      if (i <= 3) {
        coherence.push(await allRead(`v${i}`, start)); // the full sweep is long: three times
      } else {
        // The two instances one after the other: b's figure includes a's polls (an upper bound).
        sampleA.push(await sampleRead(a.url, `v${i}`, start));
        sampleB.push(await sampleRead(b.url, `v${i}`, start));
      }
    }
    // The same sweep over pages neither instance has cached, with no publish: the sweep's own cost.
    const cold: number[] = [];
    for (let r = 0; r < COLD_SWEEPS; r++) cold.push(await allRead('v0', performance.now(), `/c${r}`));
    await listener.end();
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      pages: PAGES,
      plainPublishMs: round(median(plainTimes)),
      referencedPublishMs: round(median(referenced)),
      publishRatio: Math.round((median(referenced) / median(plainTimes)) * 100) / 100,
      allPagesCoherentMs: coherence.map(round),
      coldSweepMs: cold.map(round),
      busDeliveryMs: round(median(delivery)),
      sampleCoherentMs: { a: round(median(sampleA)), b: round(median(sampleB)), sample: SAMPLE },
    };
  } finally {
    for (const s of servers) await s.stop();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

async function main() {
  pinLoadGenerator();
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-references-'));
  try {
    mkdirSync(join(dir, 'read'));
    mkdirSync(join(dir, 'publish'));
    const read = ONLY === 'publish' ? null : await pageRead(join(dir, 'read'));
    process.stdout.write(`${JSON.stringify({ read })}\n`);
    const published = await referencedPublish(join(dir, 'publish'));
    process.stdout.write(`${JSON.stringify({ published })}\n`);
    const results = { at: new Date().toISOString(), duration: DURATION, rounds: ROUNDS, read, published };
    const out = join(root, 'bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'references.json'), `${JSON.stringify(results, null, 2)}\n`);
    const md = [
      '# bench:references',
      '',
      `Run ${results.at}; ${ROUNDS} rounds of ${DURATION} s per read scenario, ${PUBLISHES} publishes each.`,
      '',
      '| scenario | figure | target |',
      '|---|---|---|',
      read
        ? `| visitor page read, 5 references at depth 1 (${read.pageBytes} bytes) | ${read.folioRps} req/s vs bare ${read.bareRps}: ${read.ratio}x | >= 0.75x |`
        : '| visitor page read | not run (BENCH_ONLY=publish) | >= 0.75x |',
      `| publish of an entry ${published.pages} pages reference (PostgreSQL) | ${published.referencedPublishMs} ms vs plain ${published.plainPublishMs} ms: ${published.publishRatio}x | <= 2x |`,
      `| every page reads the new text on both instances (the sweep: ${published.pages * 2} concurrent reads, again until none is stale) | ${published.allPagesCoherentMs.join(', ')} ms after the publish was sent | < 1000 ms |`,
      `| of which: the page notification reaches a listener | ${published.busDeliveryMs} ms (median) | |`,
      `| of which: ${published.sampleCoherentMs.sample} pages polled on instance a, then on b, all new | a ${published.sampleCoherentMs.a} ms, b ${published.sampleCoherentMs.b} ms (medians) | |`,
      `| of which: the same sweep over pages no instance has cached, no publish (the sweep's own cost) | ${published.coldSweepMs.join(', ')} ms | |`,
      '',
      `Load average at the end (1, 5, 15 min): ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ')}`,
      '',
    ].join('\n');
    writeFileSync(join(out, 'references.md'), md);
    process.stdout.write(md);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
