import { FolioError } from './errors.js';
import type { FolioObject, Snapshot, SnapshotAll, SnapshotInput } from './types.js';

/** What `createFolio({ snapshot })` was given: one locale's snapshot, or the `*` document. */
export type Baked = Snapshot | SnapshotAll;

/** The snapshot of `createFolio({ snapshot })`, whether the CLI wrote the envelope or its `data`. */
export function unwrapSnapshot(input: SnapshotInput): Baked {
  return 'data' in input && 'error' in input ? input.data : input;
}

/** The `GET /v1/snapshot?locale=*` document (schema 2), as opposed to one locale's snapshot. */
export const isSnapshotAll = (baked: Baked): baked is SnapshotAll => 'locales' in baked;

/**
 * One locale's snapshot out of what was baked (`locale` undefined: the default locale's), codes
 * matched case-insensitively, as the API matches `?locale=` (contract §17: `fr-ca` is `fr-CA`):
 * - the `*` document: that locale's content map with the document's objects, `bakeEnabled` and
 *   `version` (the `*` version: a per-locale version is not in the document), `locale` set;
 * - one locale's snapshot: itself when it is of that locale, or of a project without locales
 *   (it has no `locale`, and then serves every read).
 * A locale the baked file does not hold is a FolioError `validation_failed`, as the API's 400 for a
 * code the project lacks: a static build must not quietly render another language.
 */
export function bakedLocale(baked: Baked, locale: string | undefined): Snapshot {
  const asked = locale?.toLowerCase();
  if (!isSnapshotAll(baked)) {
    if (!asked || !baked.locale || baked.locale.toLowerCase() === asked) return baked;
    throw missingLocale(locale, baked.locale);
  }
  const { locales, defaultLocale, ...rest } = baked;
  const codes = Object.keys(locales);
  const code = asked ? codes.find((c) => c.toLowerCase() === asked) : defaultLocale;
  const content = code && locales[code];
  if (!content) throw missingLocale(locale, codes);
  return { ...rest, schema: 1, locale: code, content };
}

const missingLocale = (locale: unknown, held: unknown) =>
  new FolioError('validation_failed', 400, `No locale "${locale}" in the baked file (${held}).`);

/**
 * `GET /v1/objects` rebuilt from a snapshot's flat rows: fields by path, collections in saved order,
 * objects ordered by type then id (the snapshot's own order). `types` keeps only those types.
 * Objects are not localized (contract §14): every locale's snapshot holds the same.
 */
export function bakedObjects(snapshot: Baked, types?: readonly string[]): FolioObject[] {
  const objects = new Map<string, FolioObject>();
  const wanted = types && types.length > 0 ? new Set(types) : null;
  const objectOf = (type: string, id: string): FolioObject | null => {
    if (wanted && !wanted.has(type)) return null;
    const key = `${type}\n${id}`;
    let object = objects.get(key);
    if (!object) {
      object = { type, id, fields: {}, collections: {} };
      objects.set(key, object);
    }
    return object;
  };
  for (const row of snapshot.objectFields) {
    const object = objectOf(row.type, row.id);
    if (object) object.fields[row.path] = row.value;
  }
  for (const row of snapshot.objectCollections) {
    const object = objectOf(row.type, row.id);
    if (object) object.collections[row.collection] = row.items;
  }
  return [...objects.values()].sort((a, b) =>
    a.type === b.type ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.type < b.type ? -1 : 1,
  );
}
