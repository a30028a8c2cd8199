import { z } from 'zod';
import { GhostIdSchema, JobIdSchema, PlaceIdSchema } from './fleet.ts';

/*
 * The server pool: game servers waiting for a scanner bot. Bots add servers they find, claim one to
 * scan (a lease they keep by heartbeating), and release it with the outcome. The admin's Server Pool
 * Monitor reads the stats (spec section 3, "Server pool stats").
 */

export const POOL_SERVER_STATUSES = ['available', 'assigned', 'deleted'] as const;
export type PoolServerStatus = (typeof POOL_SERVER_STATUSES)[number];

export const RELEASE_OUTCOMES = ['ok', 'full', 'error'] as const;
export type ReleaseOutcome = (typeof RELEASE_OUTCOMES)[number];

/** Servers one `POST /api/server-pool/servers` may carry. */
export const MAX_POOL_SERVERS_PER_CALL = 500;

const playerCount = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(0, `${field} must not be negative`)
    .max(10_000, `${field} must be at most 10000`);

export const NewPoolServerSchema = z.strictObject({
  placeId: PlaceIdSchema,
  jobId: JobIdSchema,
  playing: playerCount('playing').nullable().optional(),
  maxPlayers: playerCount('maxPlayers').nullable().optional(),
});
export type NewPoolServer = z.output<typeof NewPoolServerSchema>;

/** POST /api/server-pool/servers: always a list, even of one. */
export const AddPoolServersRequestSchema = z.strictObject(
  {
    servers: z
      .array(NewPoolServerSchema, {
        error: 'servers must be a list of {placeId, jobId, playing?, maxPlayers?}',
      })
      .min(1, 'servers must hold at least one server')
      .max(MAX_POOL_SERVERS_PER_CALL, `servers must hold at most ${MAX_POOL_SERVERS_PER_CALL} servers`),
  },
  { error: 'Request body must be a JSON object' },
);

export interface AddPoolServersResponse {
  /** Servers now available thanks to this call: new ones, and ones deleted earlier (full, error) offered again. */
  added: number;
  /** Already in the pool (available or assigned), repeated in the call, or quarantined. */
  ignored: number;
}

/** POST /api/server-pool/claim */
export const ClaimServerRequestSchema = z.strictObject(
  { ghostId: GhostIdSchema, placeId: PlaceIdSchema.optional() },
  { error: 'Request body must be a JSON object' },
);

export const ReleaseServerRequestSchema = z.strictObject(
  {
    ghostId: GhostIdSchema,
    jobId: JobIdSchema,
    outcome: z.enum(RELEASE_OUTCOMES, { error: "outcome must be 'ok', 'full' or 'error'" }),
    reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional(),
  },
  { error: 'Request body must be a JSON object' },
);

/** A game server as the pool hands it out (claim, release). */
export interface PoolServer {
  jobId: string;
  placeId: string;
  playing: number | null;
  maxPlayers: number | null;
  status: PoolServerStatus;
  /** The bot holding it (status assigned). */
  assignedTo: string | null;
  assignedAt: string | null;
  /** Why it was deleted (status deleted). */
  deletedReason: string | null;
}

export interface ClaimServerResponse {
  server: PoolServer;
  /** Release or heartbeat within this many seconds, or the server goes back to the pool. */
  leaseSeconds: number;
}

export interface ReleaseServerResponse {
  server: PoolServer;
}

export interface QuarantinedServer {
  jobId: string;
  placeId: string;
  reason: string;
  quarantinedAt: string;
}

export interface FlaggedBot {
  ghostId: string;
  /** Different servers it failed on since its last good release. */
  failedServers: number;
  flaggedAt: string;
}

/**
 * GET /api/server-pool/stats. `total`, `byStatus` and `activeBots` are the spec's, all numbers (the
 * spec's numeric strings were PostgreSQL's bigint leaking through: counts are numbers in every API);
 * the quarantined servers and flagged bots are for the operator (newest first, at most 100 each).
 */
export interface ServerPoolStats {
  /** Servers in the pool now (available + assigned); deleted ones are history, not capacity. */
  total: number;
  byStatus: { available: number; assigned: number; deleted: number };
  /** Unique ghost ids holding an assigned server. */
  activeBots: number;
  quarantined: QuarantinedServer[];
  flaggedBots: FlaggedBot[];
}

export interface ServerPoolStatsResponse {
  stats: ServerPoolStats;
}

export const SERVER_POOL_TEXTS = {
  noneAvailable: 'No available server in the pool',
  noneAvailableForPlace: (placeId: string) => `No available server in the pool for place ${placeId}`,
  unknownServer: (jobId: string) => `No server ${jobId} in the pool`,
  notHolder: (jobId: string, ghostId: string) => `Server ${jobId} is not assigned to ${ghostId}`,
  fullReason: 'Server full',
  errorReason: 'Bot reported an error',
} as const;
