import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_outbox.js';

/**
 * Every migration, in order. An explicit list (not a folder scan) so the same set runs from
 * `src/` under tsx and from `dist/` after a build, and a missing import is a type error.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_outbox': m0002,
};
