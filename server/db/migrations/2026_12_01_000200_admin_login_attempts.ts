import type { Kysely } from 'kysely';

/*
 * admin_login_attempts: the failed-login lockout's count per client (IPv4 address or IPv6 /64), one
 * row each, so an attempt is reserved with one atomic upsert before its secret is checked (counting
 * audit rows let concurrent guesses all see the same count). admin_credentials.secret_check: a short
 * keyed digest of a generated secret that turns nearly every wrong guess away before scrypt.
 *
 * Frozen: what it needs of the features is copied here as they were when it was written.
 */

/** The lockout's window (common/auth.ts LOGIN_FAILURE_WINDOW_MS, 2026-12-01). */
const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_login_attempts')
    .addColumn('client', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('admin_credentials').addColumn('secret_check', 'text').execute();
  // Failures the old lockout still counted keep counting, so an upgrade hands out no fresh tries.
  const recent = await db
    .selectFrom('audit_logs')
    .select((eb) => ['client', eb.fn.min('timestamp').as('first'), eb.fn.countAll().as('failures')])
    .where('event_type', '=', 'admin_login')
    .where('success', '=', 0)
    .where('client', 'is not', null)
    .where('timestamp', '>=', Date.now() - LOGIN_FAILURE_WINDOW_MS)
    .groupBy('client')
    .execute();
  for (const row of recent) {
    await db
      .insertInto('admin_login_attempts')
      .values({ client: row.client, window_started_at: Number(row.first), attempts: Number(row.failures) })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('admin_credentials').dropColumn('secret_check').execute();
  await db.schema.dropTable('admin_login_attempts').execute();
}
