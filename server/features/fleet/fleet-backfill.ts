import type { FleetBackfillPayload, PetDiscovery } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import { loadHopTotals } from './fleet-hop-rollups.store.ts';
import {
  countDiscoveriesSince,
  loadDiscoveryMinutesSince,
  loadHopMinutesSince,
  loadRecentEvents,
  loadScanners,
  maxFleetSeq,
} from './fleet-load.store.ts';
import type { FleetEventWithSeq } from './fleet-records.ts';
import {
  BACKFILL_DISCOVERIES,
  BACKFILL_HOPS,
  EVENT_RING_SIZE,
  type FleetState,
  utcDayOf,
} from './fleet-state.ts';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** The feed's view of the stream (fleet-common.md). */
export interface DiscoveryStream {
  /** Discoveries with seq > since, oldest first, at most `limit`; reset=true when `since` is older than what is kept (then the newest `limit`). */
  discoveriesAfter(
    since: number,
    limit: number,
  ): Promise<{ discoveries: PetDiscovery[]; cursor: number; reset: boolean }>;
  /** Every new discovery, on any instance (through the bus), in seq order. Returns unsubscribe. */
  onDiscovery(handler: (discovery: PetDiscovery) => void): () => void;
}

/**
 * Resumes after a restart: seeds the state with what the database holds (scanners, the latest
 * events, the last hour, totals, today's discoveries); returns the highest seq written.
 */
export async function seedFromDatabase(ctx: AppContext, state: FleetState): Promise<number> {
  const { db } = ctx;
  const now = ctx.now();
  const today = utcDayOf(now);
  const [scanners, recent, lastHourHops, lastHourFinds, totals, petsToday, seed] = await Promise.all([
    loadScanners(db),
    loadRecentEvents(db, EVENT_RING_SIZE),
    loadHopMinutesSince(db, now - HOUR_MS),
    loadDiscoveryMinutesSince(db, now - HOUR_MS),
    loadHopTotals(db),
    countDiscoveriesSince(db, today * DAY_MS),
    maxFleetSeq(db),
  ]);
  state.seed({
    scanners,
    ...recent,
    lastHourHops,
    lastHourFinds,
    totals,
    petsToday: { day: today, count: petsToday },
  });
  return seed;
}

/** The whole picture for a dashboard: scanners, stats and the latest events. */
export function backfillOf(state: FleetState, now: number, reset: boolean): FleetBackfillPayload {
  return {
    reset,
    cursor: state.head,
    scanners: state.scannerList(now),
    networkStats: state.networkStats(now),
    hopStats: state.hopStats(now),
    hops: state.hops.latest(BACKFILL_HOPS),
    discoveries: state.discoveries.latest(BACKFILL_DISCOVERIES),
  };
}

/** The events after `since`, oldest first; null when some of them are no longer kept (or `since` is ahead). */
export function eventsAfter(state: FleetState, since: number): FleetEventWithSeq[] | null {
  if (since > state.head) return null;
  return state.events.after(since);
}

/** The feed's cursor reads on the state, and its live discoveries from `onEvent`. */
export function discoveryStream(
  state: FleetState,
  onEvent: (listener: (event: FleetEventWithSeq) => void) => () => void,
): DiscoveryStream {
  return {
    discoveriesAfter: async (since, limit) => discoveriesAfter(state, since, limit),
    onDiscovery: (handler) =>
      onEvent((event) => {
        if (event.kind === 'discovery') handler(event.discovery);
      }),
  };
}

function discoveriesAfter(
  state: FleetState,
  since: number,
  limit: number,
): { discoveries: PetDiscovery[]; cursor: number; reset: boolean } {
  const ring = state.discoveries;
  const after = since <= state.head ? ring.after(since) : null;
  if (after === null) {
    const discoveries = ring.latest(limit);
    return { discoveries, cursor: discoveries.at(-1)?.seq ?? state.head, reset: true };
  }
  const discoveries = after.slice(0, limit);
  return { discoveries, cursor: discoveries.at(-1)?.seq ?? Math.max(since, 0), reset: false };
}
