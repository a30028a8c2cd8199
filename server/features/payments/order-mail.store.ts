import type { Db } from '../../db/index.ts';

/*
 * The order mail's state on its order row: made due in the transaction that makes the code (once,
 * whichever instance settles), claimed by one instance at a time, then sent, retried or given up.
 */

/** In the code's transaction: the mail is to be sent now. */
export async function markOrderMailDue(trx: Db, id: string, now: number): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ mail_state: 'due', mail_next_at: now, mail_attempts: 0, mail_error: null })
    .where('id', '=', id)
    .where('mail_state', 'is', null)
    .execute();
}

/**
 * Takes the due mail for `leaseMs` (one conditional update: of two instances, one sends it). False
 * when it is not due, or another instance holds it.
 */
export async function claimOrderMail(db: Db, id: string, now: number, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ mail_claimed_until: now + leaseMs })
    .where('id', '=', id)
    .where('mail_state', '=', 'due')
    .where('mail_next_at', '<=', now)
    .where((eb) => eb.or([eb('mail_claimed_until', 'is', null), eb('mail_claimed_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Orders whose mail is due now, the longest waiting first. */
export async function listDueOrderMails(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('mail_state', '=', 'due')
    .where('mail_next_at', '<=', now)
    .orderBy('mail_next_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

export async function markOrderMailSent(db: Db, id: string, attempts: number, now: number): Promise<void> {
  await db
    .updateTable('orders')
    .set({
      mail_state: 'sent',
      mail_sent_at: now,
      mail_attempts: attempts,
      mail_error: null,
      mail_claimed_until: null,
    })
    .where('id', '=', id)
    .execute();
}

/** A failed attempt: due again at `retryAt`, or failed for good (null). */
export async function markOrderMailFailed(
  db: Db,
  id: string,
  failure: { attempts: number; error: string; retryAt: number | null },
): Promise<void> {
  await db
    .updateTable('orders')
    .set({
      mail_state: failure.retryAt === null ? 'failed' : 'due',
      mail_next_at: failure.retryAt,
      mail_attempts: failure.attempts,
      mail_error: failure.error,
      mail_claimed_until: null,
    })
    .where('id', '=', id)
    .execute();
}
