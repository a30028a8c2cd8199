import {
  HOP_REASONS,
  type HopReason,
  type PetDiscovery,
  type ScannerStatus,
  type ServerHopEvent,
} from '../../../common/fleet.ts';

/** A scanner as the server keeps it (the wire `Scanner` is derived from it at read time). */
export interface ScannerRecord {
  ghostId: string;
  /** The last status the bot reported (or `error` the server flagged); `inactive` is derived from silence. */
  status: ScannerStatus;
  scansPerMinute: number;
  petsFound: number;
  uptime: number;
  currentJobId: string | null;
  version: string | null;
  errorReason: string | null;
  lastActivity: number;
  firstSeen: number;
  /**
   * Bumped by each change, so a copy that comes back over the bus after a newer local change (the
   * accepting instance applies its own change at once) does not undo it.
   */
  rev: number;
}

export type FleetEvent =
  | { kind: 'hop'; hop: ServerHopEvent }
  | { kind: 'discovery'; discovery: PetDiscovery };

export type FleetEventWithSeq = FleetEvent & { seq: number };

/** A minute's hops of one bot and outcome, as the database counts them at start. */
export interface MinuteHopCount {
  minute: number;
  botId: string;
  success: boolean;
  hops: number;
}

/** Totals of the hops kept in the database (seeded from it at start, then counted in memory). */
export interface HopTotals {
  totalHops: number;
  successfulHops: number;
  latencySum: number;
  byReason: Record<HopReason, number>;
  byBot: Map<string, number>;
}

export function emptyHopTotals(): HopTotals {
  return {
    totalHops: 0,
    successfulHops: 0,
    latencySum: 0,
    byReason: Object.fromEntries(HOP_REASONS.map((r) => [r, 0])) as Record<HopReason, number>,
    byBot: new Map(),
  };
}

/** Adds counted hops to `totals`. */
export function addToTotals(totals: HopTotals, count: HopCount): void {
  totals.totalHops += count.hops;
  if (count.success) totals.successfulHops += count.hops;
  totals.latencySum += count.latencySum;
  totals.byReason[count.reason] += count.hops;
  totals.byBot.set(count.botId, (totals.byBot.get(count.botId) ?? 0) + count.hops);
}

/** An instance's hops of one minute, bot, reason and outcome, as the others count them. */
export interface HopCount {
  /** The minute's start (epoch ms). */
  minute: number;
  botId: string;
  reason: HopReason;
  success: boolean;
  hops: number;
  latencySum: number;
}
