import type { Db } from '../../db/database.js';
import { byCodeUnits } from '../../shared/canonical.js';
import * as repo from './objects.repository.js';
import { type Scalar, sortFields, sortItems } from './objects.view.js';

export interface ObjectsSnapshotPart {
  objectFields: { type: string; id: string; path: string; value: Scalar }[];
  objectCollections: {
    type: string;
    id: string;
    collection: string;
    items: { itemId: string; value: unknown }[];
  }[];
  objectTypes: { type: string; fields: string[]; collections: string[] }[];
}

/**
 * The published objects of a project for the snapshot (contract §3), fully sorted in code-unit
 * order (type, id, path / collection; items by position) so the snapshot version is the same on
 * both databases. Read in one transaction so the three parts agree with each other.
 */
export async function publishedObjectsForSnapshot(db: Db, projectId: string): Promise<ObjectsSnapshotPart> {
  const [objects, fields, items] = await repo.viewRows(db, { projectId, types: null, draft: false });

  const objectFields = sortFields(fields).map((f) => ({
    type: f.type,
    id: f.objectId,
    path: f.path,
    value: JSON.parse(f.value) as Scalar,
  }));

  const objectCollections: ObjectsSnapshotPart['objectCollections'] = [];
  let last: ObjectsSnapshotPart['objectCollections'][number] | undefined;
  for (const i of sortItems(items)) {
    if (!last || last.type !== i.type || last.id !== i.objectId || last.collection !== i.collection) {
      last = { type: i.type, id: i.objectId, collection: i.collection, items: [] };
      objectCollections.push(last);
    }
    last.items.push({ itemId: i.itemId, value: JSON.parse(i.value) });
  }

  const types = new Map<string, { fields: Set<string>; collections: Set<string> }>();
  const typeOf = (t: string) => {
    const entry = types.get(t) ?? { fields: new Set<string>(), collections: new Set<string>() };
    types.set(t, entry);
    return entry;
  };
  for (const o of objects) typeOf(o.type);
  for (const f of objectFields) typeOf(f.type).fields.add(f.path);
  for (const c of objectCollections) typeOf(c.type).collections.add(c.collection);
  const objectTypes = [...types.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([type, t]) => ({
      type,
      fields: [...t.fields].sort(byCodeUnits),
      collections: [...t.collections].sort(byCodeUnits),
    }));

  return { objectFields, objectCollections, objectTypes };
}
