import type { Selectable } from 'kysely';

/** A component registered by the site's SDK for one (page, instance). */
export interface ComponentDefinitionsTable {
  projectId: string;
  pageId: string;
  instanceKey: string;
  componentId: string;
  /** JSON array of `{ key, type }`, in the order the site declared them. */
  fields: string;
  createdAt: string;
  updatedAt: string;
}

export type DefinitionRow = Selectable<ComponentDefinitionsTable>;
