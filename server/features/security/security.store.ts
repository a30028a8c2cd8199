import type { Selectable } from 'kysely';
import type { AuditEventType } from '../../../common/audit-events.ts';
import type { AuditLog } from '../../../common/security.ts';
import { countWhere } from '../../db/aggregates.ts';
import type { Db } from '../../db/index.ts';
import type { AuditLogsTable } from './security.table.ts';

export interface AuditEntry {
  /** One of the events common/audit-events.ts names, so the audit log can show each in plain words. */
  eventType: AuditEventType;
  success: boolean;
  licenseKey?: string | null;
  ipAddress?: string | null;
  hardwareId?: string | null;
  /** The caller as limits count it (limitedClient); only the rows a limit counts need it. */
  client?: string | null;
  details?: Record<string, unknown>;
}

/** The audit_logs row for an entry. */
export function auditLogValues(entry: AuditEntry, timestamp: number) {
  return {
    event_type: entry.eventType,
    success: entry.success ? 1 : 0,
    license_key: entry.licenseKey ?? null,
    ip_address: entry.ipAddress ?? null,
    hardware_id: entry.hardwareId ?? null,
    timestamp,
    client: entry.client ?? null,
    details: JSON.stringify(entry.details ?? {}),
  };
}

export async function insertAuditLog(db: Db, entry: AuditEntry, timestamp: number): Promise<void> {
  await db.insertInto('audit_logs').values(auditLogValues(entry, timestamp)).execute();
}

/** How many `eventType` events with the given outcome a client (limitedClient) caused since `since`. */
export async function countAuditEventsByClient(
  db: Db,
  eventType: string,
  client: string,
  success: boolean,
  since: number,
): Promise<number> {
  const row = await db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_type', '=', eventType)
    .where('client', '=', client)
    .where('success', '=', success ? 1 : 0)
    .where('timestamp', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The stored details, or {} when they are not the JSON object they should be. */
function parseDetails(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function auditLogRowToAuditLog(row: Selectable<AuditLogsTable>): AuditLog {
  return {
    id: row.id,
    eventType: row.event_type,
    success: row.success === 1 ? 1 : 0,
    licenseKey: row.license_key,
    ipAddress: row.ip_address,
    hardwareId: row.hardware_id,
    timestamp: new Date(row.timestamp).toISOString(),
    details: parseDetails(row.details),
  };
}

export interface AuditLogPage {
  /** Events at or after this time. */
  since: number;
  eventType?: string;
  limit: number;
  offset: number;
}

/** One page of events since `since`, newest first (ties by id, so paging never repeats or skips a row). */
export async function listAuditLogs(db: Db, page: AuditLogPage): Promise<AuditLog[]> {
  let query = db.selectFrom('audit_logs').selectAll().where('timestamp', '>=', page.since);
  if (page.eventType) query = query.where('event_type', '=', page.eventType);
  const rows = await query
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(auditLogRowToAuditLog);
}

/** Events since `since`: all of them, and those of `eventType` (all again when it is absent), in one pass. */
export async function countAuditLogs(
  db: Db,
  since: number,
  eventType: string | undefined,
): Promise<{ all: number; matching: number }> {
  const row = await db
    .selectFrom('audit_logs')
    .where('timestamp', '>=', since)
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eventType === undefined
        ? eb.fn.countAll<number>().as('matching')
        : countWhere(eb('event_type', '=', eventType)).as('matching'),
    ])
    .executeTakeFirstOrThrow();
  return { all: Number(row.all), matching: Number(row.matching) };
}

/**
 * Deletes at most `limit` rows older than `before` (through the timestamp index); returns how many.
 * Bounded so a big backlog goes in several short statements (see audit-retention.ts).
 */
export async function deleteAuditLogsBefore(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_logs')
    .where('id', 'in', (eb) =>
      eb.selectFrom('audit_logs').select('id').where('timestamp', '<', before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
