import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../helpers/app.js';
import { HERO, newSite, pageUrl, patchEntry, sync } from '../helpers/content.js';
import type { DbKind } from '../helpers/db.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { bearer, call } from '../helpers/factories.js';
import { makeImage, upload } from '../helpers/media.js';
import { type Fixtures, type FuzzRequest, generate, operationsOf } from './generate.js';
import { rng } from './random.js';
import { SHAPE_NAMES, SHAPES, type ShapeFixtures, shapeFixtures } from './shapes.js';

/**
 * The standing fuzz suite (issue 10): thousands of malformed requests over every route of the
 * app's own OpenAPI document, with real credentials so they reach validation and the services.
 * Asserts no answer is a 5xx and every /v1 error is the contract's envelope with a known code.
 * Seeded and reproducible: a failure prints the seed and index; rerun one request with
 *   FOLIO_FUZZ_SEED=<seed> FOLIO_FUZZ_ONLY=<index> npm test -- fuzz
 * FOLIO_FUZZ_COUNT changes the number of requests (10,000 by default). One file per database
 * (fuzz-sqlite.test.ts, fuzz-postgres.test.ts), so each has the runner's whole per-file time limit.
 * Requests go WAVE at a time: the same requests, concurrently, as a server sees them.
 *
 * Issue 42 added the shapes of shapes.ts (reference fans, costly patterns with long defaults,
 * non-string items, prototype-named keys), one index in SHAPE_ONE_IN, each run alone after its
 * wave; query integers written as §23 refuses them, which must not succeed; and a bound on time:
 * every answer within MAX_MS (FOLIO_FUZZ_MAX_MS), measured in this process, so a wave's answers
 * include the time its slowest request held the event loop. A request that blocks cannot be aborted
 * in process, so the run stops after MAX_SLOW answers over the bound: code without the bounds fails
 * in seconds with the slow shapes named, instead of running for many minutes.
 */
const SEED = Number(process.env.FOLIO_FUZZ_SEED ?? 20_261_123);
const COUNT = Number(process.env.FOLIO_FUZZ_COUNT ?? 10_000);
const ONLY = process.env.FOLIO_FUZZ_ONLY === undefined ? null : Number(process.env.FOLIO_FUZZ_ONLY);
const WAVE = 8;
const SHAPE_ONE_IN = 50;
const MAX_MS = Number(process.env.FOLIO_FUZZ_MAX_MS ?? 3_000);
const MAX_SLOW = 5;

/** A project with one of everything the generated requests name (also bench/memory/fuzz.ts's). */
export async function fuzzFixtures(app: FastifyInstance): Promise<Fixtures> {
  const site = await newSite(app, 'Fuzz site');
  const admin = bearer(site.admin.token);
  await sync(app, site, '/', [HERO]);
  const page = await call(app, { method: 'GET', url: pageUrl('/'), headers: site.editing });
  const entryId = page.body.data[0].id as string;
  await patchEntry(app, site, entryId, { fields: { title: 'v1' }, status: 'published' });
  const history = await call(app, {
    method: 'GET',
    url: `/v1/content/${entryId}/history`,
    headers: { ...admin, 'x-cms-project-id': site.project.id },
  });
  const key = async (name: string) =>
    call(app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: admin,
      payload: { name, scope: 'all', access: 'write' },
    });
  const secret = await key('fuzz');
  // A second key whose id the fuzzer may use (and revoke); the suite's own key stays unnamed to it.
  const victim = await key('victim');
  const hook = await call(app, {
    method: 'POST',
    url: '/v1/webhooks',
    headers: admin,
    payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
  });
  const test = await call(app, {
    method: 'POST',
    url: `/v1/webhooks/${hook.body.data.id}/test`,
    headers: admin,
  });
  const png = await makeImage('png', 8, 8);
  const media = await upload(app, site.admin.token, site.project.id, { data: png });
  const ids = {
    projects: [site.project.id],
    projectId: [site.project.id],
    users: [site.editor.id ?? site.admin.id, site.admin.id],
    pageId: ['/', '/about'],
    entryId: [entryId],
    historyId: history.body.data.map((h: { id: string }) => h.id),
    webhooks: [hook.body.data.id],
    deliveryId: [test.body.data?.id].filter(Boolean),
    'api-keys': [victim.body.data.id],
    media: [media.body.data.id],
    file: [`${media.body.data.id}.png`, `${media.body.data.id}.webp`],
  };
  for (const [name, list] of Object.entries(ids))
    assert.ok(list.length > 0 && list.every(Boolean), `fuzz fixture ${name} missing`);
  return {
    session: site.admin.token,
    publishableKey: site.project.apiKey,
    secretKey: secret.body.data.key,
    projectId: site.project.id,
    ids,
    png,
  };
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function describeRequest(index: number, req: FuzzRequest): string {
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, clip(v, 100)]));
  const payload =
    req.payload === undefined
      ? ''
      : `\n  payload: ${JSON.stringify(clip(Buffer.isBuffer(req.payload) ? req.payload.toString('latin1') : req.payload))}`;
  return `#${index} (FOLIO_FUZZ_SEED=${SEED} FOLIO_FUZZ_ONLY=${index})\n  ${req.method} ${clip(req.url)}\n  headers: ${JSON.stringify(headers)}${payload}`;
}

