import type { PetDiscovery } from '../../../common/fleet.ts';
import type { Delivery, DeliveryState, OperatorAlert } from '../../../common/notifications.ts';
import type { Db } from '../../db/index.ts';

/*
 * The deliveries as the screen lists them (a find's pet and value; an alert's title and state), a
 * failed one queued again, and what a destination switched between finds and alerts leaves behind.
 */

export interface DeliveryFilter {
  id?: number;
  destinationId?: number;
  state?: DeliveryState;
  limit: number;
}

/** What the list shows of a row's payload: a find's pet and value, an alert's title and state. */
function describedPayload(
  item: string,
  payload: string,
): Pick<Delivery, 'petName' | 'value' | 'numericValue'> {
  if (item === 'alert') {
    const alert = JSON.parse(payload) as Partial<OperatorAlert>;
    return { petName: alert.title ?? '', value: alert.state ?? '', numericValue: 0 };
  }
  const find = JSON.parse(payload) as Partial<PetDiscovery>;
  return { petName: find.name ?? '', value: find.value ?? '', numericValue: find.numericValue ?? 0 };
}

/** Deliveries, newest first, with their destination's name. */
export async function listDeliveries(db: Db, filter: DeliveryFilter): Promise<Delivery[]> {
  let query = db
    .selectFrom('notification_outbox as o')
    .innerJoin('notification_destinations as d', 'd.id', 'o.destination_id')
    .select([
      'o.id',
      'o.destination_id',
      'd.name as destination_name',
      'o.item',
      'o.state',
      'o.attempts',
      'o.payload',
      'o.found_at',
      'o.due_at',
      'o.sent_at',
      'o.last_error',
    ])
    .orderBy('o.id', 'desc')
    .limit(filter.limit);
  if (filter.id !== undefined) query = query.where('o.id', '=', filter.id);
  if (filter.destinationId !== undefined) query = query.where('o.destination_id', '=', filter.destinationId);
  if (filter.state !== undefined) query = query.where('o.state', '=', filter.state);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    destinationId: row.destination_id,
    destinationName: row.destination_name,
    item: row.item === 'alert' ? 'alert' : 'find',
    state: row.state as DeliveryState,
    attempts: row.attempts,
    ...describedPayload(row.item, row.payload),
    foundAt: new Date(Number(row.found_at)).toISOString(),
    dueAt: new Date(Number(row.due_at)).toISOString(),
    sentAt: row.sent_at === null ? null : new Date(Number(row.sent_at)).toISOString(),
    lastError: row.last_error,
  }));
}

/** The state of delivery `id`, or null when there is none. */
export async function findDeliveryState(db: Db, id: number): Promise<DeliveryState | null> {
  const row = await db
    .selectFrom('notification_outbox')
    .select('state')
    .where('id', '=', id)
    .executeTakeFirst();
  return (row?.state as DeliveryState | undefined) ?? null;
}

/** Queues failed delivery `id` again: pending, no attempt counted, due now. Returns whether it was failed. */
export async function retryFailedDelivery(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('notification_outbox')
    .set({ state: 'pending', attempts: 0, due_at: now })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A destination switched between finds and alerts: its pending deliveries of the other kind will
 * never be posted (its lane takes only what it gets now), so they are dropped, saying why.
 */
export async function dropDeliveriesOfOtherItem(
  db: Db,
  destinationId: number,
  alerts: boolean,
): Promise<void> {
  await db
    .updateTable('notification_outbox')
    .set({
      state: 'dropped',
      last_error: alerts ? 'The destination takes operator alerts now' : 'The destination takes finds now',
    })
    .where('destination_id', '=', destinationId)
    .where('state', '=', 'pending')
    .where('item', '=', alerts ? 'find' : 'alert')
    .execute();
}
