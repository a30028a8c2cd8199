import { z } from 'zod';
import {
  ConfigurationProgressPayloadSchema,
  ConfigurationRollbackPayloadSchema,
  ConfigurationUpdatePayloadSchema,
  EmergencyControlPayloadSchema,
} from './configuration.ts';
import {
  FleetBackfillPayloadSchema,
  HopStatsSchema,
  LiveDataPayloadSchema,
  NetworkStatsSchema,
  ScannerSchema,
  ServerHopEventSchema,
} from './fleet.ts';
import { FleetConditionSchema } from './fleet-condition.ts';

/**
 * Every socket frame, both ways: {type, payload, id, timestamp}.
 * Message types live in the maps below; a new feature adds its type and payload schema there.
 */
export const FrameSchema = z.object({
  type: z.string().min(1).max(64),
  payload: z.unknown().default({}),
  id: z.string().max(100).optional(),
  timestamp: z.union([z.number(), z.string().max(50)]).optional(),
});
export type Frame = z.infer<typeof FrameSchema>;

export const HeartbeatPayloadSchema = z.object({}).passthrough();
export const SystemHealthRequestSchema = z.object({}).passthrough();

/** Messages a dashboard may send, with their payload schemas. */
export const ClientMessageSchemas = {
  heartbeat: HeartbeatPayloadSchema,
  system_health: SystemHealthRequestSchema,
  scanner_status: z.object({}).passthrough(),
  server_hop: z.object({}).passthrough(),
} as const;
export type ClientMessageType = keyof typeof ClientMessageSchemas;

export const SystemHealthPayloadSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  /** Admin dashboards connected to this server instance. */
  connectedClients: z.number(),
  /** 0–100: 100 while the database answers. */
  healthScore: z.number(),
  /** 0–100: rounded percentage of active bots over total bots. */
  networkHealth: z.number(),
  totalBots: z.number(),
  activeBots: z.number(),
  /** The fleet's one state (common/fleet-condition.ts); null when the database could not say. */
  fleet: FleetConditionSchema.nullable(),
});
export type SystemHealthPayload = z.infer<typeof SystemHealthPayloadSchema>;

export const ScannerStatusPayloadSchema = z.object({
  /** The live scanner list (at most 100). */
  scanners: z.array(ScannerSchema),
  /** The network stats recomputed from that list (spec section 4). */
  networkStats: NetworkStatsSchema,
});
export type ScannerStatusPayload = z.infer<typeof ScannerStatusPayloadSchema>;

export const SystemConfigUpdatePayloadSchema = z.object({
  /** Shown in the admin's toast; 'Configuration has been updated' when absent. */
  message: z.string().optional(),
  /**
   * The browser tab whose save this was (its X-Server-Id): that tab has already said so with its own
   * toast and shows no second one, which would otherwise replace the first when it arrives later.
   */
  from: z.string().max(64).optional(),
});
export type SystemConfigUpdatePayload = z.infer<typeof SystemConfigUpdatePayloadSchema>;

/**
 * Keys, codes or bindings changed (a code redeemed, a key created, revoked or deleted, a device
 * unbound): admin screens showing licensing figures refresh. Coalesced per dashboard, so a burst
 * arrives as one; `entity` names the last change.
 */
export const LicensingChangedPayloadSchema = z.object({
  entity: z.enum(['license_key', 'script_key', 'redemption_code', 'hardware_binding']),
});
export type LicensingChangedPayload = z.infer<typeof LicensingChangedPayloadSchema>;

/** The server refused a frame; the connection stays open. `requestId` names the frame when it had an id. */
export const ErrorPayloadSchema = z.object({
  error: z.string(),
  requestId: z.string().optional(),
  /** Seconds to wait before sending again (a bot over its budget). */
  retryAfter: z.number().optional(),
});

/**
 * What the server sends, by type, with each payload's schema. A feature that publishes a new type
 * adds it here: the server builds its frames from these, the admin's socket client drops a frame
 * that does not match, and the web's `useRealtimeMessages(type, …)` hands its screens a typed payload.
 */
export const ServerMessageSchemas = {
  heartbeat: z.object({ serverTime: z.number() }),
  system_health: SystemHealthPayloadSchema,
  scanner_status: ScannerStatusPayloadSchema,
  /** On connect, on a resume the server cannot serve exactly, and when a slow dashboard drains. */
  fleet_backfill: FleetBackfillPayloadSchema,
  server_hop: ServerHopEventSchema,
  live_data: LiveDataPayloadSchema,
  hop_stats: HopStatsSchema,
  system_config_update: SystemConfigUpdatePayloadSchema,
  licensing_changed: LicensingChangedPayloadSchema,
  /** Live configuration (common/configuration.ts): a push, the emergency toggle, a rollback, acks. */
  configuration_update: ConfigurationUpdatePayloadSchema,
  emergency_control: EmergencyControlPayloadSchema,
  configuration_rollback: ConfigurationRollbackPayloadSchema,
  configuration_progress: ConfigurationProgressPayloadSchema,
  error: ErrorPayloadSchema,
} as const;

export type ServerMessagePayloads = {
  [T in keyof typeof ServerMessageSchemas]: z.infer<(typeof ServerMessageSchemas)[T]>;
};
export type ServerMessageType = keyof ServerMessagePayloads;

/** A frame as the server sends it: id is random, timestamp an ISO string. */
export interface ServerFrame<T extends string = string, P = unknown> {
  type: T;
  payload: P;
  id: string;
  timestamp: string;
}

export const SOCKET_PATH = '/ws';

/** Port the socket uses when the page is served from a local host without a port (spec: 5000). */
export const LOCAL_SOCKET_PORT = 5000;

/** Spec: default total bots 70 (shown as 'of N total bots' until the fleet reports). */
export const DEFAULT_TOTAL_BOTS = 70;

/** Spec, section 9: the socket's timing constants, shared by the client and its tests. */
export const SOCKET_TIMING = {
  maxReconnectAttempts: 10,
  reconnectBaseMs: 2000,
  reconnectFactor: 1.5,
  reconnectMaxMs: 30_000,
  heartbeatIntervalMs: 30_000,
  connectionTimeoutMs: 10_000,
  qualityCheckIntervalMs: 10_000,
  /** Incoming socket messages are handled at most this often. */
  messageThrottleMs: 100,
} as const;

/** The server delivers at most one update of each replaceable kind per this window to one dashboard. */
export const COALESCE_WINDOW_MS = 100;

/** Spec text for the socket's give-up error. */
export const reconnectionFailedText = (attempts: number) => `reconnection failed after ${attempts} attempts`;
export const CONNECTION_TIMEOUT_TEXT = 'connection timeout';
export const CONNECTION_ERROR_TEXT = 'connection error';
export const SYSTEM_CONFIG_UPDATED_TEXT = 'Configuration has been updated';
