import type { Db } from '../../db/index.ts';

/*
 * The dispatcher's SQL: the due deliveries and their outcomes (its lease is in db/leases.ts). Every
 * write is conditional (a delivery no longer pending is not touched), so two instances racing never
 * both win.
 */

/** A due delivery with what its destination needs to post it. */
export interface DueDelivery {
  id: number;
  destinationId: number;
  attempts: number;
  foundAt: number;
  payload: string;
  destination: {
    id: number;
    name: string;
    kind: string;
    url: string;
    includeJoinData: boolean;
    mentionRoleId: string | null;
    mentionFromValue: number | null;
  };
}

/**
 * Pending deliveries due by `now` to enabled destinations, oldest first, leaving out the
 * destinations in `skip` (waiting out a rate limit or a backoff: their backlog must not fill the
 * batch and hold the others back).
 */
export async function selectDueDeliveries(
  db: Db,
  now: number,
  limit: number,
  skip: number[] = [],
): Promise<DueDelivery[]> {
  let query = db
    .selectFrom('notification_outbox as o')
    .innerJoin('notification_destinations as d', 'd.id', 'o.destination_id')
    .select([
      'o.id',
      'o.destination_id',
      'o.attempts',
      'o.found_at',
      'o.payload',
      'd.name',
      'd.kind',
      'd.url',
      'd.include_join_data',
      'd.mention_role_id',
      'd.mention_from_value',
    ])
    .where('o.state', '=', 'pending')
    .where('o.due_at', '<=', now)
    .where('d.enabled', '=', 1);
  if (skip.length > 0) query = query.where('o.destination_id', 'not in', skip);
  const rows = await query.orderBy('o.due_at').orderBy('o.id').limit(limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    destinationId: Number(r.destination_id),
    attempts: Number(r.attempts),
    foundAt: Number(r.found_at),
    payload: r.payload,
    destination: {
      id: Number(r.destination_id),
      name: r.name,
      kind: r.kind,
      url: r.url,
      includeJoinData: Number(r.include_join_data) === 1,
      mentionRoleId: r.mention_role_id,
      mentionFromValue: r.mention_from_value === null ? null : Number(r.mention_from_value),
    },
  }));
}

/** Marks deliveries posted (only those still pending). */
export async function markDeliveriesSent(db: Db, ids: number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notification_outbox')
    .set({ state: 'sent', sent_at: now, last_error: null })
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Schedules another try at `now + afterMs`, counting an attempt when `countAttempt`; a delivery past
 * `maxAttempts` attempts or `giveUpAfterMs` since its find is marked failed instead.
 */
export async function scheduleDeliveryRetry(
  db: Db,
  ids: number[],
  now: number,
  options: {
    afterMs: number;
    error: string;
    countAttempt: boolean;
    maxAttempts: number;
    giveUpAfterMs: number;
  },
): Promise<void> {
  if (ids.length === 0) return;
  const step = options.countAttempt ? 1 : 0;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('notification_outbox')
      .set((eb) => ({ state: 'failed', attempts: eb('attempts', '+', step), last_error: options.error }))
      .where('id', 'in', ids)
      .where('state', '=', 'pending')
      .where((eb) =>
        eb.or([
          eb('attempts', '>=', options.maxAttempts - step),
          eb('found_at', '<=', now - options.giveUpAfterMs),
        ]),
      )
      .execute();
    await trx
      .updateTable('notification_outbox')
      .set((eb) => ({
        attempts: eb('attempts', '+', step),
        due_at: now + options.afterMs,
        last_error: options.error,
      }))
      .where('id', 'in', ids)
      .where('state', '=', 'pending')
      .execute();
  });
}

/** Marks deliveries failed for good (their post will never be accepted). */
export async function markDeliveriesFailed(db: Db, ids: number[], error: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notification_outbox')
    .set((eb) => ({ state: 'failed', attempts: eb('attempts', '+', 1), last_error: error }))
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Turns a destination off with the reason (its webhook is gone or refuses us). Its deliveries stay
 * pending with the error, for when the admin fixes and enables it again.
 */
export async function disableDestination(
  db: Db,
  destinationId: number,
  reason: string,
  now: number,
  deliveryIds: number[],
  error: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('notification_destinations')
      .set({ enabled: 0, disabled_reason: reason, updated_at: now })
      .where('id', '=', destinationId)
      .execute();
    if (deliveryIds.length > 0) {
      await trx
        .updateTable('notification_outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error }))
        .where('id', 'in', deliveryIds)
        .where('state', '=', 'pending')
        .execute();
    }
  });
}
