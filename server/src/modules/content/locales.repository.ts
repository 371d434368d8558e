import type { DbOrTx } from '../../db/database.js';

/**
 * The entries' slots in locales other than the project's default (`entry_locales`, migration 0020). The
 * entry's own row is the default locale's; these hold what each other locale has of its own.
 */

/**
 * The locales other than `except` in which some entry of the project holds a value or a published copy,
 * removed locales included (their values are kept, hidden): PATCH `locales: null` is refused while any
 * exists (contract §17).
 */
export async function localesHoldingValues(db: DbOrTx, projectId: string, except: string): Promise<string[]> {
  const rows = await db
    .selectFrom('entryLocales')
    .select('locale')
    .distinct()
    .where('projectId', '=', projectId)
    .where('locale', '!=', except)
    .where((eb) => eb.or([eb('fields', '!=', '{}'), eb('publishedFields', 'is not', null)]))
    .orderBy('locale')
    .execute();
  return rows.map((r) => r.locale);
}