export function fuzzSuite(kind: DbKind): void {
  describeEachDb(
    'fuzz: malformed requests over every route',
    (ctx) => {
      let fx: Fixtures;
      let sx: ShapeFixtures;
      before(async () => {
        fx = await fuzzFixtures(ctx.app);
        sx = await shapeFixtures(ctx.app, fx.ids.entryId?.[0] as string);
      });

      it(`${COUNT} seeded malformed requests: no 5xx, every /v1 error enveloped, each answer within ${MAX_MS} ms`, async (t) => {
        const ops = operationsOf(ctx.app.swagger() as never);
        assert.ok(ops.length > 30, 'the OpenAPI document lists the routes');
        const statuses = new Map<number, number>();
        const failures: [number, string][] = [];
        let unsendable = 0;
        let slow = 0;
        let slowest = 0;
        const shapes = new Map<string, number>();
        const indices = ONLY === null ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY];
        const overTime = (ms: number) => {
          slowest = Math.max(slowest, ms);
          if (ms <= MAX_MS) return null;
          slow++;
          return `took ${ms} ms (bound ${MAX_MS} ms)`;
        };
        const one = async (index: number) => {
          const r = rng(SEED, index);
          const req = generate(r.pick(ops), fx, r);
          let res: Awaited<ReturnType<FastifyInstance['inject']>>;
          const started = performance.now();
          try {
            res = await ctx.app.inject({
              method: req.method as never,
              url: req.url,
              headers: req.headers,
              payload: req.payload,
            });
          } catch {
            unsendable++; // e.g. a header value Node refuses to send at all: no server would see it
            return;
          }
          const ms = Math.round(performance.now() - started);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          let problem: string | null = null;
          if (res.statusCode >= 500) problem = `status ${res.statusCode}: ${clip(res.body, 500)}`;
          else if (res.statusCode >= 400 && req.url.startsWith('/v1')) {
            const why = envelopeProblem(res.body, res.headers['content-type'] as string | undefined);
            if (why) problem = `status ${res.statusCode} not enveloped (${why}): ${clip(res.body, 200)}`;
          } else if (req.oddInteger && res.statusCode < 400)
            problem = `${req.oddInteger} accepted (${res.statusCode}): query integers are plain digits (§23)`;
          problem ??= overTime(ms);
          if (problem) failures.push([index, `${describeRequest(index, req)}\n  -> ${problem}`]);
        };
        /** A shape of issue 42 (shapes.ts), alone: its requests' times are their own. */
        const shape = async (index: number) => {
          const r = rng(SEED, index);
          const name = r.pick(SHAPE_NAMES);
          shapes.set(name, (shapes.get(name) ?? 0) + 1);
          for (const o of await SHAPES[name]!(ctx.app, sx, r)) {
            statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
            const problem = o.problem ?? overTime(o.ms);
            if (problem)
              failures.push([
                index,
                `#${index} (FOLIO_FUZZ_SEED=${SEED} FOLIO_FUZZ_ONLY=${index}) shape "${name}": ${clip(o.label, 300)}\n  -> ${o.status} in ${o.ms} ms, ${o.bytes} bytes: ${clip(problem, 500)}`,
              ]);
          }
        };
        const isShape = (index: number) => index % SHAPE_ONE_IN === SHAPE_ONE_IN - 1;
        let sent = 0;
        for (let start = 0; start < indices.length && slow < MAX_SLOW; start += WAVE) {
          const wave = indices.slice(start, start + WAVE);
          await Promise.all(wave.filter((i) => !isShape(i)).map(one));
          for (const i of wave.filter(isShape)) if (slow < MAX_SLOW) await shape(i);
          sent = Math.min(start + WAVE, indices.length);
        }
        const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
        t.diagnostic(
          `seed ${SEED}: ${sent} of ${indices.length} requests (${unsendable} unsendable); statuses ${summary.join(' ')}; slowest ${slowest} ms; shapes ${[...shapes].map(([n, c]) => `${n}×${c}`).join(', ')}`,
        );
        assert.equal(
          failures.length,
          0,
          `${failures.length} bad answers${slow >= MAX_SLOW ? ` (stopped after ${slow} over ${MAX_MS} ms)` : ''}:\n${failures
            .sort(([a], [b]) => a - b)
            .slice(0, 15)
            .map(([, text]) => text)
            .join('\n')}`,
        );
      });
    },
    {
      env: { CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true', CMS_WEBHOOK_TIMEOUT_MS: '500', LOG_LEVEL: 'silent' },
      kinds: [kind],
    },
  );
}
