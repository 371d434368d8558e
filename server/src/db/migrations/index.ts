import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_outbox.js';
import * as m0003 from './0003_content.js';
import * as m0004 from './0004_media.js';
import * as m0005 from './0005_webhooks.js';
import * as m0006 from './0006_keys_objects.js';
import * as m0007 from './0007_definition_sync_secrets.js';
import * as m0009 from './0009_entry_versions.js';
import * as m0010 from './0010_preview_tokens.js';
import * as m0011 from './0011_activity.js';
import * as m0012 from './0012_schedules.js';
import * as m0013 from './0013_shared_limits.js';
import * as m0014 from './0014_media_public_base.js';
import * as m0015 from './0015_preview_url.js';
import * as m0017 from './0017_passwords_page_order.js';
import * as m0018 from './0018_schedule_problems.js';
import * as m0019 from './0019_content_pages.js';
import * as m0020 from './0020_locales.js';
import * as m0021 from './0021_deploy_locales.js';
import * as m0022 from './0022_invitations.js';

/**
 * Every migration, in order. An explicit list (not a folder scan) so the same set runs from
 * `src/` under tsx and from `dist/` after a build, and a missing import is a type error.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_outbox': m0002,
  '0003_content': m0003,
  '0004_media': m0004,
  '0005_webhooks': m0005,
  '0006_keys_objects': m0006,
  '0007_definition_sync_secrets': m0007,
  // No 0008: never committed, and not reusable: the migrator refuses one that sorts before an applied migration.
  '0009_entry_versions': m0009,
  '0010_preview_tokens': m0010,
  '0011_activity': m0011,
  '0012_schedules': m0012,
  '0013_shared_limits': m0013,
  '0014_media_public_base': m0014,
  '0015_preview_url': m0015,
  '0017_passwords_page_order': m0017,
  '0018_schedule_problems': m0018,
  '0019_content_pages': m0019,
  '0020_locales': m0020,
  '0021_deploy_locales': m0021,
  '0022_invitations': m0022,
};
