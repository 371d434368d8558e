import { createHash } from 'node:crypto';
import { type ChangeBus, TOPICS } from '../../db/dialect/change-bus.js';
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
): string {
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
  return `{"bakeEnabled":${bakeEnabled},"content":{${parts.join(',')}},"objectCollections":${canonicalJson(objects.objectCollections)},"objectFields":${canonicalJson(objects.objectFields)},"objectTypes":${canonicalJson(objects.objectTypes)},"schema":${SNAPSHOT_SCHEMA}}`;
}

/** The canonical bytes of a project's published data, read fresh from the database. */
async function canonicalSnapshotOf(projectId: string, sources: SnapshotSources): Promise<Buffer> {
  const [project, entries, objects] = await Promise.all([
    sources.project(projectId),
    sources.entries(projectId),
    sources.objects(projectId),
  ]);
  if (!project) throw notFound('Project');
  return Buffer.from(canonicalSnapshot(project.bakeEnabled, entries, objects));
}

const versionOf = (canonical: Buffer): string =>
  `sha256:${createHash('sha256').update(canonical).digest('hex')}`;

/**
 * The snapshot version without the service's cache or change bus, for processes that have neither
 * (the worker stamps it on GitHub repository dispatch calls). Same bytes, so the same version.
 */
export async function computeSnapshotVersion(projectId: string, sources: SnapshotSources): Promise<string> {
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
    if (topic === TOPICS.snapshot || topic === TOPICS.project) cache.delete(key);
  });

  async function build(projectId: string): Promise<BuiltSnapshot> {
    const canonical = await canonicalSnapshotOf(projectId, sources);
    const version = versionOf(canonical);
    // Splice the (multi-megabyte) canonical bytes into the envelope after their opening brace.
    const head = Buffer.from(`{"data":{"version":"${version}","generatedAt":"${isoNow()}",`);
    const body = Buffer.concat([head, canonical.subarray(1), Buffer.from(',"error":null}')]);
    return { version, etag: `"${version}"`, body };
  }

  return {
    /** The cached snapshot's ETag, without building (the revalidation fast path). */
    peekEtag: (projectId: string): string | undefined => cache.get(projectId)?.etag,

    snapshot: (projectId: string): Promise<BuiltSnapshot> => cache.getOrLoad(projectId, build),

    /** Hits and misses, for /metrics. */
    cacheCounts: () => ({ snapshot: cache.counts }),
  };
}

export type SnapshotService = ReturnType<typeof createSnapshotService>;
