import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { type ChangeBus, FLUSH_ALL, TOPICS } from '../../db/dialect/change-bus.js';
import { byCodeUnits, canonicalJson } from '../../shared/canonical.js';
import { notFound } from '../../shared/errors.js';
import { type Locales, localeCodes, requestedLocale } from '../../shared/locales.js';
import { MemoCache } from '../../shared/memo-cache.js';
import { isoNow } from '../../shared/time.js';

export interface PublishedObjects {
  objectFields: unknown[];
  objectCollections: unknown[];
  objectTypes: unknown[];
}

export interface PublishedEntry {
  /** The entry id (contract §17: a build resolves references by it). */
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  /** Canonical JSON, as stored. */
  publishedFields: string;
}

/**
 * What the snapshot is made of, each read from the module that owns it; src/app.ts wires them
 * (projects through the site cache) and src/jobs/handlers.ts for the worker (read fresh).
 */
export interface SnapshotSources {
  /** Null when there is no such project. `locales`: the project's languages (contract §14; null or absent: one). */
  project(projectId: string): Promise<{ bakeEnabled: boolean; locales?: Locales | null } | null>;
  entries(projectId: string): Promise<PublishedEntry[]>;
  /** In a project with locales: each of `codes`' live entries, read with fallback (content's snapshotEntriesIn). */
  entriesIn(
    projectId: string,
    locales: Locales,
    codes: readonly string[],
  ): Promise<Map<string, PublishedEntry[]>>;
  objects(projectId: string): Promise<PublishedObjects>;
}

export const SNAPSHOT_SCHEMA = 1;
/** The schema of the `?locale=*` document (contract §17). */
export const ALL_LOCALES_SCHEMA = 2;

export interface BuiltSnapshot {
  version: string;
  etag: string;
  /** The `{ data, error }` envelope, gzip-compressed. */
  gzip: Buffer;
  /** Its length uncompressed. */
  bytes: number;
}

/** Characters of canonical JSON per chunk the build hashes and compresses (not one 100 MB string). */
const CHUNK = 1 << 20;

/**
 * Builds the canonical JSON (RFC 8785) of everything but `version` and `generatedAt` by splicing:
 * entries' published fields are stored canonical, so they are copied as text, and pages and
 * entries are sorted in code-unit order here (never by the database's collation, which differs
 * between dialects). Top-level keys are written in canonical order: bakeEnabled, content,
 * objectCollections, objectFields, objectTypes, schema. Re-parsing 20,000 entries only to sort
 * their keys again was the rejected alternative: it is most of the cost of a cold build.
 * Returned as a function that writes the text again on each call, in chunks of about CHUNK
 * characters: the build runs it twice (the version's hash, then the compressed body) and never
 * holds the whole text (140 MB at 20,000 pages x 10 entries: its copies were most of the peak).
 */
