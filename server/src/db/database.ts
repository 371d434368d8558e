import type { Kysely, Transaction } from 'kysely';
import type { ApiKeyProjectsTable, ApiKeysTable } from '../modules/api-keys/api-keys.table.js';
import type {
  LoginFailuresTable,
  SessionsTable,
  SetPasswordTokensTable,
} from '../modules/auth/auth.table.js';
import type {
  ContentEntriesTable,
  ContentPagesTable,
  EntryHistoryTable,
  EntryLocalesTable,
} from '../modules/content/content.table.js';
import type { ComponentDefinitionsTable } from '../modules/definitions/definitions.table.js';
import type { DeploysTable, DeployTriggersTable } from '../modules/deploys/deploys.table.js';
import type { MediaDeletionsTable, MediaTable } from '../modules/media/media.table.js';
import type { ObjectFieldsTable, ObjectItemsTable, ObjectsTable } from '../modules/objects/objects.table.js';
import type { PreviewTokensTable } from '../modules/preview/preview.table.js';
import type { DeployHooksTable, ProjectsTable } from '../modules/projects/projects.table.js';
import type { RateLimitCountsTable } from '../modules/rate-limits/rate-limits.table.js';
import type { SchedulesTable } from '../modules/schedules/schedules.table.js';
import type { AccountsTable, InvitationsTable, MembershipsTable } from '../modules/users/users.table.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../modules/webhooks/webhooks.table.js';
import type { ActivityTable } from '../outbox/activity.table.js';
import type { EventsTable } from '../outbox/events.table.js';

/**
 * Every table, assembled from the per-module table types. Column names are camelCase here and
 * snake_case in SQL (Kysely's CamelCasePlugin mapping, applied by the compiler: src/db/snake-case.ts).
 */
export interface Database {
  projects: ProjectsTable;
  deployHooks: DeployHooksTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
  setPasswordTokens: SetPasswordTokensTable;
  previewTokens: PreviewTokensTable;
  activity: ActivityTable;
  loginFailures: LoginFailuresTable;
  rateLimitCounts: RateLimitCountsTable;
  events: EventsTable;
  componentDefinitions: ComponentDefinitionsTable;
  contentEntries: ContentEntriesTable;
  contentPages: ContentPagesTable;
  entryHistory: EntryHistoryTable;
  entryLocales: EntryLocalesTable;
  apiKeys: ApiKeysTable;
  apiKeyProjects: ApiKeyProjectsTable;
  objects: ObjectsTable;
  objectFields: ObjectFieldsTable;
  objectItems: ObjectItemsTable;
  media: MediaTable;
  mediaDeletions: MediaDeletionsTable;
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
  deploys: DeploysTable;
  deployTriggers: DeployTriggersTable;
  schedules: SchedulesTable;
}

/** What repositories take: the database or an open transaction. */
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbOrTx = Db | Tx;
