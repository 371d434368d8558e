import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { editorEntries, newSite, pageUrl, type Site } from '../helpers/content.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { setMode, syncAs } from '../helpers/fields.js';
import { setLocales } from '../helpers/locales.js';
import { put } from '../helpers/references.js';
import { PROTO_KEYS } from './corpus.js';
import type { Rng } from './random.js';

/**
 * The shapes of issue 42 (one visitor's read or one public sync took a server down), scaled so that
 * code without the §23 bounds answers them slowly or wrongly within seconds, never for minutes:
 * reference fans (entries holding many references to entries that hold many), costly RE2 patterns
 * with long defaults and values, non-string items in multiple fields, prototype-named keys as field
 * and object keys (localized and not). Each shape is a request or two against fixtures made once,
 * with its own check besides the suite's (no 5xx, the envelope, an answer within the time bound).
 */

/** Items per level of the reference fan (four levels, each item a reference to the next level's entry). */
const FAN = 100;
/** The text of the entry the big fan's items all reference: FAN copies of it are 8 MB. */
const BIG_TEXT = 80_000;
/**
 * A visitor answer may hold CMS_RESOLVE_MAX_BYTES (5 MB) of resolved references (§23) plus the
 * page's own fields (a few KB here): anything above this was built past the budget.
 */
export const MAX_ANSWER_BYTES = 6 * 1024 * 1024;
/** Issue 42's pattern: RE2JS runs it in time linear in the value but with ~1,000 live threads per character. */
export const COSTLY_PATTERN = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){999}!';
/** The same with a hundredth of the program, for an engine bound that refuses the first. */
const SMALLER_PATTERN = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){99}!';
/** Under §23's 10,000 code points, so a bound on length alone does not answer it. */
const LONG_VALUE = 'a'.repeat(9_000);
/** Components of a costly sync: ~250 ms of matching each without a bound. */
const SYNC_COMPONENTS = 12;

export interface ShapeFixtures {
  /** Fans, patterns and multiple fields; its definitions sync as usual. */
  shapes: Site;
  /** definitionSync `locked`: its publishable key may sync nothing. */
  locked: Site;
  /** A project with locales whose component's field keys are prototype member names. */
  localized: Site;
  localizedId: string;
  /** The pattern the shapes project accepted (the costly one, or the smaller one under a program bound). */
  patternSource: string;
  patternEntry: string;
  multiEntry: string;
  /** An entry of another project (a forged reference names it). */
  foreignEntry: string;
}

export interface ShapeOutcome {
  label: string;
  status: number;
  ms: number;
  bytes: number;
  problem: string | null;
}

const FAN_COMPONENT = {
  componentId: 'Fan',
  instanceKey: 'fan',
  fields: [{ key: 'items', type: 'list', fields: [{ key: 'ref', type: 'reference' }] }],
};
const BIG_COMPONENT = { componentId: 'Big', instanceKey: 'big', fields: [{ key: 'text', type: 'text' }] };
const MULTI_COMPONENT = {
  componentId: 'Multi',
  instanceKey: 'multi',
  fields: [
    { key: 'refs', type: 'reference', multiple: true },
    { key: 'tags', type: 'select', multiple: true, options: [{ value: 'a' }, { value: 'b' }] },
  ],
};
const patternComponent = (source: string) => ({
  componentId: 'Pattern',
  instanceKey: 'pattern',
  fields: [
    { key: 't', type: 'text', pattern: { source } },
    { key: 'items', type: 'list', fields: [{ key: 't', type: 'text', pattern: { source } }] },
  ],
});
/** Every field key a prototype member name: localized, shared, and inside an object. */
const PROTO_COMPONENT = {
  componentId: 'Proto',
  instanceKey: 'proto',
  fields: [
    ...PROTO_KEYS.filter((k) => k !== '__proto__').map((key) => ({ key, type: 'text', localized: true })),
    { key: 'shared', type: 'text', localized: false },
    {
      key: 'obj',
      type: 'object',
      fields: [
        { key: 'constructor', type: 'text' },
        { key: 'valueOf', type: 'text' },
      ],
    },
    { key: 'meta', type: 'json' },
  ],
};
const LOCALES = { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] };

