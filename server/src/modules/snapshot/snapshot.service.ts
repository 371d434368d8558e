import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { type ChangeBus, FLUSH_ALL, TOPICS } from '../../db/dialect/change-bus.js';
import { byCodeUnits, canonicalJson } from '../../shared/canonical.js';
import { notFound } from '../../shared/errors.js';
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
  /** Null when there is no such project. */
  project(projectId: string): Promise<{ bakeEnabled: boolean } | null>;
  entries(projectId: string): Promise<PublishedEntry[]>;
  objects(projectId: string): Promise<PublishedObjects>;
}

export const SNAPSHOT_SCHEMA = 1;

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
  const tail = `},"objectCollections":${canonicalJson(objects.objectCollections)},"objectFields":${canonicalJson(objects.objectFields)},"objectTypes":${canonicalJson(objects.objectTypes)},"schema":${SNAPSHOT_SCHEMA}}`;
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
): string => [...canonicalSnapshotChunks(bakeEnabled, entries, objects)()].join('');

/** The canonical text of a project's published data, read fresh from the database (chunks, rewritable). */
async function canonicalSnapshotOf(projectId: string, sources: SnapshotSources) {
  const [project, entries, objects] = await Promise.all([
    sources.project(projectId),
    sources.entries(projectId),
    sources.objects(projectId),
  ]);
  if (!project) throw notFound('Project');
  return canonicalSnapshotChunks(project.bakeEnabled, entries, objects);
}

function versionOf(chunks: () => Iterable<string>): string {
  const hash = createHash('sha256');
  for (const chunk of chunks()) hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The snapshot version without the service's cache or change bus, for processes that have neither
 * (the worker stamps it on GitHub repository dispatch calls). Same bytes, so the same version.
 */
export async function computeSnapshotVersion(projectId: string, sources: SnapshotSources): Promise<string> {
  return versionOf(await canonicalSnapshotOf(projectId, sources));
}

/** The envelope's text compressed as it is written (level 1: JSON compresses nearly as well, faster). */
async function gzipped(parts: Iterable<string>): Promise<{ gzip: Buffer; bytes: number }> {
  const gz = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gz.on('data', (b: Buffer) => out.push(b));
  const ended = once(gz, 'end');
  let bytes = 0;
  for (const part of parts) {
    const buf = Buffer.from(part);
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
  /** Builds under way, begun after the last change of their project. */
  const building = new Map<string, Promise<BuiltSnapshot>>();
  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) building.clear();
    if (topic === TOPICS.snapshot || topic === TOPICS.project) {
      building.delete(key);
      cache.delete(key);
    }
  });

  async function build(projectId: string): Promise<BuiltSnapshot> {
    const chunks = await canonicalSnapshotOf(projectId, sources);
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

  function load(projectId: string): Promise<BuiltSnapshot> {
    const under = bus.live ? building.get(projectId) : undefined;
    if (under) return under;
    const started = build(projectId).finally(() => {
      if (building.get(projectId) === started) building.delete(projectId);
    });
    building.set(projectId, started);
    return started;
  }

  return {
    /** The cached snapshot's ETag, without building (the revalidation fast path). */
    peekEtag: (projectId: string): string | undefined => cache.get(projectId)?.etag,

    snapshot: (projectId: string): Promise<BuiltSnapshot> => cache.getOrLoad(projectId, load),

    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ snapshot: cache.counts }),
  };
}

export type SnapshotService = ReturnType<typeof createSnapshotService>;
