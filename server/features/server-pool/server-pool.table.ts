import type { Generated } from 'kysely';
import type { PoolServerStatus } from '../../../common/server-pool.ts';

export interface PoolServersTable {
  id: Generated<number>;
  /** The game server instance (Roblox JobId); unique. */
  job_id: string;
  place_id: string;
  playing: number | null;
  max_players: number | null;
  /** available | assigned | deleted; a claim is the conditional update from available to assigned. */
  status: PoolServerStatus;
  /** The bot holding it while assigned. */
  assigned_to: string | null;
  assigned_at: number | null;
  /**
   * Which of its bot's holding places (1..POOL_MAX_SERVERS_PER_BOT) the server takes while assigned;
   * unique per bot among assigned servers, which is what holds a bot to its limit when claims race.
   */
  hold_slot: number | null;
  deleted_reason: string | null;
  deleted_at: number | null;
  /** Set when enough bots failed on it: it stays deleted, even when offered again. */
  quarantined_at: number | null;
  created_at: number;
  /** Last change of status; claims take the least recently used server first. */
  updated_at: number;
}

/** One `error` release: what quarantine and the bot's failure streak are counted from. */
export interface PoolFailuresTable {
  id: Generated<number>;
  job_id: string;
  ghost_id: string;
  reason: string;
  failed_at: number;
}

/** A bot as the pool knows it. */
export interface PoolBotsTable {
  ghost_id: string;
  /** Its last pool call: keeps its leases alive (beside the fleet's heartbeats). */
  last_seen_at: number;
  /** Its last `ok` release: failures after it are its current streak. */
  last_ok_at: number | null;
  /** Set when it failed on too many different servers in a row; cleared by its next `ok` release. */
  flagged_at: number | null;
  /** Different servers in its current failure streak. */
  failed_servers: Generated<number>;
}

/** Counts kept by triggers (migration P0001): `deleted_servers`, the servers kept as history. */
export interface PoolCountsTable {
  name: string;
  value: number;
}
