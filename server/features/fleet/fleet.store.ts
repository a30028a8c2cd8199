import type { PetDiscovery, ServerHopEvent } from '../../../common/fleet.ts';
import type { Db } from '../../db/index.ts';
import type { ScannerRecord } from './fleet-records.ts';

/*
 * The fleet's writes: hops, discoveries and scanners (the batched writer calls these), and the
 * scanner row a removal checks and deletes (the retention sweep's deletes: fleet-retention.store.ts).
 */

/** PostgreSQL takes at most 65535 parameters per statement; 15 per hop row. */
const INSERT_CHUNK = 1000;

const hopRow = (h: ServerHopEvent) => ({
  seq: h.seq,
  event_id: h.id,
  bot_id: h.botId,
  from_job_id: h.fromJobId,
  to_job_id: h.toJobId,
  from_place_id: h.fromPlaceId,
  to_place_id: h.toPlaceId,
  success: h.success ? 1 : 0,
  latency_ms: h.latencyMs,
  error_message: h.errorMessage,
  hop_reason: h.hopReason,
  attempt_number: h.attemptNumber,
  total_servers_attempted: h.totalServersAttempted,
  created_at: Date.parse(h.timestamp),
});

const discoveryRow = (d: PetDiscovery) => ({
  seq: d.seq,
  event_id: d.id,
  bot_id: d.botId,
  name: d.name,
  type: d.type,
  value: d.value,
  numeric_value: d.numericValue,
  count: d.count,
  placeid: d.placeid,
  jobid: d.jobid ?? '',
  created_at: Date.parse(d.timestamp),
});

const scannerRow = (s: ScannerRecord) => ({
  ghost_id: s.ghostId,
  status: s.status,
  scans_per_minute: s.scansPerMinute,
  pets_found: s.petsFound,
  uptime: s.uptime,
  current_job_id: s.currentJobId,
  version: s.version,
  error_reason: s.errorReason,
  last_activity: s.lastActivity,
  first_seen: s.firstSeen,
});

/**
 * Inserts hops (in the caller's transaction); ones already written (a retried batch) are skipped.
 * Returns the hops it inserted, so they are counted once in the rollups.
 */
export async function insertHops(db: Db, hops: ServerHopEvent[]): Promise<ServerHopEvent[]> {
  const inserted = new Set<number>();
  for (let i = 0; i < hops.length; i += INSERT_CHUNK) {
    const rows = await db
      .insertInto('fleet_hops')
      .values(hops.slice(i, i + INSERT_CHUNK).map(hopRow))
      .onConflict((oc) => oc.column('seq').doNothing())
      .returning('seq')
      .execute();
    for (const r of rows) inserted.add(Number(r.seq));
  }
  return hops.filter((h) => inserted.has(h.seq));
}

/** Inserts discoveries (in the caller's transaction); ones already written are skipped. */
export async function insertDiscoveries(db: Db, discoveries: PetDiscovery[]): Promise<void> {
  for (let i = 0; i < discoveries.length; i += INSERT_CHUNK) {
    await db
      .insertInto('fleet_discoveries')
      .values(discoveries.slice(i, i + INSERT_CHUNK).map(discoveryRow))
      .onConflict((oc) => oc.column('seq').doNothing())
      .execute();
  }
}

/**
 * Scanner rows per statement: 10 values each, under SQLite's 32,766 variables and PostgreSQL's
 * 65,535 parameters.
 */
const SCANNER_CHUNK = 3000;

/**
 * Writes scanners' latest state (in the caller's transaction): one statement per SCANNER_CHUNK
 * bots, where one per bot was a round trip each on PostgreSQL. A bot named twice is written once
 * (its last state): one statement may not update a row twice.
 */
export async function upsertScanners(db: Db, scanners: ScannerRecord[]): Promise<void> {
  const latest = [...new Map(scanners.map((s) => [s.ghostId, s])).values()];
  // In id order, so two instances writing at once lock rows in the same order.
  const rows = latest.sort((a, b) => a.ghostId.localeCompare(b.ghostId)).map(scannerRow);
  for (let i = 0; i < rows.length; i += SCANNER_CHUNK) {
    await db
      .insertInto('fleet_scanners')
      .values(rows.slice(i, i + SCANNER_CHUNK))
      .onConflict((oc) =>
        oc.column('ghost_id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          scans_per_minute: eb.ref('excluded.scans_per_minute'),
          pets_found: eb.ref('excluded.pets_found'),
          uptime: eb.ref('excluded.uptime'),
          current_job_id: eb.ref('excluded.current_job_id'),
          version: eb.ref('excluded.version'),
          error_reason: eb.ref('excluded.error_reason'),
          last_activity: eb.ref('excluded.last_activity'),
        })),
      )
      .execute();
  }
}

/** Deletes a bot's scanner row (its hops and discoveries stay); returns whether there was one. */
export async function deleteScanner(db: Db, ghostId: string): Promise<boolean> {
  const result = await db.deleteFrom('fleet_scanners').where('ghost_id', '=', ghostId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the database holds a scanner row for `ghostId`. */
export async function scannerRowExists(db: Db, ghostId: string): Promise<boolean> {
  const row = await db
    .selectFrom('fleet_scanners')
    .select('ghost_id')
    .where('ghost_id', '=', ghostId)
    .executeTakeFirst();
  return row !== undefined;
}
