import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../helpers/app.js';
import { newSite, type Site } from '../helpers/content.js';
import type { DbKind } from '../helpers/db.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { ENT, LANDING, landingEntry, VALID, validFor } from '../helpers/fields.js';
import { oddValue, PROTO_KEYS, serialize } from './corpus.js';
import { type Rng, rng } from './random.js';

/**
 * Nested values and declarations (issue 34): seeded requests that break a valid marketing entry or a
 * valid declaration somewhere deep inside (a node replaced by an odd value, removed, duplicated, an
 * unknown key added, a `_key` repeated) and send it as a draft, a publish or a sync. Asserts what the
 * route fuzz does (no 5xx, every error enveloped) and that a saved list or blocks value holds
 * distinct, well-formed `_key`s. Reproduce one: FOLIO_FUZZ_SEED=<seed> FOLIO_FUZZ_ONLY=<index>.
 *
 * Issue 42: non-string items put in the multiple select and reference (`tags`, `related`), which must
 * never be accepted (§23, shapes are total), prototype-named keys anywhere, and every answer within
 * MAX_MS (the run stops after MAX_SLOW slower ones, so code without the bounds fails quickly).
 */
const SEED = Number(process.env.FOLIO_FUZZ_SEED ?? 20_261_127);
const COUNT = Number(process.env.FOLIO_FUZZ_COUNT ?? 1_500);
const ONLY = process.env.FOLIO_FUZZ_ONLY === undefined ? null : Number(process.env.FOLIO_FUZZ_ONLY);
const MAX_MS = Number(process.env.FOLIO_FUZZ_MAX_MS ?? 3_000);
const MAX_SLOW = 5;
/** What a multiple select or reference must not hold (§23): anything but a string. */
const NON_STRINGS: readonly unknown[] = [123, null, true, [], {}, { id: ENT, fields: { title: 'FAKE' } }];

type Node = Record<string, unknown> | unknown[];

/** Every object and array inside `value`, with itself first. */
function containers(value: unknown, out: Node[] = []): Node[] {
  if (value && typeof value === 'object') {
    out.push(value as Node);
    for (const child of Object.values(value)) containers(child, out);
  }
  return out;
}

