import type { ServerHopEvent } from '../../../../common/fleet.ts';

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
