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

/** POST /api/server-pool/servers */
export const AddPoolServersResponseSchema = z
  .object({
    /** Servers now available thanks to this call: new ones, and ones deleted earlier (full, error) offered again. */
    added: z.number().int(),
    /** Already in the pool (available or assigned), repeated in the call, or quarantined. */
    ignored: z.number().int(),
  })
  .meta({ id: 'PoolServersAdded' });
export type AddPoolServersResponse = z.infer<typeof AddPoolServersResponseSchema>;

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
export const PoolServerSchema = z
  .object({
    jobId: z.string(),
    placeId: z.string(),
    playing: z.number().int().nullable(),
    maxPlayers: z.number().int().nullable(),
    status: z.enum(POOL_SERVER_STATUSES),
    /** The bot holding it (status assigned). */
    assignedTo: z.string().nullable(),
    assignedAt: z.string().nullable(),
    /** Why it was deleted (status deleted). */
    deletedReason: z.string().nullable(),
  })
  .meta({ id: 'PoolServer' });
export type PoolServer = z.infer<typeof PoolServerSchema>;

/** POST /api/server-pool/claim */
export const ClaimServerResponseSchema = z
  .object({
    server: PoolServerSchema,
    /** Release or heartbeat within this many seconds, or the server goes back to the pool. */
    leaseSeconds: z.number(),
  })
  .meta({ id: 'PoolServerClaimed' });
export type ClaimServerResponse = z.infer<typeof ClaimServerResponseSchema>;

/** POST /api/server-pool/release */
export const ReleaseServerResponseSchema = z
  .object({ server: PoolServerSchema })
  .meta({ id: 'PoolServerReleased' });
export type ReleaseServerResponse = z.infer<typeof ReleaseServerResponseSchema>;

export const QuarantinedServerSchema = z
  .object({ jobId: z.string(), placeId: z.string(), reason: z.string(), quarantinedAt: z.string() })
  .meta({ id: 'PoolQuarantinedServer' });
export type QuarantinedServer = z.infer<typeof QuarantinedServerSchema>;

export const FlaggedBotSchema = z
  .object({
    ghostId: z.string(),
    /** Different servers it failed on since its last good release. */
    failedServers: z.number().int(),
    flaggedAt: z.string(),
  })
  .meta({ id: 'PoolFlaggedBot' });
export type FlaggedBot = z.infer<typeof FlaggedBotSchema>;

/**
 * GET /api/server-pool/stats. `total`, `byStatus` and `activeBots` are the spec's, all numbers (the
 * spec's numeric strings were PostgreSQL's bigint leaking through: counts are numbers in every API);
 * the quarantined servers and flagged bots are for the operator (newest first, at most 100 each).
 */
export const ServerPoolStatsSchema = z
  .object({
    /** Servers in the pool now (available + assigned); deleted ones are history, not capacity. */
    total: z.number().int(),
    byStatus: z.object({
      available: z.number().int(),
      assigned: z.number().int(),
      deleted: z.number().int(),
    }),
    /** Unique ghost ids holding an assigned server. */
    activeBots: z.number().int(),
    quarantined: z.array(QuarantinedServerSchema),
    flaggedBots: z.array(FlaggedBotSchema),
  })
  .meta({ id: 'ServerPoolStats' });
export type ServerPoolStats = z.infer<typeof ServerPoolStatsSchema>;

export const ServerPoolStatsResponseSchema = z
  .object({ stats: ServerPoolStatsSchema })
  .meta({ id: 'ServerPoolStatsResponse' });
export type ServerPoolStatsResponse = z.infer<typeof ServerPoolStatsResponseSchema>;

export const SERVER_POOL_TEXTS = {
  noneAvailable: 'No available server in the pool',
  noneAvailableForPlace: (placeId: string) => `No available server in the pool for place ${placeId}`,
  unknownServer: (jobId: string) => `No server ${jobId} in the pool`,
  notHolder: (jobId: string, ghostId: string) => `Server ${jobId} is not assigned to ${ghostId}`,
  fullReason: 'Server full',
  errorReason: 'Bot reported an error',
} as const;