/** One random change somewhere inside `value` (mutated in place). */
function mutate(value: unknown, r: Rng): void {
  const nodes = containers(value);
  const node = r.pick(nodes);
  const keys = Object.keys(node);
  const key = keys.length > 0 ? r.pick(keys) : '0';
  const at = node as Record<string, unknown>;
  switch (r.int(6)) {
    case 0:
      at[key] = oddValue(r);
      break;
    case 1:
      delete at[key];
      break;
    case 2:
      if (Array.isArray(node) && node.length > 0)
        node.push(structuredClone(node[0])); // a repeated _key
      else at.unknownKey = 'x';
      break;
    case 3:
      at[r.pick(['_key', '_type', ...PROTO_KEYS, 'pageId', 'href'])] = oddValue(r);
      break;
    case 4:
      at[key] = r.pick(['', 'x'.repeat(70), 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2', '#fff', '2026-02-30', '@site']);
      break;
    default:
      if (Array.isArray(node)) node.reverse();
      else at[key] = [at[key], at[key]];
  }
}

/** Puts a non-string item into `related` or `tags` (which hold strings only); what it did, or null. */
function nonStringItem(fields: Record<string, unknown>, r: Rng): string | null {
  if (!r.chance(0.1)) return null;
  const name = r.pick(['related', 'tags']);
  const items = Array.isArray(fields[name]) ? [...(fields[name] as unknown[])] : [];
  items.splice(r.int(items.length + 1), 0, r.pick(NON_STRINGS));
  fields[name] = items;
  return `patch with a non-string item (${name}: ${JSON.stringify(items)})`;
}

/** Every list item and block of a saved value has a well-formed `_key`, distinct in its array. */
function keysProblem(fields: Record<string, unknown>): string | null {
  for (const name of ['related', 'tags']) {
    const items = fields[name];
    if (Array.isArray(items) && !items.every((i) => typeof i === 'string'))
      return `${name} saved with a non-string item: ${JSON.stringify(items).slice(0, 200)}`;
  }
  for (const name of ['features', 'sections']) {
    const items = fields[name];
    if (!Array.isArray(items)) continue;
    const keys = items.map((i) => (i as { _key?: unknown })._key);
    if (!keys.every((k) => typeof k === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(k)))
      return `${name}: a bad _key in ${JSON.stringify(keys)}`;
    if (new Set(keys).size !== keys.length) return `${name}: repeated _keys ${JSON.stringify(keys)}`;
  }
  return null;
}

async function send(app: FastifyInstance, site: Site, entryId: string, r: Rng) {
  if (r.chance(0.3)) {
    const fields = structuredClone(LANDING.fields) as unknown[];
    for (let i = 0, n = 1 + r.int(3); i < n; i++) mutate(fields, r);
    const headers = r.chance(0.5) ? site.editing : site.key;
    const payload = serialize({
      pageId: '/',
      components: [{ ...LANDING, instanceKey: `fz${r.int(5)}`, fields }],
    });
    return {
      kind: 'sync',
      payload,
      res: await app.inject({
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      }),
    };
  }
  const fields = structuredClone(valid) as Record<string, unknown>;
  const nonString = nonStringItem(fields, r);
  for (let i = 0, n = nonString ? 0 : 1 + r.int(3); i < n; i++) mutate(fields, r);
  const body: Record<string, unknown> = { fields };
  if (r.chance(0.3)) body.status = 'published';
  const payload = serialize(body);
  return {
    kind: nonString ?? 'patch',
    payload,
    res: await app.inject({
      method: 'PATCH',
      url: `/v1/content/${entryId}`,
      headers: { ...site.editing, 'content-type': 'application/json' },
      payload,
    }),
  };
}

/** VALID with references to a real entry of the fuzzed site (set in its `before`). */
let valid: typeof VALID = VALID;

export function nestedFuzzSuite(kind: DbKind): void {
  describeEachDb(
    'fuzz: nested values and declarations',
    (ctx) => {
      let site: Site;
      let entryId: string;
      before(async () => {
        site = await newSite(ctx.app, 'Nested fuzz');
        entryId = await landingEntry(ctx.app, site);
        valid = await validFor(ctx.app, site);
      });

      it(`${COUNT} seeded nested mutations: no 5xx, errors enveloped, _keys well-formed, shapes total, each within ${MAX_MS} ms`, async (t) => {
        const statuses = new Map<number, number>();
        const failures: string[] = [];
        const indices = ONLY === null ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY];
        let slow = 0;
        let slowest = 0;
        let sent = 0;
        for (const index of indices) {
          if (slow >= MAX_SLOW) break;
          sent++;
          const started = performance.now();
          const { kind: what, payload, res } = await send(ctx.app, site, entryId, rng(SEED, index));
          const ms = Math.round(performance.now() - started);
          slowest = Math.max(slowest, ms);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const where = `#${index} (FOLIO_FUZZ_SEED=${SEED} FOLIO_FUZZ_ONLY=${index}) ${what} ${payload.slice(0, 300)}`;
          if (ms > MAX_MS) {
            slow++;
            failures.push(`${where}\n  -> ${res.statusCode} after ${ms} ms (bound ${MAX_MS} ms)`);
          }
          if (what.includes('non-string') && res.statusCode < 400)
            failures.push(`${where}\n  -> ${res.statusCode}: a non-string item was accepted (§23)`);
          else if (res.statusCode >= 500)
            failures.push(`${where}\n  -> ${res.statusCode} ${res.body.slice(0, 300)}`);
          else if (res.statusCode >= 400) {
            const why = envelopeProblem(res.body, res.headers['content-type'] as string | undefined);
            if (why) failures.push(`${where}\n  -> not enveloped (${why})`);
          } else if (what === 'patch') {
            const why = keysProblem(res.json().data.fields);
            if (why) failures.push(`${where}\n  -> ${why}`);
          }
        }
        const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
        t.diagnostic(
          `seed ${SEED}: ${sent} of ${indices.length} requests; statuses ${summary.join(' ')}; slowest ${slowest} ms`,
        );
        assert.equal(
          failures.length,
          0,
          `${failures.length} bad answers:\n${failures.slice(0, 10).join('\n')}`,
        );
      });
    },
    { env: { LOG_LEVEL: 'silent', CMS_SYNC_LIMIT_PER_MINUTE: '100000' }, kinds: [kind] },
  );
}
