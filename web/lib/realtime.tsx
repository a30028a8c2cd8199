import { createContext, type ReactNode, useContext } from 'react';
import type { SystemHealthPayload } from '../../common/realtime.ts';

/**
 * CONTRACT STUB — the realtime work replaces the implementation, keeping these exports.
 * The admin layout mounts <RealtimeProvider> once a session is confirmed; screens read useRealtime().
 */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';
export type ConnectionQuality = 'critical' | 'poor' | 'good' | 'excellent';

export interface RealtimeState {
  status: ConnectionStatus;
  quality: ConnectionQuality;
  reconnectAttempts: number;
  /** Epoch ms of the last heartbeat answer, or null. */
  lastHeartbeat: number | null;
  /** The latest system_health payload (connectedClients, status, healthScore...). */
  systemHealth: SystemHealthPayload | null;
  /** Last connection error text, e.g. 'reconnection failed after 10 attempts'. */
  error: string | null;
}

export interface RealtimeApi extends RealtimeState {
  /** Connect again now (resets the attempt count). */
  reconnect(): void;
  /** Sends a frame; false when not connected. */
  send(type: string, payload?: unknown): boolean;
  /** Asks the server for a system_health answer. */
  requestSystemHealth(): void;
}

const offline: RealtimeApi = {
  status: 'disconnected',
  quality: 'critical',
  reconnectAttempts: 0,
  lastHeartbeat: null,
  systemHealth: null,
  error: null,
  reconnect: () => {},
  send: () => false,
  requestSystemHealth: () => {},
};

const RealtimeContext = createContext<RealtimeApi>(offline);

export function RealtimeProvider({ children }: { children: ReactNode }) {
  return <RealtimeContext.Provider value={offline}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeApi {
  return useContext(RealtimeContext);
}
