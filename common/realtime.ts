import { z } from 'zod';
import type {
  ConfigurationProgressPayload,
  ConfigurationRollbackPayload,
  ConfigurationUpdatePayload,
  EmergencyControlPayload,
} from './configuration.ts';
import type {
  FleetBackfillPayload,
  HopStats,
  LiveDataPayload,
  NetworkStats,
  Scanner,
  ServerHopEvent,
} from './fleet.ts';

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

export interface SystemHealthPayload {
  status: 'healthy' | 'degraded';
  /** Admin dashboards connected to this server instance. */
  connectedClients: number;
  /** 0–100: 100 while the database answers. */
  healthScore: number;
  /** 0–100: rounded percentage of active bots over total bots. */
  networkHealth: number;
  totalBots: number;
  activeBots: number;
}

export interface ScannerStatusPayload {
  /** The live scanner list (at most 100). */
  scanners: Scanner[];
  /** The network stats recomputed from that list (spec section 4). */
  networkStats: NetworkStats;
}

export const SystemConfigUpdatePayloadSchema = z.object({
  /** Shown in the admin's toast; 'Configuration has been updated' when absent. */
  message: z.string().optional(),
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

/**
 * What the server sends, by type. A feature that publishes a new type adds it here so the web's
 * `useRealtimeMessages(type, …)` hands its screens a typed payload.
 */
export interface ServerMessagePayloads {
  heartbeat: { serverTime: number };
  system_health: SystemHealthPayload;
  scanner_status: ScannerStatusPayload;
  /** On connect, on a resume the server cannot serve exactly, and when a slow dashboard drains. */
  fleet_backfill: FleetBackfillPayload;
  server_hop: ServerHopEvent;
  live_data: LiveDataPayload;
  hop_stats: HopStats;
  system_config_update: SystemConfigUpdatePayload;
  licensing_changed: LicensingChangedPayload;
  /** Live configuration (common/configuration.ts): a push, the emergency toggle, a rollback, acks. */
  configuration_update: ConfigurationUpdatePayload;
  emergency_control: EmergencyControlPayload;
  configuration_rollback: ConfigurationRollbackPayload;
  configuration_progress: ConfigurationProgressPayload;
  /** The server refused a frame; the connection stays open. */
  error: { error: string };
}
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