export function canonicalSnapshotChunks(
  bakeEnabled: boolean,
  entries: PublishedEntry[],
  objects: PublishedObjects,
  /** A locale's snapshot in a project with locales carries `locale` (contract §17), between content and objects. */
  locale?: string,
): () => Generator<string> {
  const q = JSON.stringify;
  const pages = new Map<string, PublishedEntry[]>();
  for (const e of entries) {
    const list = pages.get(e.pageId);
    if (list) list.push(e);
    else pages.set(e.pageId, [e]);
  }
  const pageIds = [...pages.keys()].sort(byCodeUnits);
  for (const list of pages.values()) list.sort((a, b) => byCodeUnits(a.instanceKey, b.instanceKey));
  const localeKey = locale === undefined ? '' : `"locale":${q(locale)},`;
  const tail = `},${localeKey}${canonicalObjects(objects)},"schema":${SNAPSHOT_SCHEMA}}`;
  return function* () {
    let chunk = `{"bakeEnabled":${bakeEnabled},"content":{`;
    let first = true;
    for (const pageId of pageIds) {
      const items = pages
        .get(pageId)!
        .map(
          (e) =>
            `{"componentId":${q(e.componentId)},"fields":${e.publishedFields},"id":${q(e.id)},"instanceKey":${q(e.instanceKey)}}`,
        );
      chunk += `${first ? '' : ','}${q(pageId)}:[${items.join(',')}]`;
      first = false;
      if (chunk.length >= CHUNK) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk + tail;
  };
}

/** The canonical JSON of a snapshot as one string (tests; the build works in chunks). */
export const canonicalSnapshot = (
  bakeEnabled: boolean,
  entries: PublishedEntry[],
  objects: PublishedObjects,
  locale?: string,
): string => [...canonicalSnapshotChunks(bakeEnabled, entries, objects, locale)()].join('');

/** The objects' three keys, canonical, without braces (they come last but `schema` in both documents). */
const canonicalObjects = (objects: PublishedObjects): string =>
  `"objectCollections":${canonicalJson(objects.objectCollections)},"objectFields":${canonicalJson(objects.objectFields)},"objectTypes":${canonicalJson(objects.objectTypes)}`;

/** The `content` map's canonical JSON: pages in code-unit order, each page's entries by instanceKey. */
function canonicalContent(entries: PublishedEntry[]): string {
  const q = JSON.stringify;
  const pages = new Map<string, PublishedEntry[]>();
  for (const e of entries) {
    const list = pages.get(e.pageId);
    if (list) list.push(e);
    else pages.set(e.pageId, [e]);
  }
  const parts: string[] = [];
  for (const pageId of [...pages.keys()].sort(byCodeUnits)) {
    const list = pages.get(pageId)!.sort((a, b) => byCodeUnits(a.instanceKey, b.instanceKey));
    const items = list.map(
      (e) =>
        `{"componentId":${q(e.componentId)},"fields":${e.publishedFields},"id":${q(e.id)},"instanceKey":${q(e.instanceKey)}}`,
    );
    parts.push(`${q(pageId)}:[${items.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The canonical text of a project's published data (its only snapshot, or one locale's), read fresh
 * from the database, in chunks that can be written again.
 */
async function canonicalSnapshotOf(projectId: string, sources: SnapshotSources, code?: string) {
  const [project, objects] = await Promise.all([sources.project(projectId), sources.objects(projectId)]);
  if (!project) throw notFound('Project');
  const locales = project.locales ?? null;
  if (locales === null) {
    return canonicalSnapshotChunks(project.bakeEnabled, await sources.entries(projectId), objects);
  }
  const locale = code ?? locales.default;
  const entries = (await sources.entriesIn(projectId, locales, [locale])).get(locale) ?? [];
  return canonicalSnapshotChunks(project.bakeEnabled, entries, objects, locale);
}

function versionOf(chunks: (() => Iterable<string>) | string): string {
  const hash = createHash('sha256');
  if (typeof chunks === 'string') hash.update(chunks);
  else for (const chunk of chunks()) hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The `?locale=*` document (contract §14, §17: schema 2) as its envelope's bytes, and its version:
 * `sha256:` + the hex SHA-256 of the JCS of `{ defaultLocale, bakeEnabled, versions, objects }`, where
 * `versions` holds each locale's own snapshot version (the bytes of `?locale=<code>`, hashed from the
 * same content text spliced here) and `objects` is the version of the objects alone: the hex SHA-256
 * of the JCS of `{ objectCollections, objectFields, objectTypes }`, prefixed `sha256:`.
 */
async function allLocales(projectId: string, sources: SnapshotSources) {
  const [project, objects] = await Promise.all([sources.project(projectId), sources.objects(projectId)]);
  if (!project) throw notFound('Project');
  const locales = project.locales as Locales;
  const codes = localeCodes(locales).sort(byCodeUnits);
  const entries = await sources.entriesIn(projectId, locales, codes);
  const objectsText = canonicalObjects(objects);
  const versions: Record<string, string> = {};
  const contents: string[] = [];
  for (const code of codes) {
    const content = canonicalContent(entries.get(code) ?? []);
    // The locale's own snapshot is these bytes (canonicalSnapshot's), hashed without building them.
    const hash = createHash('sha256')
      .update(`{"bakeEnabled":${project.bakeEnabled},"content":`)
      .update(content)
      .update(`,"locale":${JSON.stringify(code)},${objectsText},"schema":${SNAPSHOT_SCHEMA}}`);
    versions[code] = `sha256:${hash.digest('hex')}`;
    contents.push(`${JSON.stringify(code)}:${content}`);
  }
  const version = versionOf(
    canonicalJson({
      defaultLocale: locales.default,
      bakeEnabled: project.bakeEnabled,
      versions,
      objects: versionOf(`{${objectsText}}`),
    }),
  );
  const data = `{"version":"${version}","generatedAt":"${isoNow()}","bakeEnabled":${project.bakeEnabled},"defaultLocale":${JSON.stringify(locales.default)},"locales":{${contents.join(',')}},${objectsText},"schema":${ALL_LOCALES_SCHEMA}}`;
  return { version, body: Buffer.from(`{"data":${data},"error":null}`) };
}

/**
 * The snapshot version without the service's cache or change bus, for processes that have neither
 * (the worker stamps it on GitHub repository dispatch calls). Same bytes, so the same version. In a
 * project with locales it is the `?locale=*` version (contract §17: what a repository dispatch carries).
 */
export async function computeSnapshotVersion(projectId: string, sources: SnapshotSources): Promise<string> {
  const project = await sources.project(projectId);
  if (project?.locales) return (await allLocales(projectId, sources)).version;
  return versionOf(await canonicalSnapshotOf(projectId, sources));
}

/** The envelope's text compressed as it is written (level 1: JSON compresses nearly as well, faster). */
async function gzipped(parts: Iterable<string | Buffer>): Promise<{ gzip: Buffer; bytes: number }> {
  const gz = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gz.on('data', (b: Buffer) => out.push(b));
  const ended = once(gz, 'end');
  let bytes = 0;
  for (const part of parts) {
    const buf = typeof part === 'string' ? Buffer.from(part) : part;
    bytes += buf.length;
    if (!gz.write(buf)) await once(gz, 'drain');
  }
  gz.end();
  await ended;
  return { gzip: Buffer.concat(out), bytes };
}

/**
 * GET /v1/snapshot. The built snapshot is kept per project, gzip-compressed (a snapshot compresses
 * 5-30x, so the 128 MB bound holds even the largest project's; uncompressed, one of 20,000 pages x
 * 10 entries was 141 MB, over the bound, and rebuilt on every request), and dropped on any publish
 * that changes it (topics `snapshot` and `project`, on every instance through the change bus), so
 * revalidation with If-None-Match costs a map lookup. Clients that accept gzip (fetch, the SDK and
 * the CLI do) get the stored bytes; others get them decompressed as they are sent. Requests that
 * come while a snapshot is built wait for that build rather than starting their own, unless the
 * data changed since it began. `generatedAt` is the time this snapshot was built.
 */
export function createSnapshotService(
  bus: ChangeBus,
  sources: SnapshotSources,
  maxBytes = 128 * 1024 * 1024,
) {
  const cache = new MemoCache<BuiltSnapshot>(bus, (s) => s.gzip.length + 200, maxBytes);
  /** Builds under way, by cache key, begun after the last change of their project. */
  const building = new Map<string, Promise<BuiltSnapshot>>();
  /** Whether a cache key is one of the project's snapshots: its only one, or each locale's and `*`. */
  const ofProject = (projectId: string) => (k: string) =>
    k === projectId || k.startsWith(`${projectId}\u0000`);
  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) building.clear();
    if (topic === TOPICS.snapshot || topic === TOPICS.project) {
      const own = ofProject(key);
      for (const k of [...building.keys()]) if (own(k)) building.delete(k);
      cache.deleteWhere(own);
    }
  });

  /** The cache key: the project (its only snapshot, or its default locale's), else the project and the locale or `*`. */
  const keyOf = (projectId: string, locale: string | undefined) =>
    locale === undefined ? projectId : `${projectId}\u0000${locale}`;

  async function build(key: string): Promise<BuiltSnapshot> {
    const cut = key.indexOf('\u0000');
    const projectId = cut === -1 ? key : key.slice(0, cut);
    const locale = cut === -1 ? undefined : key.slice(cut + 1);
    if (locale === '*') {
      const { version, body } = await allLocales(projectId, sources);
      const { gzip, bytes } = await gzipped([body]);
      return { version, etag: `"${version}"`, gzip, bytes };
    }
    const chunks = await canonicalSnapshotOf(projectId, sources, locale);
    const version = versionOf(chunks);
    // The envelope: the canonical text after its opening brace, behind `version` and `generatedAt`.
    const envelope = function* () {
      let opened = false;
      for (const chunk of chunks()) {
        yield opened
          ? chunk
          : `{"data":{"version":"${version}","generatedAt":"${isoNow()}",${chunk.slice(1)}`;
        opened = true;
      }
      yield ',"error":null}';
    };
    const { gzip, bytes } = await gzipped(envelope());
    return { version, etag: `"${version}"`, gzip, bytes };
  }

  function load(key: string): Promise<BuiltSnapshot> {
    const under = bus.live ? building.get(key) : undefined;
    if (under) return under;
    const started = build(key).finally(() => {
      if (building.get(key) === started) building.delete(key);
    });
    building.set(key, started);
    return started;
  }

  return {
    /**
     * The cached snapshot's ETag, without building (the revalidation fast path); `locale` as sent in
     * `?locale=` (a code exactly as the project spells it other than the default, or `*`).
     */
    peekEtag: (projectId: string, locale?: string): string | undefined =>
      cache.get(keyOf(projectId, locale))?.etag,

    /**
     * GET /v1/snapshot: the project's snapshot, or in a project with locales the one `?locale=` asks
     * (none, or the default: the default's, cached under the plain key; `*`: every locale's). 400 at
     * query.locale for a code the project lacks, or any locale in a project without locales.
     */
    async snapshot(projectId: string, asked?: string): Promise<BuiltSnapshot> {
      if (asked === undefined) return cache.getOrLoad(projectId, load);
      const project = await sources.project(projectId);
      if (!project) throw notFound('Project');
      const locales = project.locales ?? null;
      if (asked === '*') {
        // The one 400 of a locale in a project without locales.
        if (locales === null) requestedLocale(null, asked, 'query.locale');
        return cache.getOrLoad(keyOf(projectId, '*'), load);
      }
      const code = requestedLocale(locales, asked, 'query.locale') as string;
      return cache.getOrLoad(keyOf(projectId, code === locales?.default ? undefined : code), load);
    },

    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ snapshot: cache.counts }),
  };
}

export type SnapshotService = ReturnType<typeof createSnapshotService>;