async function entryOf(app: FastifyInstance, site: Site, pageId: string, component: object): Promise<string> {
  const res = await syncAs(app, site.editing, { pageId, components: [component] });
  if (res.status !== 200)
    throw new Error(`shape fixture sync failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (await editorEntries(app, site, pageId))[0]?.id as string;
}

/** Made once per fuzz file (a few seconds): every entry the shapes read or write. */
export async function shapeFixtures(app: FastifyInstance, foreignEntry: string): Promise<ShapeFixtures> {
  const shapes = await newSite(app, 'Fuzz shapes');
  const levels = ['/fan-x', '/fan-y', '/fan-z', '/fan-w'];
  const fan: string[] = [];
  for (const pageId of levels) fan.push(await entryOf(app, shapes, pageId, FAN_COMPONENT));
  for (let i = fan.length - 1; i >= 0; i--) {
    const next = fan[i + 1];
    await put(app, shapes, fan[i] as string, {
      items: next ? Array.from({ length: FAN }, () => ({ ref: next })) : [],
    });
  }
  const big = await entryOf(app, shapes, '/big', BIG_COMPONENT);
  await put(app, shapes, big, { text: 'b'.repeat(BIG_TEXT) });
  const bigFan = await entryOf(app, shapes, '/fan-big', FAN_COMPONENT);
  await put(app, shapes, bigFan, { items: Array.from({ length: FAN }, () => ({ ref: big })) });

  // A bound on pattern programs may refuse the pattern at sync (§23); the editor's path is
  // then fuzzed with the largest this suite knows to be accepted.
  let patternSource = COSTLY_PATTERN;
  let patternEntry: string;
  try {
    patternEntry = await entryOf(app, shapes, '/pattern', patternComponent(COSTLY_PATTERN));
  } catch {
    patternSource = SMALLER_PATTERN;
    patternEntry = await entryOf(app, shapes, '/pattern', patternComponent(SMALLER_PATTERN));
  }
  const multiEntry = await entryOf(app, shapes, '/multi', MULTI_COMPONENT);

  const locked = await newSite(app, 'Fuzz locked');
  const mode = await setMode(app, locked, 'locked');
  if (mode.status !== 200) throw new Error(`locking failed: ${mode.status}`);

  const localized = await newSite(app, 'Fuzz keys');
  await setLocales(app, localized, LOCALES);
  const localizedId = await entryOf(app, localized, '/', PROTO_COMPONENT);
  return { shapes, locked, localized, localizedId, patternSource, patternEntry, multiEntry, foreignEntry };
}

/** One request, timed, with the suite's checks (5xx, envelope) and the shape's own. */
async function timed(
  app: FastifyInstance,
  label: string,
  options: InjectOptions,
  check?: (status: number, body: string) => string | null,
): Promise<ShapeOutcome> {
  const started = performance.now();
  const res = await app.inject(options);
  const ms = Math.round(performance.now() - started);
  const bytes = Buffer.byteLength(res.body);
  let problem: string | null = null;
  if (res.statusCode >= 500) problem = `status ${res.statusCode}: ${res.body.slice(0, 300)}`;
  else if (res.statusCode >= 400) {
    const why = envelopeProblem(res.body, res.headers['content-type'] as string | undefined);
    if (why) problem = `status ${res.statusCode} not enveloped (${why})`;
  }
  problem ??= check?.(res.statusCode, res.body) ?? null;
  return { label, status: res.statusCode, ms, bytes, problem };
}

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

/** A read whose answer must stay within the resolution budget (§23: occurrences and bytes). */
const boundedAnswer = (status: number, body: string) =>
  status === 200 && Buffer.byteLength(body) > MAX_ANSWER_BYTES
    ? `a ${(Buffer.byteLength(body) / 1024 / 1024).toFixed(1)} MB answer: references resolved past the budget`
    : null;

function costlySync(source: string, r: Rng) {
  return {
    pageId: `/p${r.int(5)}`,
    components: Array.from({ length: SYNC_COMPONENTS }, (_, i) => ({
      componentId: 'Costly',
      instanceKey: `c${i}`,
      fields: [{ key: 't', type: 'text', pattern: { source }, default: LONG_VALUE }],
    })),
  };
}

type Shape = (app: FastifyInstance, sx: ShapeFixtures, r: Rng) => Promise<ShapeOutcome[]>;

export const SHAPES: Record<string, Shape> = {
  async 'reference fan'(app, sx, r) {
    const depth = r.pick([1, 2, 3]);
    return [
      await timed(
        app,
        `GET /fan-x?depth=${depth}`,
        { method: 'GET', url: `${pageUrl('/fan-x')}?depth=${depth}`, headers: sx.shapes.key },
        boundedAnswer,
      ),
    ];
  },
  async 'fan onto a large entry'(app, sx, r) {
    const depth = r.pick([1, 2]);
    return [
      await timed(
        app,
        `GET /fan-big?depth=${depth}`,
        { method: 'GET', url: `${pageUrl('/fan-big')}?depth=${depth}`, headers: sx.shapes.key },
        boundedAnswer,
      ),
    ];
  },
  async 'pattern and default, locked key sync'(app, sx, r) {
    return [
      await timed(
        app,
        'POST /v1/definitions/sync (locked, publishable key)',
        {
          method: 'POST',
          url: '/v1/definitions/sync',
          headers: json(sx.locked.key),
          payload: JSON.stringify(costlySync(COSTLY_PATTERN, r)),
        },
        // §23: the lock mode (and the rate limit) are consulted before any default is checked.
        (status) =>
          status === 403 || status === 429 ? null : `a locked project's key sync answered ${status}, not 403`,
      ),
    ];
  },
  async 'pattern and default, member sync'(app, sx, r) {
    return [
      await timed(app, 'POST /v1/definitions/sync (member)', {
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: json(sx.shapes.editing),
        payload: JSON.stringify(costlySync(r.pick([COSTLY_PATTERN, sx.patternSource]), r)),
      }),
    ];
  },
  async 'pattern on the editor path'(app, sx, r) {
    const fields = r.chance(0.5)
      ? { t: r.pick([LONG_VALUE, 'a'.repeat(60_000), `${LONG_VALUE}!`]) }
      : { items: Array.from({ length: 100 }, () => ({ t: 'a'.repeat(1_000) })) };
    return [
      await timed(app, 'PATCH pattern entry', {
        method: 'PATCH',
        url: `/v1/content/${sx.patternEntry}`,
        headers: json(sx.shapes.editing),
        payload: JSON.stringify({ fields, ...(r.chance(0.3) && { status: 'published' }) }),
      }),
      await timed(app, 'GET /pattern (editor)', {
        method: 'GET',
        url: pageUrl('/pattern'),
        headers: sx.shapes.editing,
      }),
    ];
  },
  async 'non-string items in multiple fields'(app, sx, r) {
    const odd = r.pick<unknown>([
      123,
      null,
      true,
      [],
      { id: sx.foreignEntry, fields: { t: 'FAKE' } },
      { id: sx.foreignEntry },
    ]);
    const fields = r.chance(0.5) ? { refs: [odd] } : { tags: ['a', odd] };
    return [
      await timed(
        app,
        `PATCH multi ${JSON.stringify(fields)}`,
        {
          method: 'PATCH',
          url: `/v1/content/${sx.multiEntry}`,
          headers: json(sx.shapes.editing),
          payload: JSON.stringify({ fields, ...(r.chance(0.5) && { status: 'published' }) }),
        },
        // §23: every item of a multiple select or reference is checked; a non-string one is 400.
        (status) => (status < 400 ? `a non-string item was accepted (${status})` : null),
      ),
    ];
  },
  async 'prototype-named keys'(app, sx, r) {
    const locale = r.pick(['en', 'fr']);
    const tag = `v${r.int(1e6)}`;
    const fields: Record<string, unknown> = Object.fromEntries(
      PROTO_KEYS.filter((k) => k !== '__proto__').map((k) => [k, `${k} ${tag}`]),
    );
    fields.shared = tag;
    fields.obj = { constructor: tag, valueOf: tag };
    fields.meta = { constructor: tag, toString: tag, hasOwnProperty: tag };
    const sent = JSON.stringify(fields);
    // §23: keys are data; what was written reads back under every name.
    const same = (label: string) => (status: number, body: string) => {
      if (status !== 200) return `${label} answered ${status}`;
      const data = JSON.parse(body).data;
      const got = (Array.isArray(data) ? data[0] : data)?.fields ?? {};
      const lost = Object.keys(fields).filter(
        (k) => !Object.hasOwn(got, k) || !isDeepStrictEqual(got[k], fields[k]),
      );
      return lost.length ? `${label} lost or changed ${lost.join(', ')}: ${JSON.stringify(got)}` : null;
    };
    const outcomes = [
      await timed(
        app,
        `PATCH ?locale=${locale} ${sent}`,
        {
          method: 'PATCH',
          url: `/v1/content/${sx.localizedId}?locale=${locale}`,
          headers: json(sx.localized.editing),
          payload: JSON.stringify({ fields, status: 'published' }),
        },
        same('the write'),
      ),
    ];
    const reader = r.chance(0.5) ? sx.localized.key : sx.localized.editing;
    outcomes.push(
      await timed(
        app,
        `GET / ?locale=${locale} (${reader === sx.localized.key ? 'visitor' : 'editor'})`,
        { method: 'GET', url: `${pageUrl('/')}?locale=${locale}`, headers: reader },
        same('the read'),
      ),
    );
    if (r.chance(0.2)) {
      const key = r.pick(PROTO_KEYS);
      // `__proto__` as a JSON key is refused at parse (§23); the others declare as any key does.
      outcomes.push(
        await timed(
          app,
          `sync a field keyed ${key}`,
          {
            method: 'POST',
            url: '/v1/definitions/sync',
            headers: json(sx.localized.editing),
            payload: `{"pageId":"/keys","components":[{"componentId":"K","instanceKey":"k","fields":[{"key":${JSON.stringify(key)},"type":"text"}]}]}`,
          },
          (status) =>
            key === '__proto__'
              ? status === 400
                ? null
                : `a __proto__ field key answered ${status}`
              : status === 200
                ? null
                : `a field keyed ${key} answered ${status}`,
        ),
      );
    }
    return outcomes;
  },
};

export const SHAPE_NAMES = Object.keys(SHAPES);
