import { type SqlBool, sql } from 'kysely';
import { countWhere } from '../../../db/aggregates.ts';
import type { Db } from '../../../db/index.ts';

/*
 * What the detectors read: the system's own records (fleet hops, the audit log, error reports,
 * configuration pushes) over a stretch of time. Queries only; the rules are in detectors/.
 */

/** A span of time, `since` included, `until` not. */
export interface Span {
  since: number;
  until: number;
}

const MINUTE_MS = 60_000;
const minuteOf = sql<number>`created_at - (created_at % ${sql.lit(MINUTE_MS)})`;

/** The fleet's hops per minute (start of the minute, hops, failed), oldest first. */
export async function loadHopMinutes(
  db: Db,
  span: Span,
): Promise<{ minute: number; hops: number; failed: number }[]> {
  const rows = await db
    .selectFrom('fleet_hops')
    .select((eb) => [
      minuteOf.as('minute'),
      eb.fn.countAll<number>().as('hops'),
      countWhere(eb('success', '=', 0)).as('failed'),
    ])
    .where('created_at', '>=', span.since)
    .where('created_at', '<', span.until)
    .groupBy(minuteOf)
    .orderBy(minuteOf)
    .execute();
  return rows.map((r) => ({ minute: Number(r.minute), hops: Number(r.hops), failed: Number(r.failed) }));
}

/** Failed hops grouped by bot and error text (optionally only `botIds`'). */
export async function loadHopFailures(
  db: Db,
  span: Span,
  botIds?: string[],
): Promise<{ botId: string; errorMessage: string | null; failed: number }[]> {
  if (botIds?.length === 0) return [];
  let query = db
    .selectFrom('fleet_hops')
    .select((eb) => ['bot_id', 'error_message', eb.fn.countAll<number>().as('failed')])
    .where('success', '=', 0)
    .where('created_at', '>=', span.since)
    .where('created_at', '<', span.until);
  if (botIds) query = query.where('bot_id', 'in', botIds);
  const rows = await query.groupBy(['bot_id', 'error_message']).execute();
  return rows.map((r) => ({ botId: r.bot_id, errorMessage: r.error_message, failed: Number(r.failed) }));
}

/** Per bot: hops, failures, and failures at or after `newSince` with the last one's time. */
export async function tallyHopsByBot(db: Db, span: Span, newSince: number) {
  const rows = await db
    .selectFrom('fleet_hops')
    .select((eb) => [
      'bot_id',
      eb.fn.countAll<number>().as('hops'),
      countWhere(eb('success', '=', 0)).as('failed'),
      countWhere(eb.and([eb('success', '=', 0), eb('created_at', '>=', newSince)])).as('new_failed'),
      eb.fn.max('created_at').as('last_at'),
    ])
    .where('created_at', '>=', span.since)
    .where('created_at', '<', span.until)
    .groupBy('bot_id')
    .execute();
  return rows.map((r) => ({
    subject: r.bot_id,
    hops: Number(r.hops),
    failed: Number(r.failed),
    newFailed: Number(r.new_failed),
    lastAt: Number(r.last_at),
  }));
}

/**
 * Per game server (place and job id) with at least `minFailed` failures: hops to it, failures, and
 * failures at or after `newSince`. The many servers with fewer are left in the database.
 */
export async function tallyFailingServers(db: Db, span: Span, newSince: number, minFailed: number) {
  // The same expression in SELECT and HAVING (PostgreSQL cannot HAVING on the alias).
  const failed = countWhere(sql<SqlBool>`success = 0`);
  const rows = await db
    .selectFrom('fleet_hops')
    .select((eb) => [
      'to_place_id',
      'to_job_id',
      eb.fn.countAll<number>().as('hops'),
      failed.as('failed'),
      countWhere(eb.and([eb('success', '=', 0), eb('created_at', '>=', newSince)])).as('new_failed'),
      eb.fn.max('created_at').as('last_at'),
    ])
    .where('created_at', '>=', span.since)
    .where('created_at', '<', span.until)
    .groupBy(['to_place_id', 'to_job_id'])
    .having(failed, '>=', minFailed)
    .execute();
  return rows.map((r) => ({
    placeId: r.to_place_id,
    jobId: r.to_job_id,
    hops: Number(r.hops),
    failed: Number(r.failed),
    newFailed: Number(r.new_failed),
    lastAt: Number(r.last_at),
  }));
}

/** The whole fleet's hops and failures. */
export async function countHops(db: Db, span: Span): Promise<{ hops: number; failed: number }> {
  const row = await db
    .selectFrom('fleet_hops')
    .select((eb) => [eb.fn.countAll<number>().as('hops'), countWhere(eb('success', '=', 0)).as('failed')])
    .where('created_at', '>=', span.since)
    .where('created_at', '<', span.until)
    .executeTakeFirstOrThrow();
  return { hops: Number(row.hops), failed: Number(row.failed) };
}

export interface FailedAuditEvent {
  eventType: string;
  timestamp: number;
  client: string | null;
  ipAddress: string | null;
  licenseKey: string | null;
  hardwareId: string | null;
  details: Record<string, unknown>;
}

/** Failed (success 0) audit events of `eventTypes`, oldest first, details parsed. */
export async function loadFailedAuditEvents(
  db: Db,
  eventTypes: readonly string[],
  span: Span,
): Promise<FailedAuditEvent[]> {
  const rows = await db
    .selectFrom('audit_logs')
    .select(['event_type', 'timestamp', 'client', 'ip_address', 'license_key', 'hardware_id', 'details'])
    .where('event_type', 'in', eventTypes)
    .where('success', '=', 0)
    .where('timestamp', '>=', span.since)
    .where('timestamp', '<', span.until)
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    eventType: r.event_type,
    timestamp: Number(r.timestamp),
    client: r.client,
    ipAddress: r.ip_address,
    licenseKey: r.license_key,
    hardwareId: r.hardware_id,
    details: parseDetails(r.details),
  }));
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Error reports the admin UI sent (name, message, when), oldest first. */
export async function loadErrorReports(
  db: Db,
  span: Span,
): Promise<{ name: string; message: string; createdAt: number }[]> {
  const rows = await db
    .selectFrom('error_reports')
    .select(['name', 'message', 'created_at'])
    .where('created_at', '>=', span.since)
    .where('created_at', '<', span.until)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ name: r.name, message: r.message, createdAt: Number(r.created_at) }));
}

/** Configuration targets that failed with `error` (settled within the span), by bot and time. */
export async function loadFailedTargets(
  db: Db,
  error: string,
  span: Span,
): Promise<{ botId: string; respondedAt: number }[]> {
  const rows = await db
    .selectFrom('configuration_targets')
    .select(['bot_id', 'responded_at'])
    .where('state', '=', 'failed')
    .where('error', '=', error)
    .where('responded_at', '>=', span.since)
    .where('responded_at', '<', span.until)
    .execute();
  return rows.map((r) => ({ botId: r.bot_id, respondedAt: Number(r.responded_at) }));
}
