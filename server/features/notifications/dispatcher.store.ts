import { defaultMaxAgeSeconds, type LateMode } from '../../../common/notifications.ts';
import type { Db } from '../../db/index.ts';

/*
 * The dispatcher's SQL: the destinations it runs a lane for, each lane's due deliveries and their
 * outcomes (its lease is in db/leases.ts). Every write is conditional (a delivery no longer pending
 * is not touched), so two instances racing never both win.
 */

/** What a lane needs of its destination to post. */
export interface LaneDestination {
  id: number;
  name: string;
  kind: string;
  url: string;
  includeJoinData: boolean;
  mentionRoleId: string | null;
  mentionFromValue: number | null;
  /** A find older than this (ms since found) is dropped or posted marked late. */
  maxAgeMs: number;
  lateMode: LateMode;
  /** It gets operator alerts (oldest first, never dropped as too old), not finds. */
  alerts: boolean;
}

/** A due delivery of a lane. */
export interface LaneDelivery {
  id: number;
  attempts: number;
  foundAt: number;
  payload: string;
}

/** The enabled destinations (one lane each). */
export async function listLaneDestinations(db: Db): Promise<LaneDestination[]> {
  const rows = await db
    .selectFrom('notification_destinations')
    .selectAll()
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    kind: r.kind,
    url: r.url,
    includeJoinData: Number(r.include_join_data) === 1,
    mentionRoleId: r.mention_role_id,
    mentionFromValue: r.mention_from_value === null ? null : Number(r.mention_from_value),
    maxAgeMs: (r.max_age_seconds ?? defaultMaxAgeSeconds(Number(r.delay_seconds))) * 1000,
    lateMode: r.late_mode === 'mark' ? 'mark' : 'drop',
    alerts: Number(r.alerts) === 1,
  }));
}

/**
 * A destination's pending deliveries due by `now`. Finds: dearest value tier first (order of
 * magnitude) and newest first within a tier, so after an outage the backlog goes out in the order a
 * buyer values it. Alerts: oldest first, so "down" always comes before its "back".
 */
export async function selectLaneDeliveries(
  db: Db,
  destination: Pick<LaneDestination, 'id' | 'alerts'>,
  now: number,
  limit: number,
): Promise<LaneDelivery[]> {
  let query = db
    .selectFrom('notification_outbox')
    .select(['id', 'attempts', 'found_at', 'payload'])
    .where('destination_id', '=', destination.id)
    .where('item', '=', destination.alerts ? 'alert' : 'find')
    .where('state', '=', 'pending')
    .where('due_at', '<=', now);
  query = destination.alerts
    ? query.orderBy('found_at', 'asc')
    : query.orderBy('value_tier', 'desc').orderBy('found_at', 'desc');
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    attempts: Number(r.attempts),
    foundAt: Number(r.found_at),
    payload: r.payload,
  }));
}

/** Drops a destination's pending deliveries found before `foundBefore` (state 'dropped'); how many. */
export async function dropStaleDeliveries(
  db: Db,
  destinationId: number,
  foundBefore: number,
  reason: string,
): Promise<number> {
  const result = await db
    .updateTable('notification_outbox')
    .set({ state: 'dropped', last_error: reason })
    .where('destination_id', '=', destinationId)
    .where('state', '=', 'pending')
    .where('found_at', '<', foundBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Marks deliveries posted (only those still pending), with what the destination answered for them. */
export async function markDeliveriesSent(
  db: Db,
  ids: number[],
  now: number,
  remoteId: string | null = null,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notification_outbox')
    .set({ state: 'sent', sent_at: now, last_error: null, remote_id: remoteId })
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Notes a failed try: another at `now + afterMs`, counting an attempt when `countAttempt`; a delivery
 * past `maxAttempts` attempts or `giveUpAfterMs` since its find is marked failed instead.
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
