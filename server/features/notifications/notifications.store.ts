import type { Selectable } from 'kysely';
import {
  type DeliveryState,
  type Destination,
  type DestinationInput,
  type DestinationKind,
  type DestinationStats,
  defaultMaxAgeSeconds,
  type LateMode,
} from '../../../common/notifications.ts';
import type { Db } from '../../db/index.ts';
import type { NotificationDestinationsTable, NotificationOutboxTable } from './notifications.table.ts';
import { maskWebhookUrl } from './webhook-url.ts';

export type DestinationRow = Selectable<NotificationDestinationsTable>;

/** The stored columns of a destination's settings. */
function destinationValues(input: DestinationInput) {
  return {
    name: input.name,
    kind: input.kind,
    url: input.url,
    min_value: input.minValue,
    max_value: input.maxValue,
    pet_names: JSON.stringify(input.petNames),
    delay_seconds: input.delaySeconds,
    include_join_data: input.includeJoinData ? 1 : 0,
    mention_role_id: input.mentionRoleId,
    mention_from_value: input.mentionFromValue,
    enabled: input.enabled ? 1 : 0,
    max_age_seconds: input.maxAgeSeconds,
    late_mode: input.lateMode,
    alerts: input.alerts ? 1 : 0,
  };
}

/** A destination's settings as the service checks them (the URL whole: never sent to a client). */
export function destinationRowToInput(row: DestinationRow): DestinationInput {
  return {
    name: row.name,
    kind: row.kind as DestinationKind,
    url: row.url,
    minValue: row.min_value,
    maxValue: row.max_value,
    petNames: JSON.parse(row.pet_names) as string[],
    delaySeconds: row.delay_seconds,
    includeJoinData: row.include_join_data === 1,
    mentionRoleId: row.mention_role_id,
    mentionFromValue: row.mention_from_value,
    enabled: row.enabled === 1,
    maxAgeSeconds: row.max_age_seconds,
    lateMode: row.late_mode as LateMode,
    alerts: Number(row.alerts) === 1,
  };
}

/** A destination as the API answers it: the URL masked, with its delivery figures. */
export function destinationRowToDestination(row: DestinationRow, stats: DestinationStats): Destination {
  const { url, ...settings } = destinationRowToInput(row);
  return {
    id: row.id,
    ...settings,
    url: maskWebhookUrl(url),
    maxAgeSecondsInEffect: settings.maxAgeSeconds ?? defaultMaxAgeSeconds(settings.delaySeconds),
    disabledReason: row.disabled_reason,
    stats,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function listDestinationRows(db: Db): Promise<DestinationRow[]> {
  return db.selectFrom('notification_destinations').selectAll().orderBy('id').execute();
}

export async function findDestinationRow(db: Db, id: number): Promise<DestinationRow | null> {
  return (
    (await db.selectFrom('notification_destinations').selectAll().where('id', '=', id).executeTakeFirst()) ??
    null
  );
}

export async function insertDestination(db: Db, input: DestinationInput, now: number): Promise<number> {
  const { id } = await db
    .insertInto('notification_destinations')
    .values({ ...destinationValues(input), disabled_reason: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Stores `input` as destination `id`'s settings; `clearDisabledReason` when the admin enables it
 * again (the dispatcher's reason no longer holds). Returns whether it exists.
 */
export async function updateDestination(
  db: Db,
  id: number,
  input: DestinationInput,
  now: number,
  clearDisabledReason: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('notification_destinations')
    .set({
      ...destinationValues(input),
      ...(clearDisabledReason ? { disabled_reason: null } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes destination `id` and, with it, its deliveries (the outbox rows cascade). */
export async function deleteDestination(db: Db, id: number): Promise<boolean> {
  await db.deleteFrom('notification_outbox').where('destination_id', '=', id).execute();
  const result = await db.deleteFrom('notification_destinations').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Sent deliveries a destination's p50/p99 are computed over: the latest ones. */
const TIMING_WINDOW = 10_000;

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? null;
}

/** Delivery figures of destination `id`: counts by state, the latest error, find-to-post times. */
export async function destinationStats(db: Db, id: number): Promise<DestinationStats> {
  const counts = await db
    .selectFrom('notification_outbox')
    .select(['state', db.fn.countAll<number>().as('count')])
    .where('destination_id', '=', id)
    .groupBy('state')
    .execute();
  const countOf = (state: DeliveryState) => Number(counts.find((c) => c.state === state)?.count ?? 0);
  // An error still standing: a delivery that went out since has put it behind.
  const latestError = await db
    .selectFrom('notification_outbox')
    .select('last_error')
    .where('destination_id', '=', id)
    .where('state', 'in', ['pending', 'failed'])
    .where('last_error', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const timings = await db
    .selectFrom('notification_outbox')
    .select(['sent_at', 'found_at'])
    .where('destination_id', '=', id)
    .where('state', '=', 'sent')
    .where('sent_at', 'is not', null)
    .orderBy('sent_at', 'desc')
    .limit(TIMING_WINDOW)
    .execute();
  const ms = timings.map((t) => Number(t.sent_at) - Number(t.found_at)).sort((a, b) => a - b);
  return {
    sent: countOf('sent'),
    pending: countOf('pending'),
    failed: countOf('failed'),
    dropped: countOf('dropped'),
    lastError: latestError?.last_error ?? null,
    p50Ms: percentile(ms, 0.5),
    p99Ms: percentile(ms, 0.99),
  };
}

/** What the outbox writer needs of a destination to match finds against it. */
export interface DestinationRule {
  id: number;
  minValue: number;
  maxValue: number | null;
  /** Lower-case; empty: every pet. */
  petNames: Set<string>;
  delaySeconds: number;
}

/**
 * The destinations finds are written to the outbox for: enabled, not turned off by the dispatcher,
 * and not marked for operator alerts (those get alerts only).
 */
export async function listDestinationRules(db: Db): Promise<DestinationRule[]> {
  const rows = await db
    .selectFrom('notification_destinations')
    .select(['id', 'min_value', 'max_value', 'pet_names', 'delay_seconds'])
    .where('enabled', '=', 1)
    .where('alerts', '=', 0)
    .where('disabled_reason', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    minValue: row.min_value,
    maxValue: row.max_value,
    petNames: new Set((JSON.parse(row.pet_names) as string[]).map((name) => name.toLowerCase())),
    delaySeconds: row.delay_seconds,
  }));
}

export type OutboxInsert = Pick<
  NotificationOutboxTable,
  'destination_id' | 'discovery_seq' | 'payload' | 'found_at' | 'due_at'
> & { value_tier: number; item?: 'find' | 'alert' };

/** Queues posts (pending, no attempt yet); a (destination, find) pair already queued stays as it is. */
export async function insertOutboxRows(db: Db, rows: OutboxInsert[], now: number): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notification_outbox')
    .values(
      rows.map((row) => ({
        ...row,
        state: 'pending',
        attempts: 0,
        created_at: now,
        sent_at: null,
        last_error: null,
        remote_id: null,
      })),
    )
    .onConflict((oc) => oc.columns(['destination_id', 'discovery_seq']).doNothing())
    .execute();
}
