import type { Selectable } from 'kysely';

/**
 * Schemaless objects. Values are JSON text; SQL NULL in a `published*` column means "not in the
 * published view" (a JSON null value is the text `null`). See migration 0006 for the layout.
 */
export interface ObjectsTable {
  projectId: string;
  type: string;
  objectId: string;
  createdAt: string;
  /** Last save of any kind (the draft overlay's updatedAt). */
  updatedAt: string;
  /** Last published save (the published view's updatedAt); null until first published. */
  publishedAt: string | null;
}

export interface ObjectFieldsTable {
  projectId: string;
  type: string;
  objectId: string;
  /** Dotted path of a flattened field (`seo.title`). */
  path: string;
  draftValue: string;
  publishedValue: string | null;
}

export interface ObjectItemsTable {
  projectId: string;
  type: string;
  objectId: string;
  collection: string;
  itemId: string;
  draftValue: string | null;
  draftPosition: number | null;
  publishedValue: string | null;
  publishedPosition: number | null;
  /** The last save that sent this item (see migration 0006). */
  saveId: string;
}

export type ObjectRow = Selectable<ObjectsTable>;
export type ObjectFieldRow = Selectable<ObjectFieldsTable>;
export type ObjectItemRow = Selectable<ObjectItemsTable>;
