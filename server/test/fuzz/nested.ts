import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../helpers/app.js';
import { newSite, type Site } from '../helpers/content.js';
import type { DbKind } from '../helpers/db.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { LANDING, landingEntry, VALID } from '../helpers/fields.js';
import { oddValue, serialize } from './corpus.js';
import { type Rng, rng } from './random.js';

/**
 * Nested values and declarations (issue 34): seeded requests that break a valid marketing entry or a
 * valid declaration somewhere deep inside (a node replaced by an odd value, removed, duplicated, an
 * unknown key added, a `_key` repeated) and send it as a draft, a publish or a sync. Asserts what the
 * route fuzz does (no 5xx, every error enveloped) and that a saved list or blocks value holds
 * distinct, well-formed `_key`s. Reproduce one: FOLIO_FUZZ_SEED=<seed> FOLIO_FUZZ_ONLY=<index>.
 */
const SEED = Number(process.env.FOLIO_FUZZ_SEED ?? 20_261_127);
const COUNT = Number(process.env.FOLIO_FUZZ_COUNT ?? 1_500);
const ONLY = process.env.FOLIO_FUZZ_ONLY === undefined ? null : Number(process.env.FOLIO_FUZZ_ONLY);

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
      at[r.pick(['_key', '_type', 'constructor', 'toString', 'pageId', 'href'])] = oddValue(r);
      break;
    case 4:
      at[key] = r.pick(['', 'x'.repeat(70), 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2', '#fff', '2026-02-30', '@site']);
      break;
    default:
      if (Array.isArray(node)) node.reverse();
      else at[key] = [at[key], at[key]];
  }
}

/** Every list item and block of a saved value has a well-formed `_key`, distinct in its array. */
function keysProblem(fields: Record<string, unknown>): string | null {
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
  const fields = structuredClone(VALID) as Record<string, unknown>;
  for (let i = 0, n = 1 + r.int(3); i < n; i++) mutate(fields, r);
  const body: Record<string, unknown> = { fields };
  if (r.chance(0.3)) body.status = 'published';
  const payload = serialize(body);
  return {
    kind: 'patch',
    payload,
    res: await app.inject({
      method: 'PATCH',
      url: `/v1/content/${entryId}`,
      headers: { ...site.editing, 'content-type': 'application/json' },
      payload,
    }),
  };
}

export function nestedFuzzSuite(kind: DbKind): void {
  describeEachDb(
    'fuzz: nested values and declarations',
    (ctx) => {
      let site: Site;
      let entryId: string;
      before(async () => {
        site = await newSite(ctx.app, 'Nested fuzz');
        entryId = await landingEntry(ctx.app, site);
      });

      it(`${COUNT} seeded nested mutations: no 5xx, errors enveloped, _keys well-formed`, async (t) => {
        const statuses = new Map<number, number>();
        const failures: string[] = [];
        const indices = ONLY === null ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY];
        for (const index of indices) {
          const { kind: what, payload, res } = await send(ctx.app, site, entryId, rng(SEED, index));
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const where = `#${index} (FOLIO_FUZZ_SEED=${SEED} FOLIO_FUZZ_ONLY=${index}) ${what} ${payload.slice(0, 300)}`;
          if (res.statusCode >= 500)
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
        t.diagnostic(`seed ${SEED}: ${indices.length} requests; statuses ${summary.join(' ')}`);
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
