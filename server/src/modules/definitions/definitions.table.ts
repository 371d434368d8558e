import type { Generated, Selectable } from 'kysely';

/** A component registered by the site's SDK for one (page, instance). */
export interface ComponentDefinitionsTable {
  projectId: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  /** JSON array of `{ key, type }`, in the order the site declared them. */
  fields: string;
  /**
   * Where the page shows it: 0, 1, 2… in the order its site renders the page, as syncs send it
   * (page-order.ts). Ties (definitions from before migration 0017, all 0) fall back to instanceKey.
   */
  position: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export type DefinitionRow = Selectable<ComponentDefinitionsTable>;
