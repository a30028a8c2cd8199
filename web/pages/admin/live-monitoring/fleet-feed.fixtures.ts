import type {
  FleetBackfillPayload,
  HopStats,
  NetworkStats,
  Scanner,
  ServerHopEvent,
} from '../../../../common/fleet.ts';
import { INITIAL_NETWORK_STATS } from './fleet-feed.ts';

/** A successful auto_scan hop by bot 7 at 10:00 UTC; `over` changes what a test is about. */
export function hop(seq: number, over: Partial<ServerHopEvent> = {}): ServerHopEvent {
  return {
    id: `hop-${seq}`,
    seq,
    botId: '7',
    scannerId: 'scanner-7',
    fromJobId: 'aaaaaaaa-1111-2222',
    toJobId: 'bbbbbbbb-3333-4444',
    fromPlaceId: '100',
    toPlaceId: '200',
    success: true,
    latencyMs: 120,
    errorMessage: null,
    hopReason: 'auto_scan',
    timestamp: '2026-11-23T10:00:00.000Z',
    attemptNumber: 1,
    totalServersAttempted: 1,
    ...over,
  };
}

/** An active scanner of bot `botId`, last heard at 10:00 UTC. */
export function scanner(botId: string, over: Partial<Scanner> = {}): Scanner {
  return {
    id: `scanner-${botId}`,
    botId,
    status: 'active',
    scansPerMinute: 12,
    petsFound: 3,
    uptime: 99,
    hopSuccessRate: 90,
    currentJobId: 'fedcba9876543210-more',
    lastActivity: '2026-11-23T10:00:00.000Z',
    ...over,
  };
}

/** Hop statistics of a server that has seen no hop. */
export const HOP_STATS: HopStats = {
  totalHops: 0,
  successfulHops: 0,
  failedHops: 0,
  averageLatency: 0,
  hopsByReason: { manual: 0, auto_scan: 0, server_full: 0, error_recovery: 0, performance: 0 },
  topHoppers: [],
  successRate15m: null,
  successRate30m: null,
  trend: 'Improving',
  lastHour: [],
  keptDays: 7,
};

/** What the server sends a dashboard on connect: an empty fleet unless `over` says otherwise. */
export function backfill(over: Partial<FleetBackfillPayload> = {}): FleetBackfillPayload {
  return {
    reset: false,
    cursor: 0,
    scanners: [],
    networkStats: INITIAL_NETWORK_STATS,
    hopStats: HOP_STATS,
    hops: [],
    discoveries: [],
    ...over,
  };
}

/** Network figures with `over` changed. */
export const networkStats = (over: Partial<NetworkStats> = {}): NetworkStats => ({
  ...INITIAL_NETWORK_STATS,
  ...over,
});
