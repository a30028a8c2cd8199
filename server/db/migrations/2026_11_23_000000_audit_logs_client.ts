import { normalizeIP } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';

/*
 * audit_logs.client: the caller as per-IP limits count it (IPv6 per /64), so the failed-login
 * lockout can count a whole IPv6 block with an index instead of one exact address.
 *
 * Frozen: what it needs of the features is copied here as they were when it was written, so the
 * migration keeps its meaning whatever they become.
 */

/** The failed-login lockout's window (common/auth.ts LOGIN_FAILURE_WINDOW_MS, 2026-11-23). */
const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** IPv4 as it is, IPv6 as its /64 (features/security/client-address.ts limitedClient, 2026-11-23). */
function limitedClient(ip: string): string {
  return ip.includes(':') ? normalizeIP(ip) : ip;
}
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_logs').addColumn('client', 'text').execute();
  await db.schema
    .createIndex('audit_logs_event_client_time')
    .on('audit_logs')
    .columns(['event_type', 'client', 'timestamp'])
    .execute();
  // Only failures the lockout can still see matter; older rows keep a null client.
  const recent = await db
    .selectFrom('audit_logs')
    .select(['id', 'ip_address'])
    .where('event_type', '=', 'admin_login')
    .where('ip_address', 'is not', null)
    .where('timestamp', '>=', Date.now() - LOGIN_FAILURE_WINDOW_MS)
    .execute();
  for (const row of recent) {
    await db
      .updateTable('audit_logs')
      .set({ client: limitedClient(row.ip_address) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_logs_event_client_time').execute();
  await db.schema.alterTable('audit_logs').dropColumn('client').execute();
}
