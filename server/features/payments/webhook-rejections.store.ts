import type { Db } from '../../db/index.ts';
import { type AuditEntry, auditLogValues } from '../security/security.store.ts';

/*
 * Forged webhook posts, counted per address and minute: the first of a minute writes the
 * webhook_rejected audit row, the rest raise the count in its details. The count lives in
 * payment_webhook_rejections under a unique (ip, minute) key, so concurrent posts (two instances
 * too) add up in one row rather than racing to write their own.
 */

/** Rows older than this are no longer counted into (only the current minute is). */
const KEEP_MS = 10 * 60_000;

/** Adds one post to the address's minute; the count so far and the audit row it belongs to. */
export async function countWebhookRejection(
  trx: Db,
  ip: string,
  minute: number,
): Promise<{ count: number; auditLogId: number | null }> {
  const row = await trx
    .insertInto('payment_webhook_rejections')
    .values({ ip, minute, count: 1, audit_log_id: null })
    .onConflict((oc) =>
      oc
        .columns(['ip', 'minute'])
        .doUpdateSet((eb) => ({ count: eb('payment_webhook_rejections.count', '+', 1) })),
    )
    .returning(['count', 'audit_log_id'])
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.count),
    auditLogId: row.audit_log_id === null ? null : Number(row.audit_log_id),
  };
}

/** Writes the minute's audit row and links it to the count. */
export async function insertRejectionAuditRow(
  trx: Db,
  key: { ip: string; minute: number },
  entry: AuditEntry,
  now: number,
): Promise<void> {
  const { id } = await trx
    .insertInto('audit_logs')
    .values(auditLogValues(entry, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('payment_webhook_rejections')
    .set({ audit_log_id: Number(id) })
    .where('ip', '=', key.ip)
    .where('minute', '=', key.minute)
    .execute();
  // Minutes long past are counted into no more.
  await trx
    .deleteFrom('payment_webhook_rejections')
    .where('minute', '<', key.minute - KEEP_MS)
    .execute();
}

/** The minute's audit row with its new details (the count). */
export async function updateRejectionAuditRow(
  trx: Db,
  auditLogId: number,
  details: Record<string, unknown>,
): Promise<void> {
  await trx
    .updateTable('audit_logs')
    .set({ details: JSON.stringify(details) })
    .where('id', '=', auditLogId)
    .execute();
}
