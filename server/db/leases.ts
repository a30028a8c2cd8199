import type { Db } from './index.ts';

/*
 * Cluster-wide leases: work that one instance at a time must do (the notifications dispatcher, the
 * payments reconciler) is done by whoever holds its lease row. Every write is conditional, so two
 * instances racing for a lease never both win.
 */

/**
 * Takes the lease `name` for `holder` until `now + ttlMs` when it is free, expired or already ours.
 * True when `holder` holds it afterwards.
 */
export async function acquireLease(
  db: Db,
  name: string,
  holder: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('leases')
    .set({ holder, expires_at: now + ttlMs })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return true;
  // No row yet (or someone else's live one): the primary key lets one INSERT win.
  await db
    .insertInto('leases')
    .values({ name, holder, expires_at: now + ttlMs })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('leases')
    .select(['holder', 'expires_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined && row.holder === holder && Number(row.expires_at) > now;
}

/** Gives the lease up (on stop) so another instance takes over at once. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db
    .updateTable('leases')
    .set({ expires_at: 0 })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
