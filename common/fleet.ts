import { z } from 'zod';

/*
 * The fleet's wire contract: what scanner bots send (on /ws or batched to POST /api/bot/events) and
 * what dashboards and feed clients receive. Field names are the spec's (public-and-monitoring.md
 * sections 3 and 7). Bots are trusted only as far as these schemas: every field is bounded.
 */

export const SCANNER_STATUSES = ['active', 'scanning', 'hopping', 'inactive', 'error'] as const;
export type ScannerStatus = (typeof SCANNER_STATUSES)[number];

export const HOP_REASONS = ['manual', 'auto_scan', 'server_full', 'error_recovery', 'performance'] as const;
export type HopReason = (typeof HOP_REASONS)[number];

/**
 * A bot's stable identifier (its "Ghost_ID"): 1 to 64 of A-Z a-z 0-9 _ . - (ASCII only, so it is safe
 * in a URL path, a bus channel name and a log line). Ids such as `__proto__` pass: the server keys bots
 * by Map, never by a plain object.
 */
export const GhostIdSchema = z
  .string({ error: 'ghostId is required' })
  .trim()
  .min(1, 'ghostId must not be empty')
  .max(64, 'ghostId must be at most 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'ghostId may hold letters A-Z a-z, digits 0-9, _ . and - only');

/** A game server instance (Roblox JobId, a GUID). */
export const JobIdSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters');

/** A game (Roblox PlaceId): digits, sent as a number or a string, kept as a string. */
export const PlaceIdSchema = z
  .union([z.number().int().nonnegative(), z.string().trim()])
  .transform(String)
  .pipe(z.string().regex(/^\d{1,20}$/, 'must be a whole number'));

const count = (max: number) =>
  z.number().int('must be a whole number').min(0, 'must not be negative').max(max);

/* ---------- bot -> server ---------- */

export const HelloPayloadSchema = z.strictObject({
  ghostId: GhostIdSchema,
  version: z.string().trim().min(1).max(32),
});

export const BotHeartbeatPayloadSchema = z.object({}).passthrough();

/** A bot's own status report; the server keeps the latest per bot. `uptime` is a percentage. */
export const ScannerStatusReportSchema = z.strictObject({
  status: z.enum(SCANNER_STATUSES),
  scansPerMinute: z.number().min(0).max(100_000).optional(),
  petsFound: count(10_000_000).optional(),
  uptime: z.number().min(0).max(100).optional(),
  currentJobId: JobIdSchema.nullable().optional(),
});

export const ServerHopReportSchema = z.strictObject({
  fromJobId: JobIdSchema.nullable(),
  toJobId: JobIdSchema,
  fromPlaceId: PlaceIdSchema.nullable(),
  toPlaceId: PlaceIdSchema,
  success: z.boolean(),
  latencyMs: count(600_000),
  errorMessage: z.string().max(500).nullable().optional(),
  hopReason: z.enum(HOP_REASONS),
  attemptNumber: z.number().int().min(1).max(1000).default(1),
  totalServersAttempted: z.number().int().min(1).max(1000).default(1),
});

export const PetDiscoveredReportSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  type: z.string().trim().max(50).default(''),
  /** The value text as the game shows it ('$12.5M/s'); parsed with parsePetValue. */
  value: z.string().trim().max(32),
  count: z.number().int().min(1).max(1000).default(1),
  placeid: PlaceIdSchema,
  jobid: JobIdSchema,
});

export const ConfigAckPayloadSchema = z.strictObject({
  version: z.number().int().min(1),
  ok: z.boolean(),
  error: z.string().max(500).optional(),
});

/** Messages a bot may send, with their payload schemas. `hello` must come first on a socket. */
export const BotMessageSchemas = {
  hello: HelloPayloadSchema,
  heartbeat: BotHeartbeatPayloadSchema,
  scanner_status: ScannerStatusReportSchema,
  server_hop: ServerHopReportSchema,
  pet_discovered: PetDiscoveredReportSchema,
  config_ack: ConfigAckPayloadSchema,
} as const;
export type BotMessageType = keyof typeof BotMessageSchemas;

