import { byCodeUnits } from '../../shared/canonical.js';
import type { ObjectRow } from './objects.table.js';

/** Objects as read back: fields and collections of one view merged per object (contract §3). */
export type Scalar = string | number | boolean | null;

export interface ObjectView {
  type: string;
  id: string;
  fields: Record<string, Scalar>;
  collections: Record<string, { itemId: string; value: Record<string, unknown> }[]>;
  updatedAt: string;
}

export interface FieldValueRow {
  type: string;
  objectId: string;
  path: string;
  value: string;
}
export interface ItemValueRow {
  type: string;
  objectId: string;
  collection: string;
  itemId: string;
  value: string;
  position: number;
}

const keyOf = (type: string, id: string) => `${type}\u0000${id}`;

/**
 * Sorting happens here rather than in SQL: PostgreSQL's ORDER BY follows the database collation,
 * which can differ from SQLite's byte order; code-unit order is the same everywhere.
 */
export const sortFields = (rows: FieldValueRow[]) =>
  rows.sort(
    (a, b) =>
      byCodeUnits(a.type, b.type) || byCodeUnits(a.objectId, b.objectId) || byCodeUnits(a.path, b.path),
  );

export const sortItems = (rows: ItemValueRow[]) =>
  rows.sort(
    (a, b) =>
      byCodeUnits(a.type, b.type) ||
      byCodeUnits(a.objectId, b.objectId) ||
      byCodeUnits(a.collection, b.collection) ||
      a.position - b.position,
  );

export function buildOverlay(
  objects: ObjectRow[],
  fields: FieldValueRow[],
  items: ItemValueRow[],
  draft: boolean,
): ObjectView[] {
  objects.sort((a, b) => byCodeUnits(a.type, b.type) || byCodeUnits(a.objectId, b.objectId));
  const byKey = new Map<string, ObjectView>();
  const views = objects.map((o) => {
    const view: ObjectView = {
      type: o.type,
      id: o.objectId,
      fields: {},
      collections: {},
      updatedAt: (draft ? o.updatedAt : o.publishedAt) ?? o.updatedAt,
    };
    byKey.set(keyOf(o.type, o.objectId), view);
    return view;
  });
  for (const f of sortFields(fields)) {
    const view = byKey.get(keyOf(f.type, f.objectId));
    if (view) view.fields[f.path] = JSON.parse(f.value) as Scalar;
  }
  for (const i of sortItems(items)) {
    const view = byKey.get(keyOf(i.type, i.objectId));
    if (!view) continue;
    // Own properties only (contract §23): a collection named `constructor` found Object's and the
    // push threw (a 500 on every read of the object).
    const list = Object.hasOwn(view.collections, i.collection) ? view.collections[i.collection]! : [];
    view.collections[i.collection] = list;
    list.push({ itemId: i.itemId, value: JSON.parse(i.value) as Record<string, unknown> });
  }
  return views;
}
