import { type Selectable, sql } from 'kysely';
import type { PetDiscovery, ServerHopEvent } from '../../../common/fleet.ts';
import type { Db } from '../../db/index.ts';
import type { FleetDiscoveriesTable, FleetHopsTable } from './fleet.table.ts';
import type { MinuteHopCount, ScannerRecord } from './fleet-records.ts';

/*
 * What the fleet reads back from its tables at start: scanners, the latest events, the last hour, today's
 * discoveries and the highest seq, each by an index (a range of created_at, or the newest by seq); the
 * hop totals come from the rollups (fleet-hop-rollups.store.ts), never from every hop.
 */

export async function maxFleetSeq(db: Db): Promise<number> {
  const [hops, discoveries] = await Promise.all([
    db
      .selectFrom('fleet_hops')
      .select((eb) => eb.fn.max('seq').as('m'))
      .executeTakeFirst(),
    db
      .selectFrom('fleet_discoveries')
      .select((eb) => eb.fn.max('seq').as('m'))
      .executeTakeFirst(),
  ]);
  return Math.max(Number(hops?.m ?? 0), Number(discoveries?.m ?? 0));
}

export async function loadScanners(db: Db): Promise<ScannerRecord[]> {
  const rows = await db.selectFrom('fleet_scanners').selectAll().execute();
  return rows.map((r) => ({
    ghostId: r.ghost_id,
    status: r.status,
    scansPerMinute: Number(r.scans_per_minute),
    petsFound: Number(r.pets_found),
    uptime: Number(r.uptime),
    currentJobId: r.current_job_id,
    version: r.version,
    errorReason: r.error_reason,
    lastActivity: Number(r.last_activity),
    firstSeen: Number(r.first_seen),
    rev: 0,
  }));
}

export function hopFromRow(r: Selectable<FleetHopsTable>): ServerHopEvent {
  return {
    id: r.event_id,
    seq: Number(r.seq),
    botId: r.bot_id,
    scannerId: r.bot_id,
    fromJobId: r.from_job_id,
    toJobId: r.to_job_id,
    fromPlaceId: r.from_place_id,
    toPlaceId: r.to_place_id,
    success: Number(r.success) === 1,
    latencyMs: Number(r.latency_ms),
    errorMessage: r.error_message,
    hopReason: r.hop_reason,
    timestamp: new Date(Number(r.created_at)).toISOString(),
    attemptNumber: Number(r.attempt_number),
    totalServersAttempted: Number(r.total_servers_attempted),
  };
}

export function discoveryFromRow(r: Selectable<FleetDiscoveriesTable>): PetDiscovery {
  return {
    id: r.event_id,
    seq: Number(r.seq),
    name: r.name,
    type: r.type,
    value: r.value,
    numericValue: Number(r.numeric_value),
    count: Number(r.count),
    timestamp: new Date(Number(r.created_at)).toISOString(),
    placeid: r.placeid,
    jobid: r.jobid,
    scannerId: r.bot_id,
    botId: r.bot_id,
  };
}

/** The newest `limit` hops and discoveries with created_at >= since, oldest first. */
export async function loadRecentEvents(
  db: Db,
  limit: number,
): Promise<{ hops: ServerHopEvent[]; discoveries: PetDiscovery[] }> {
  const [hops, discoveries] = await Promise.all([
    db.selectFrom('fleet_hops').selectAll().orderBy('seq', 'desc').limit(limit).execute(),
    db.selectFrom('fleet_discoveries').selectAll().orderBy('seq', 'desc').limit(limit).execute(),
  ]);
  return { hops: hops.reverse().map(hopFromRow), discoveries: discoveries.reverse().map(discoveryFromRow) };
}

/** Hops since `since`, counted per minute, bot and outcome (for rates and the chart at start). */
export async function loadHopMinutesSince(db: Db, since: number): Promise<MinuteHopCount[]> {
  // Integer division on both databases (bigint / integer): the minute's number since the epoch.
  const minute = sql<number>`created_at / 60000`;
  const rows = await db
    .selectFrom('fleet_hops')
    .select((eb) => [minute.as('minute'), 'bot_id', 'success', eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy([minute, 'bot_id', 'success'])
    .execute();
  return rows.map((r) => ({
    minute: Number(r.minute),
    botId: r.bot_id,
    success: Number(r.success) === 1,
    hops: Number(r.n),
  }));
}

export async function loadDiscoveryMinutesSince(
  db: Db,
  since: number,
): Promise<Array<{ minute: number; discoveries: number }>> {
  const minute = sql<number>`created_at / 60000`;
  const rows = await db
    .selectFrom('fleet_discoveries')
    .select((eb) => [minute.as('minute'), eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy(minute)
    .execute();
  return rows.map((r) => ({ minute: Number(r.minute), discoveries: Number(r.n) }));
}

export async function countDiscoveriesSince(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('fleet_discoveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