/**
 * POST /api/bot/events: a batch of frames from one bot that cannot hold a socket. `ghostId` comes
 * from the bot's own credential (a different one is refused); the shared bot token must name it.
 */
export const MAX_BOT_EVENTS_PER_BATCH = 500;
export const BotEventsRequestSchema = z.strictObject({
  ghostId: GhostIdSchema.optional(),
  events: z
    .array(
      z.object({
        type: z.string().min(1).max(64),
        payload: z.unknown().default({}),
        id: z.string().max(100).optional(),
        timestamp: z.union([z.number(), z.string().max(50)]).optional(),
      }),
    )
    .min(1, 'events must hold at least one event')
    .max(MAX_BOT_EVENTS_PER_BATCH, `events must hold at most ${MAX_BOT_EVENTS_PER_BATCH} events`),
});

/** POST /api/bot/events: every event applied, its rows committed; `seq` is its stream position. */
/** A frame as the socket sends it: a bot without one is handed these by POST /api/bot/events. */
export const BotFrameSchema = z.object({
  type: z.string(),
  payload: z.unknown(),
  id: z.string(),
  timestamp: z.string(),
});
export type BotFrame = z.infer<typeof BotFrameSchema>;

export const BotEventsResponseSchema = z.object({
  accepted: z.number(),
  results: z.array(
    z.object({
      index: z.number(),
      /** The event's own id, when it had one. */
      id: z.string().optional(),
      seq: z.number().optional(),
      /** Already applied before (an event id seen again): nothing was written twice. */
      duplicate: z.literal(true).optional(),
    }),
  ),
  /**
   * What waits for this bot when it has no socket: its latest `config` until it acknowledges it (a
   * `config_ack` event on its next call), `emergency_stop` / `emergency_resume` when the network's
   * state differs from what it was last told. Empty for a bot with a socket (frames go there).
   */
  frames: z.array(BotFrameSchema),
});

/*
 * ---------- server -> dashboards and feed clients ----------
 * Each payload is a schema and its type is inferred from it: the server builds its frames from the
 * same definitions the admin's socket client checks every frame against.
 */

/** A hop as dashboards receive it (`server_hop`). `seq` is its position in the fleet's event stream. */
export const ServerHopEventSchema = z.object({
  id: z.string(),
  seq: z.number(),
  botId: z.string(),
  scannerId: z.string(),
  fromJobId: z.string().nullable(),
  toJobId: z.string(),
  fromPlaceId: z.string().nullable(),
  toPlaceId: z.string(),
  success: z.boolean(),
  latencyMs: z.number(),
  errorMessage: z.string().nullable(),
  hopReason: z.enum(HOP_REASONS),
  /** ISO time the server received it. */
  timestamp: z.string(),
  attemptNumber: z.number(),
  totalServersAttempted: z.number(),
});
export type ServerHopEvent = z.infer<typeof ServerHopEventSchema>;

/** A pet discovery as stored and served (feed items; the dashboards' Pet Discoveries tab). */
export const PetDiscoverySchema = z.object({
  id: z.string(),
  seq: z.number(),
  name: z.string(),
  type: z.string(),
  value: z.string(),
  /**
   * The value text parsed (parsePetValue): 0 also when the text does not parse, for the dashboards'
   * sorting and badges. Who may see the find is decided from the text (freeTierShare), never this.
   */
  numericValue: z.number(),
  count: z.number(),
  timestamp: z.string(),
  placeid: z.string(),
  /** Null in the feed when the caller's tier does not get join data for this value. */
  jobid: z.string().nullable(),
  scannerId: z.string(),
  botId: z.string(),
});
export type PetDiscovery = z.infer<typeof PetDiscoverySchema>;

