import { z } from 'zod';

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
  connectedClients: number;
  healthScore: number;
  networkHealth: number;
  totalBots: number;
  activeBots: number;
}

export interface ServerMessagePayloads {
  heartbeat: { serverTime: number };
  system_health: SystemHealthPayload;
  error: { error: string };
}
export type ServerMessageType = keyof ServerMessagePayloads;

export const SOCKET_PATH = '/ws';
