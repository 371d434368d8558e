import type { Generated, Selectable } from 'kysely';

/** What a definitions sync with the publishable key may do (contract §11). */
export type DefinitionSyncMode = 'additive' | 'locked' | 'open';

export interface ProjectsTable {
  id: string;
  name: string;
  /** Publishable key: public by design (it ships in site bundles), so kept readable. */
  apiKey: string;
  /** JSON array of host names. */
  domains: string;
  cdnUrl: string | null;
  /** The site's page URL template with `{pageId}` (the dashboard's preview pane); null: no preview. */
  previewUrl: string | null;
  bakeEnabled: number;
  /** A DefinitionSyncMode; the column defaults to `additive`. */
  definitionSync: Generated<DefinitionSyncMode>;
  /** The languages (contract §14) as canonical JSON text (src/shared/locales.ts); null: one language. */
  locales: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeployHooksTable {
  projectId: string;
  id: string;
  type: string;
  url: string;
  /**
   * Write-only for clients; sealed at rest (AES-256-GCM, src/shared/secret-box.ts) because it is
   * needed in clear to sign generic calls and authenticate to GitHub.
   */
  secret: string | null;
  position: number;
  createdAt: string;
  updatedAt: string;
}

export type ProjectRow = Selectable<ProjectsTable>;
export type DeployHookRow = Selectable<DeployHooksTable>;
