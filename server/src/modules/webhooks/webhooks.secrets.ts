import type { Db } from '../../db/database.js';
import { resealAll, type SecretBox } from '../../shared/secret-box.js';
import * as repo from './webhooks.repository.js';

/** Start-up: seals signing secrets stored in clear or under an older key (see src/secrets-at-rest.ts). */
export async function sealWebhookSecrets(db: Db, box: SecretBox) {
  const rows = await repo.secretsNotSealedWith(db, box.keyId);
  return resealAll(
    rows.map((row) => ({
      secret: row.secret,
      replace: (sealed: string) => repo.replaceSecret(db, row.id, row.secret, sealed),
    })),
    box,
  );
}
