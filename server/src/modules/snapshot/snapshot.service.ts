import { createHash } from 'node:crypto';
import { type ChangeBus, TOPICS } from '../../db/dialect/change-bus.js';
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
  /** The exact bytes of the `{ data, error }` envelope. */
  body: Buffer;
}

/**
 * Builds the canonical JSON (RFC 8785) of everything but `version` and `generatedAt` by splicing:
 * entries' published fields are stored canonical, so they are copied as text, and pages and
 * entries are sorted in code-unit order here (never by the database's collation, which differs
 * between dialects). Top-level keys are written in canonical order: bakeEnabled, content,
 * objectCollections, objectFields, objectTypes, schema. Re-parsing 20,000 entries only to sort
 * their keys again was the rejected alternative: it is most of the cost of a cold build.
 */
export function canonicalSnapshot(
  bakeEnabled: boolean,
  entries: PublishedEntry[],
  objects: PublishedObjects,
  /** A locale's snapshot in a project with locales carries `locale` (contract §17). */
  locale?: string,
): string {
  const localeKey = locale === undefined ? '' : `"locale":${JSON.stringify(locale)},`;
  return `{"bakeEnabled":${bakeEnabled},"content":${canonicalContent(entries)},${localeKey}${canonicalObjects(objects)},"schema":${SNAPSHOT_SCHEMA}}`;
}

/** The objects' three keys, canonical, without braces (they come last but `schema` in both documents). */
const canonicalObjects = (objects: PublishedObjects): string =>
  `"objectCollections":${canonicalJson(objects.objectCollections)},"objectFields":${canonicalJson(objects.objectFields)},"objectTypes":${canonicalJson(objects.objectTypes)}`;

/** The `content` map's canonical JSON: pages in code-unit order, each page's entries by instanceKey. */
function canonicalContent(entries: PublishedEntry[]): string {
  const q = JSON.stringify;
  const pages = new Map<string, typeof entries>();
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

/** Which snapshot a request asks for: the project's only one (no locales), one locale's, or `*`. */
type Which = { locale: undefined } | { locale: string } | { locale: '*' };

/** The canonical bytes of a project's published data (one locale's, or its only one), read fresh from the database. */
async function canonicalSnapshotOf(
  projectId: string,
  sources: SnapshotSources,
  code?: string,
): Promise<Buffer> {
  const [project, objects] = await Promise.all([sources.project(projectId), sources.objects(projectId)]);
  if (!project) throw notFound('Project');
  const locales = project.locales ?? null;
  if (locales === null) {
    return Buffer.from(canonicalSnapshot(project.bakeEnabled, await sources.entries(projectId), objects));
  }
  const locale = code ?? locales.default;
  const entries = (await sources.entriesIn(projectId, locales, [locale])).get(locale) ?? [];
  return Buffer.from(canonicalSnapshot(project.bakeEnabled, entries, objects, locale));
}

const versionOf = (canonical: Buffer | string): string =>
  `sha256:${createHash('sha256').update(canonical).digest('hex')}`;

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

/**
 * GET /v1/snapshot. The built snapshot is kept per project and dropped on any publish that changes
 * it (topics `snapshot` and `project`, on every instance through the change bus), so revalidation
 * with If-None-Match costs a map lookup. `generatedAt` is the time this snapshot was built.
 */
export function createSnapshotService(bus: ChangeBus, sources: SnapshotSources) {
  const cache = new MemoCache<BuiltSnapshot>(bus, (s) => s.body.length + 200, 128 * 1024 * 1024);
  bus.subscribe((topic, key) => {
    // Every snapshot of the project: its only one, or each locale's and `*`.
    if (topic === TOPICS.snapshot || topic === TOPICS.project)
      cache.deleteWhere((k) => k === key || k.startsWith(`${key}\u0000`));
  });

  /** The cache key: the project (its only snapshot, or its default locale's), else the project and the locale or `*`. */
  const keyOf = (projectId: string, which: Which) =>
    which.locale === undefined ? projectId : `${projectId}\u0000${which.locale}`;

  async function build(key: string): Promise<BuiltSnapshot> {
    const cut = key.indexOf('\u0000');
    const projectId = cut === -1 ? key : key.slice(0, cut);
    const locale = cut === -1 ? undefined : key.slice(cut + 1);
    if (locale === '*') {
      const { version, body } = await allLocales(projectId, sources);
      return { version, etag: `"${version}"`, body };
    }
    const canonical = await canonicalSnapshotOf(projectId, sources, locale);
    const version = versionOf(canonical);
    // Splice the (multi-megabyte) canonical bytes into the envelope after their opening brace.
    const head = Buffer.from(`{"data":{"version":"${version}","generatedAt":"${isoNow()}",`);
    const body = Buffer.concat([head, canonical.subarray(1), Buffer.from(',"error":null}')]);
    return { version, etag: `"${version}"`, body };
  }

  return {
    /**
     * The cached snapshot's ETag, without building (the revalidation fast path); `locale` as sent in
     * `?locale=` (a code exactly as the project spells it other than the default, or `*`).
     */
    peekEtag: (projectId: string, locale?: string): string | undefined =>
      cache.get(locale === undefined ? projectId : `${projectId}\u0000${locale}`)?.etag,

    /**
     * GET /v1/snapshot: the project's snapshot, or in a project with locales the one `?locale=` asks
     * (none, or the default: the default's, cached under the plain key; `*`: every locale's). 400 at
     * query.locale for a code the project lacks, or any locale in a project without locales.
     */
    async snapshot(projectId: string, asked?: string): Promise<BuiltSnapshot> {
      if (asked === undefined) return cache.getOrLoad(projectId, build);
      const project = await sources.project(projectId);
      if (!project) throw notFound('Project');
      const locales = project.locales ?? null;
      if (asked === '*') {
        // The one 400 of a locale in a project without locales.
        if (locales === null) requestedLocale(null, asked, 'query.locale');
        return cache.getOrLoad(keyOf(projectId, { locale: '*' }), build);
      }
      const code = requestedLocale(locales, asked, 'query.locale') as string;
      const which: Which = { locale: code === locales?.default ? undefined : code };
      return cache.getOrLoad(keyOf(projectId, which), build);
    },

    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ snapshot: cache.counts }),
  };
}

export type SnapshotService = ReturnType<typeof createSnapshotService>;
