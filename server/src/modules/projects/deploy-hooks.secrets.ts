import type { Db } from '../../db/database.js';
import { resealAll, type SecretBox } from '../../shared/secret-box.js';
import * as repo from './projects.repository.js';

/** Start-up: seals deploy-hook secrets stored in clear or under an older key (see src/secrets-at-rest.ts). */
export async function sealDeployHookSecrets(db: Db, box: SecretBox) {
  const rows = await repo.deployHookSecretsNotSealedWith(db, box.keyId);
  return resealAll(
    rows.map((row) => ({
      secret: row.secret,
      replace: (sealed: string) => repo.replaceDeployHookSecret(db, row, row.secret, sealed),
    })),
    box,
  );
}