/** `live_data` as the spec shapes it, plus the stream position and parsed value. */
export const LiveDataPayloadSchema = z.object({
  eventType: z.literal('pet_discovered'),
  seq: z.number(),
  id: z.string(),
  numericValue: z.number(),
  petData: z.object({
    name: z.string(),
    type: z.string(),
    value: z.string(),
    count: z.number(),
    timestamp: z.string(),
    placeid: z.string(),
    jobid: z.string().nullable(),
  }),
  scannerInfo: z.object({ scannerId: z.string(), botId: z.string() }),
});
export type LiveDataPayload = z.infer<typeof LiveDataPayloadSchema>;

/** The `live_data` message announcing a discovery (the server sends it; tests build it the same way). */
export function liveDataOf(d: PetDiscovery): LiveDataPayload {
  return {
    eventType: 'pet_discovered',
    seq: d.seq,
    id: d.id,
    numericValue: d.numericValue,
    petData: {
      name: d.name,
      type: d.type,
      value: d.value,
      count: d.count,
      timestamp: d.timestamp,
      placeid: d.placeid,
      jobid: d.jobid,
    },
    scannerInfo: { scannerId: d.scannerId, botId: d.botId },
  };
}

export const ScannerSchema = z.object({
  id: z.string(),
  botId: z.string(),
  status: z.enum(SCANNER_STATUSES),
  scansPerMinute: z.number(),
  petsFound: z.number(),
  uptime: z.number(),
  /** Percentage of this bot's hops in the stats window that succeeded. */
  hopSuccessRate: z.number(),
  currentJobId: z.string().nullable(),
  lastActivity: z.string(),
});
export type Scanner = z.infer<typeof ScannerSchema>;

export const NetworkStatsSchema = z.object({
  totalBots: z.number(),
  activeBots: z.number(),
  inactiveBots: z.number(),
  hoppingBots: z.number(),
  scanningBots: z.number(),
  errorBots: z.number(),
  totalScansPerMinute: z.number(),
  totalPetsFound: z.number(),
  averageUptime: z.number(),
  networkHealth: z.number(),
});
export type NetworkStats = z.infer<typeof NetworkStatsSchema>;

/** Spec: 85 until the first scanner report arrives. */
export const INITIAL_NETWORK_HEALTH = 85;

/** Hops and discoveries of one minute, for the charts (the last hour). */
export const FleetMinuteSchema = z.object({
  /** ISO start of the minute. */
  minute: z.string(),
  hopsSucceeded: z.number(),
  hopsFailed: z.number(),
  discoveries: z.number(),
});
export type FleetMinute = z.infer<typeof FleetMinuteSchema>;

/** `hop_stats`: the server's hop statistics (spec "Hop stats", plus the trends and buckets). */
export const SUCCESS_TRENDS = ['Improving', 'Declining'] as const;
export type SuccessTrend = (typeof SUCCESS_TRENDS)[number];

export const HopStatsSchema = z.object({
  /** Every hop kept: those of the last `keptDays` days, across server restarts. */
  totalHops: z.number(),
  successfulHops: z.number(),
  failedHops: z.number(),
  averageLatency: z.number(),
  hopsByReason: z.record(z.enum(HOP_REASONS), z.number()),
  topHoppers: z.array(z.object({ botId: z.string(), hops: z.number() })),
  /** Success percentage over the last 15 and 30 minutes (null with no hops in the window). */
  successRate15m: z.number().nullable(),
  successRate30m: z.number().nullable(),
  /** successTrend of the two rates: null with no hops in the last 15 minutes (no trend without data). */
  trend: z.enum(SUCCESS_TRENDS).nullable(),
  lastHour: z.array(FleetMinuteSchema),
  /** How many days of hops the totals cover (FLEET_RETENTION_DAYS: older hops are deleted). */
  keptDays: z.number(),
});
export type HopStats = z.infer<typeof HopStatsSchema>;

/**
 * Spec: Improving when the 15-minute rate is at least the 30-minute rate. Null while either window
 * has no hops (a silent fleet has no rate to compare, and must not read as Improving).
 */
export function successTrend(rate15m: number | null, rate30m: number | null): SuccessTrend | null {
  if (rate15m === null || rate30m === null) return null;
  return rate15m >= rate30m ? 'Improving' : 'Declining';
}

