import type { FolioObject, Snapshot, SnapshotInput } from './types.js';

/** The snapshot of `createFolio({ snapshot })`, whether the CLI wrote the envelope or its `data`. */
export function unwrapSnapshot(input: SnapshotInput): Snapshot {
  return 'data' in input && 'error' in input ? input.data : input;
}

/**
 * `GET /v1/objects` rebuilt from a snapshot's flat rows: fields by path, collections in saved order,
 * objects ordered by type then id (the snapshot's own order). `types` keeps only those types.
 */
export function bakedObjects(snapshot: Snapshot, types?: readonly string[]): FolioObject[] {
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
