import type { Db } from '../../db/index.ts';

export interface AuditEntry {
  eventType: string;
  success: boolean;
  licenseKey?: string | null;
  ipAddress?: string | null;
  hardwareId?: string | null;
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
    details: JSON.stringify(entry.details ?? {}),
  };
}

export async function insertAuditLog(db: Db, entry: AuditEntry, timestamp: number): Promise<void> {
  await db.insertInto('audit_logs').values(auditLogValues(entry, timestamp)).execute();
}

/** How many `eventType` events with the given outcome an IP caused since `since`. */
export async function countAuditEventsByIp(
  db: Db,
  eventType: string,
  ipAddress: string,
  success: boolean,
  since: number,
): Promise<number> {
  const row = await db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_type', '=', eventType)
    .where('ip_address', '=', ipAddress)
    .where('success', '=', success ? 1 : 0)
    .where('timestamp', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
