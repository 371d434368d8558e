import type { Db } from './db/database.js';
import { sealDeployHookSecrets } from './modules/projects/index.js';
import { sealWebhookSecrets } from './modules/webhooks/index.js';
import { type SecretBox, SecretBoxError } from './shared/secret-box.js';

/**
 * Every table holding secrets the server must read back (an explicit list, as src/jobs/handlers.ts
 * lists jobs). Each module seals its own rows.
 */
const SWEEPS = [
  { what: 'webhook signing secrets', seal: sealWebhookSecrets },
  { what: 'deploy hook secrets', seal: sealDeployHookSecrets },
] as const;

/**
 * The start-up step of the server (buildApp) and of the stand-alone worker: seals every secret stored
 * in clear (rows from before encryption) or under CMS_ENCRYPTION_KEY_PREVIOUS with the current key.
 * Idempotent and safe with several instances starting at once (compare-and-set writes); a later start
 * finds nothing to do. A secret that no configured key opens stops the start with one message, so a
 * wrong or lost key is found at once rather than as failed deliveries.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<{ sealed: number }> {
  let sealed = 0;
  const problems: string[] = [];
  for (const sweep of SWEEPS) {
    const result = await sweep.seal(db, box);
    sealed += result.sealed;
    if (result.unreadable.length > 0) {
      const ids = [...new Set(result.unreadable.map((e) => e.keyId ?? 'none'))].join(', ');
      problems.push(`${result.unreadable.length} ${sweep.what} (key ids: ${ids})`);
    }
  }
  if (problems.length > 0) {
    throw new SecretBoxError(
      `Stored secrets cannot be decrypted with CMS_ENCRYPTION_KEY (id ${box.keyId}) or CMS_ENCRYPTION_KEY_PREVIOUS: ${problems.join('; ')}. Start with the key they were sealed with (as CMS_ENCRYPTION_KEY, or CMS_ENCRYPTION_KEY_PREVIOUS during a rotation); without CMS_ENCRYPTION_KEY the key is the file encryption.key in CMS_DATA_DIR.`,
      null,
    );
  }
  return { sealed };
}
