import type { Kysely } from 'kysely';

/**
 * The base URL a media file was uploaded under (CMS_PUBLIC_URL, else the address of the instance that
 * took the upload). Without CMS_PUBLIC_URL each instance's address differs, so a URL computed by the
 * answering instance would differ between instances behind one load balancer; the recorded base makes
 * every instance list the URL the upload answered with. Null for rows from before: they keep using the
 * answering instance's base, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media').addColumn('public_base', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('public_base').execute();
}
