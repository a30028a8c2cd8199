import type { HopReason, ServerHopEvent } from '../../../common/fleet.ts';
import type { Db } from '../../db/index.ts';
import type { FleetHopRollupsTable } from './fleet.table.ts';
import { emptyHopTotals, type HopTotals } from './fleet-records.ts';

/*
 * fleet_hop_rollups: hops added up per UTC day, bot, reason and outcome. The writer adds each batch
 * of hops in the transaction that inserts them, the retention sweep takes away what it deletes in
 * the transaction that deletes it, so the rollups always equal a GROUP BY over the hops kept; the
 * totals are read from them (at most days x bots x reasons x 2 rows), never from every hop.
 */

const DAY_MS = 86_400_000;
/** 6 parameters a row: well under PostgreSQL's 65,535 and SQLite's 32,766 a statement. */
const UPSERT_CHUNK = 1000;

/** What a hop counts under, and its latency: from a hop the writer writes or a row the sweep deletes. */
export interface CountedHop {
  bot_id: string;
  hop_reason: HopReason;
  success: number;
  latency_ms: number;
  created_at: number;
}

type RollupRow = FleetHopRollupsTable;

export const countedHop = (hop: ServerHopEvent): CountedHop => ({
  bot_id: hop.botId,
  hop_reason: hop.hopReason,
  success: hop.success ? 1 : 0,
  latency_ms: hop.latencyMs,
  created_at: Date.parse(hop.timestamp),
});

/** `hops` added up per rollup row, times `sign` (-1 to take them away), in key order. */
function rollUp(hops: CountedHop[], sign: 1 | -1): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const h of hops) {
    const day = Math.floor(Number(h.created_at) / DAY_MS);
    const success = Number(h.success);
    const key = `${day}\u0000${h.bot_id}\u0000${h.hop_reason}\u0000${success}`;
    const row = rows.get(key);
    if (row) {
      row.hops += sign;
      row.latency_sum += sign * Number(h.latency_ms);
    } else {
      rows.set(key, {
        day,
        bot_id: h.bot_id,
        hop_reason: h.hop_reason,
        success,
        hops: sign,
        latency_sum: sign * Number(h.latency_ms),
      });
    }
  }
  // In key order, so two instances writing at once lock the same rows in the same order.
  const byKey = (a: RollupRow, b: RollupRow) =>
    a.day - b.day ||
    (a.bot_id < b.bot_id ? -1 : a.bot_id > b.bot_id ? 1 : 0) ||
    (a.hop_reason < b.hop_reason ? -1 : a.hop_reason > b.hop_reason ? 1 : 0) ||
    a.success - b.success;
  return [...rows.values()].sort(byKey);
}

/** Adds rows' figures to the rollups: one multi-row upsert (per 1,000 rows). */
async function upsertRollups(db: Db, rows: RollupRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    await db
      .insertInto('fleet_hop_rollups')
      .values(rows.slice(i, i + UPSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(['day', 'bot_id', 'hop_reason', 'success']).doUpdateSet((eb) => ({
          hops: eb('fleet_hop_rollups.hops', '+', eb.ref('excluded.hops')),
          latency_sum: eb('fleet_hop_rollups.latency_sum', '+', eb.ref('excluded.latency_sum')),
        })),
      )
      .execute();
  }
}

/** Counts hops just inserted into their rollups (in the caller's transaction, the one inserting them). */
export async function addToHopRollups(db: Db, hops: CountedHop[]): Promise<void> {
  if (hops.length > 0) await upsertRollups(db, rollUp(hops, 1));
}

/**
 * Takes hops just deleted out of their rollups (in the caller's transaction, the one deleting them);
 * a rollup left with no hop goes, so a day the sweep has passed leaves no row behind.
 */
export async function subtractFromHopRollups(db: Db, hops: CountedHop[]): Promise<void> {
  if (hops.length === 0) return;
  const rows = rollUp(hops, -1);
  await upsertRollups(db, rows);
  const lastDay = rows.reduce((max, r) => Math.max(max, r.day), 0);
  await db.deleteFrom('fleet_hop_rollups').where('day', '<=', lastDay).where('hops', '<=', 0).execute();
}

/** The totals of every hop kept, added up from the rollups (at start, and after a retention sweep). */
export async function loadHopTotals(db: Db): Promise<HopTotals> {
  const totals = emptyHopTotals();
  const rows = await db
    .selectFrom('fleet_hop_rollups')
    .select((eb) => [
      'bot_id',
      'hop_reason',
      'success',
      eb.fn.sum<number>('hops').as('hops'),
      eb.fn.sum<number>('latency_sum').as('latency'),
    ])
    .groupBy(['bot_id', 'hop_reason', 'success'])
    .execute();
  for (const r of rows) {
    const n = Number(r.hops);
    totals.totalHops += n;
    if (Number(r.success) === 1) totals.successfulHops += n;
    totals.latencySum += Number(r.latency ?? 0);
    // A reason written by an older version is counted in the totals but has no bucket of its own.
    if (Object.hasOwn(totals.byReason, r.hop_reason)) totals.byReason[r.hop_reason] += n;
    totals.byBot.set(r.bot_id, (totals.byBot.get(r.bot_id) ?? 0) + n);
  }
  return totals;
}