/**
 * What a dashboard gets on connect (and on a resume it cannot serve exactly): the current state
 * and the latest events, oldest first. `reset` says the events since its cursor were not all kept,
 * so it must replace what it shows rather than append.
 */
export const FleetBackfillPayloadSchema = z.object({
  reset: z.boolean(),
  /** The stream position the dashboard is now at. */
  cursor: z.number(),
  scanners: z.array(ScannerSchema),
  networkStats: NetworkStatsSchema,
  hopStats: HopStatsSchema,
  hops: z.array(ServerHopEventSchema),
  discoveries: z.array(PetDiscoverySchema),
});
export type FleetBackfillPayload = z.infer<typeof FleetBackfillPayloadSchema>;

/**
 * A find as the discovery feed serves it. One hidden from the caller's tier (5–10M/s for FREE) has
 * nothing that links it to the finds the tier sees in clear: no jobid, placeid, botId or scannerId,
 * its timestamp cut to the minute, its seq the find's that released it (docs/rules-licensing.md).
 */
export const FeedDiscoverySchema = PetDiscoverySchema.extend({
  placeid: z.string().nullable(),
  scannerId: z.string().nullable(),
  botId: z.string().nullable(),
});
export type FeedDiscovery = z.infer<typeof FeedDiscoverySchema>;

/** GET /api/script/feed: discoveries after the cursor, oldest first; pass `cursor` as the next `since`. */
export const FeedResponseSchema = z.object({
  discoveries: z.array(FeedDiscoverySchema),
  cursor: z.number(),
  /** The caller's tier as the server applied it. */
  tier: z.enum(['FREE', 'PREMIUM']),
  /** The server's time when it answered (ISO): a find's age is serverTime - its timestamp. */
  serverTime: z.string(),
  /** When the caller's key expires (ISO; null: no key, a FREE key, or one that never expires): time left. */
  keyExpiresAt: z.string().nullable(),
});
export type FeedResponse = z.infer<typeof FeedResponseSchema>;

/**
 * What `/ws/feed` sends an executor (docs/rules-licensing.md, "The discovery feed"), checked in
 * development and tests.
 */
export const FeedSocketSendsSchemas = {
  /** The feed is live from here: the caller's tier and stream position. */
  ready: z.object({
    tier: z.enum(['FREE', 'PREMIUM']),
    cursor: z.number(),
    serverTime: z.string(),
    /** As the long poll's keyExpiresAt. */
    keyExpiresAt: z.string().nullable(),
  }),
  /** The key's expiry changed while the socket is open (a renewal): the new one. */
  key: z.object({ keyExpiresAt: z.string().nullable() }),
  /** One find the tier may see, with the server's time so its age is judged by the server's clock. */
  discovery: FeedDiscoverySchema.extend({ serverTime: z.string() }),
  error: z.object({ error: z.string() }),
} as const;

/** What the bot socket sends a bot besides the configuration feature's frames, checked likewise. */
export const BotSocketSendsSchemas = {
  hello: z.object({ ghostId: z.string(), serverTime: z.number() }),
  heartbeat: z.object({ serverTime: z.number() }),
  /** A numbered frame's rows are committed: its stream position when it got one. */
  ack: z.object({ requestId: z.string(), seq: z.number().optional(), duplicate: z.literal(true).optional() }),
  error: z.object({ error: z.string(), requestId: z.string().optional(), retryAfter: z.number().optional() }),
} as const;

/** DELETE /api/admin/fleet/bots/{ghostId}: the bot, its configuration and its pool leases are gone. */
export const removeBotUrl = (ghostId: string) => `/api/admin/fleet/bots/${encodeURIComponent(ghostId)}`;

export const RemoveBotParamsSchema = z.object({ ghostId: GhostIdSchema });

export const RemoveBotResponseSchema = z.object({
  success: z.literal(true),
  ghostId: z.string(),
  /** Pool servers it held, now available again. */
  releasedServers: z.number(),
});
export type RemoveBotResponse = z.infer<typeof RemoveBotResponseSchema>;
