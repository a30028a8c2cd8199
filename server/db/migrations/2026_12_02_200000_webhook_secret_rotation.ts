import type { Kysely } from 'kysely';

/*
 * A webhook secret replaced in System Configuration keeps verifying for a grace period: the one
 * before the current, until when it verifies, and when a delivery last came signed with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_settings').addColumn('previous_webhook_secret', 'text').execute();
  await db.schema
    .alterTable('payment_settings')
    .addColumn('previous_webhook_secret_expires_at', 'bigint')
    .execute();
  await db.schema
    .alterTable('payment_settings')
    .addColumn('previous_webhook_secret_used_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_settings').dropColumn('previous_webhook_secret_used_at').execute();
  await db.schema.alterTable('payment_settings').dropColumn('previous_webhook_secret_expires_at').execute();
  await db.schema.alterTable('payment_settings').dropColumn('previous_webhook_secret').execute();
}
