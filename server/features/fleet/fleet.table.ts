import type { HopReason, ScannerStatus } from '../../../common/fleet.ts';

/** One hop a bot reported; `seq` is its position in the fleet's event stream. */
export interface FleetHopsTable {
  seq: number;
  event_id: string;
  bot_id: string;
  from_job_id: string | null;
  to_job_id: string;
  from_place_id: string | null;
  to_place_id: string;
  /** 1 succeeded, 0 failed. */
  success: number;
  latency_ms: number;
  error_message: string | null;
  hop_reason: HopReason;
  attempt_number: number;
  total_servers_attempted: number;
  created_at: number;
}

/** One pet discovery (duplicates within a minute already folded). */
export interface FleetDiscoveriesTable {
  seq: number;
  event_id: string;
  bot_id: string;
  name: string;
  type: string;
  value: string;
  numeric_value: number;
  count: number;
  placeid: string;
  jobid: string;
  created_at: number;
}

/** A scanner's latest reported state. */
export interface FleetScannersTable {
  ghost_id: string;
  status: ScannerStatus;
  scans_per_minute: number;
  pets_found: number;
  uptime: number;
  current_job_id: string | null;
  version: string | null;
  /** Why the server flagged it `error` (e.g. the server pool's failure streak). */
  error_reason: string | null;
  last_activity: number;
  first_seen: number;
}

/**
 * Hops of one UTC day, bot, reason and outcome, added up: the totals the fleet starts from (and reads
 * again after a retention sweep) without counting every hop. Kept in the hops' own transactions.
 */
export interface FleetHopRollupsTable {
  /** The UTC day number (epoch ms / 86,400,000, rounded down) the hops were made on. */
  day: number;
  bot_id: string;
  hop_reason: HopReason;
  /** 1 succeeded, 0 failed. */
  success: number;
  hops: number;
  latency_sum: number;
}
