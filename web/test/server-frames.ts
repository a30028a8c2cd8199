import type { ServerHopEvent } from '../../common/fleet.ts';
import type { FleetCondition } from '../../common/fleet-condition.ts';
import type { SystemHealthPayload } from '../../common/realtime.ts';

/*
 * Whole payloads of the server's frames, as the socket client accepts them (it drops a frame whose
 * payload does not fit its kind's schema): tests change only the fields they are about.
 */

/** A server_hop by `botId`, numbered by its seq. */
export function serverHop(seq: number, over: Partial<ServerHopEvent> = {}): ServerHopEvent {
  return {
    id: `hop-${seq}`,
    seq,
    botId: 'bot-1',
    scannerId: 'scanner-1',
    fromJobId: null,
    toJobId: 'job-2',
    fromPlaceId: null,
    toPlaceId: '920587237',
    success: true,
    latencyMs: 120,
    errorMessage: null,
    hopReason: 'auto_scan',
    timestamp: '2026-11-25T10:00:00.000Z',
    attemptNumber: 1,
    totalServersAttempted: 1,
    ...over,
  };
}

/** A healthy server with no bot reporting yet. */
export function systemHealth(over: Partial<SystemHealthPayload> = {}): SystemHealthPayload {
  return {
    status: 'healthy',
    connectedClients: 1,
    healthScore: 100,
    networkHealth: 85,
    totalBots: 70,
    activeBots: 0,
    fleet: null,
    ...over,
  };
}

/** A live fleet of 70, all heard from, ghost-07 last; tests change the state and what goes with it. */
export function fleetCondition(over: Partial<FleetCondition> = {}): FleetCondition {
  return {
    state: 'live',
    expectedBots: 70,
    heardBots: 70,
    heardPercent: 100,
    lastHeardAt: new Date().toISOString(),
    lastHeardFrom: 'ghost-07',
    stoppedBy: null,
    stoppedReason: null,
    stoppedAt: null,
    ...over,
  };
}

/** The fleet silent since `lastHeardAt`, ghost-07 the last heard. */
export const fleetDown = (lastHeardAt: string): FleetCondition =>
  fleetCondition({ state: 'down', heardBots: 0, heardPercent: 0, lastHeardAt });
