import {
  type FleetBackfillPayload,
  type HopStats,
  INITIAL_NETWORK_HEALTH,
  type LiveDataPayload,
  type NetworkStats,
  type PetDiscovery,
  type Scanner,
  type ServerHopEvent,
} from '../../../../common/fleet.ts';
import { DEFAULT_TOTAL_BOTS, type SystemHealthPayload } from '../../../../common/realtime.ts';

/*
 * The Live Monitoring page's model of the fleet, without React: what the socket's fleet messages
 * do to it (pure functions, so a resume or a burst can be tested without a socket) and the types the
 * page's tabs read. use-fleet-feed.ts holds it in React state.
 */

export type LiveEventType = 'server_hop' | 'pet_discovery' | 'scanner_activity' | 'network_alert';
export type LiveEventSeverity = 'success' | 'info' | 'warning' | 'error';

/** Spec section 3 "Live event": one line of the Live Event Feed. */
export interface LiveEvent {
  id: string;
  /** The fleet stream position it came from (events are unique by it). */
  seq: number;
  type: LiveEventType;
  timestamp: string;
  scannerId: string;
  botId: string;
  message: string;
  severity: LiveEventSeverity;
  data: ServerHopEvent | PetDiscovery;
}

/** What a figure shows until the server has sent it. */
export const NO_FIGURE = '—';

/**
 * Spec section 9 names three size-limited lists (500/200, 1000/250, 2000/300) without saying which
 * is which. Here: `keep` is how many of a list the page holds (filters search all of it), `show` how
 * many of the newest matches a view lists. The timeline and both feeds render only the rows in view.
 */
export const FEED_BUFFERS = {
  /** Server hops: the Server Hop Timeline lists the newest 200 matches. */
  hops: { keep: 500, show: 200 },
  /** Pet discoveries: the Pet Discoveries tab shows the newest 250 matches. */
  discoveries: { keep: 1000, show: 250 },
  /** Live events (hops and discoveries as feed lines): the Live Events Feed card lists the newest 300. */
  liveEvents: { keep: 2000, show: 300 },
} as const;

/** Spec: pet value thresholds. */
export const VALUE_THRESHOLDS = { high: 500_000, million: 1_000_000, premium: 5_000_000 } as const;

export interface FleetFeedState {
  /** Newest first. */
  hops: ServerHopEvent[];
  /** Newest first. */
  discoveries: PetDiscovery[];
  /** Hops and discoveries as feed lines, newest first. */
  liveEvents: LiveEvent[];
  scanners: Scanner[];
  /**
   * The network figures; null until the first backfill or scanner_status, so the page shows no figure
   * it has not received (a placeholder rather than a start value that looks live).
   */
  networkStats: NetworkStats | null;
  /** The server's hop statistics; null until the first backfill or hop_stats. */
  hopStats: HopStats | null;
  /** The highest seq applied: the resume cursor. Null before the first backfill. */
  cursor: number | null;
  /** Events applied since the page opened (backfills included), counting those the lists no longer hold. */
  totals: { events: number; hops: number };
  /** Epoch ms of the last message applied, or null. */
  lastUpdate: number | null;
}

export const INITIAL_NETWORK_STATS: NetworkStats = {
  totalBots: DEFAULT_TOTAL_BOTS,
  activeBots: 0,
  inactiveBots: 0,
  hoppingBots: 0,
  scanningBots: 0,
  errorBots: 0,
  totalScansPerMinute: 0,
  totalPetsFound: 0,
  averageUptime: 0,
  networkHealth: INITIAL_NETWORK_HEALTH,
};

export const INITIAL_FLEET_FEED: FleetFeedState = {
  hops: [],
  discoveries: [],
  liveEvents: [],
  scanners: [],
  networkStats: null,
  hopStats: null,
  cursor: null,
  totals: { events: 0, hops: 0 },
  lastUpdate: null,
};

/** Spec section 8 feed texts. */
export function hopMessage(hop: ServerHopEvent): string {
  return hop.success
    ? `Bot ${hop.botId} successfully hopped to new server (${hop.latencyMs}ms)`
    : `Bot ${hop.botId} failed to hop: ${hop.errorMessage || 'Unknown error'}`;
}

export function discoveryMessage(discovery: PetDiscovery): string {
  return `Bot ${discovery.botId} found ${discovery.name} (${discovery.value})`;
}

export function liveEventOfHop(hop: ServerHopEvent): LiveEvent {
  return {
    id: hop.id,
    seq: hop.seq,
    type: 'server_hop',
    timestamp: hop.timestamp,
    scannerId: hop.scannerId,
    botId: hop.botId,
    message: hopMessage(hop),
    // Spec section 4: success when the hop succeeded, warning when it failed.
    severity: hop.success ? 'success' : 'warning',
    data: hop,
  };
}

export function liveEventOfDiscovery(discovery: PetDiscovery): LiveEvent {
  return {
    id: discovery.id,
    seq: discovery.seq,
    type: 'pet_discovery',
    timestamp: discovery.timestamp,
    scannerId: discovery.scannerId,
    botId: discovery.botId,
    message: discoveryMessage(discovery),
    // Spec section 4: success above 5M, otherwise info.
    severity: discovery.numericValue > VALUE_THRESHOLDS.premium ? 'success' : 'info',
    data: discovery,
  };
}

export function discoveryOfLiveData(payload: LiveDataPayload): PetDiscovery {
  return {
    id: payload.id,
    seq: payload.seq,
    name: payload.petData.name,
    type: payload.petData.type,
    value: payload.petData.value,
    numericValue: payload.numericValue,
    count: payload.petData.count,
    timestamp: payload.petData.timestamp,
    placeid: payload.petData.placeid,
    jobid: payload.petData.jobid,
    scannerId: payload.scannerInfo.scannerId,
    botId: payload.scannerInfo.botId,
  };
}

/** A fleet message as the page applies it. */
export type FleetMessage =
  | { type: 'fleet_backfill'; payload: FleetBackfillPayload }
  | { type: 'server_hop'; payload: ServerHopEvent }
  | { type: 'live_data'; payload: LiveDataPayload }
  | { type: 'scanner_status'; payload: { scanners: Scanner[]; networkStats: NetworkStats } }
  | { type: 'hop_stats'; payload: HopStats }
  | { type: 'system_health'; payload: Partial<SystemHealthPayload> };

/** Newest-first `items` on top of `list`, capped at `keep`. */
function prepend<T>(list: readonly T[], newestFirst: readonly T[], keep: number): T[] {
  if (newestFirst.length === 0) return list as T[];
  return newestFirst.length >= keep
    ? newestFirst.slice(0, keep)
    : [...newestFirst, ...list.slice(0, keep - newestFirst.length)];
}

/**
 * Applies a batch of messages in arrival order and returns the new state (the same object when
 * nothing changed). Events at or below the cursor are already shown (a resume overlapping what the
 * page had) and are skipped, so none is ever shown twice.
 */
export function applyFleetMessages(state: FleetFeedState, messages: readonly FleetMessage[], now: number) {
  if (messages.length === 0) return state;
  let { hops, discoveries, liveEvents, scanners, networkStats, hopStats, cursor, totals } = state;
  // New events of this batch, oldest first; merged into the lists once at the end.
  let newHops: ServerHopEvent[] = [];
  let newDiscoveries: PetDiscovery[] = [];
  let newEvents: LiveEvent[] = [];
  let eventCount = totals.events;
  let hopCount = totals.hops;
  // Events up to here are in the totals already: a reset backfill shows them again, it does not
  // make them new.
  let countedTo = cursor ?? 0;
  const count = (seq: number, isHop: boolean) => {
    if (seq <= countedTo) return;
    countedTo = seq;
    eventCount += 1;
    if (isHop) hopCount += 1;
  };

  for (const message of messages) {
    switch (message.type) {
      case 'fleet_backfill': {
        const b = message.payload;
        if (b.reset || cursor === null) {
          // The server could not serve the resume exactly: what it sends replaces what was shown.
          hops = [];
          discoveries = [];
          liveEvents = [];
          newHops = [];
          newDiscoveries = [];
          newEvents = [];
          cursor = null;
        }
        for (const hop of b.hops) {
          if (cursor !== null && hop.seq <= cursor) continue;
          newHops.push(hop);
          newEvents.push(liveEventOfHop(hop));
        }
        for (const d of b.discoveries) {
          if (cursor !== null && d.seq <= cursor) continue;
          newDiscoveries.push(d);
          newEvents.push(liveEventOfDiscovery(d));
        }
        newEvents.sort((a, c) => a.seq - c.seq);
        for (const e of newEvents) count(e.seq, e.type === 'server_hop');
        scanners = b.scanners;
        networkStats = b.networkStats;
        hopStats = b.hopStats;
        cursor = Math.max(cursor ?? 0, b.cursor);
        break;
      }
      case 'server_hop': {
        const hop = message.payload;
        if (cursor !== null && hop.seq <= cursor) break;
        newHops.push(hop);
        newEvents.push(liveEventOfHop(hop));
        cursor = hop.seq;
        count(hop.seq, true);
        break;
      }
      case 'live_data': {
        if (cursor !== null && message.payload.seq <= cursor) break;
        const d = discoveryOfLiveData(message.payload);
        newDiscoveries.push(d);
        newEvents.push(liveEventOfDiscovery(d));
        cursor = d.seq;
        count(d.seq, false);
        break;
      }
      case 'scanner_status':
        scanners = message.payload.scanners;
        networkStats = message.payload.networkStats;
        break;
      case 'hop_stats':
        hopStats = message.payload;
        break;
      case 'system_health': {
        // Spec section 4: updates networkHealth, totalBots and activeBots, keeping absent fields.
        // Before the first snapshot (the backfill comes first on every connection) there are no
        // other fields to keep: the three alone would sit beside made-up ones.
        if (networkStats === null) break;
        const h = message.payload;
        networkStats = {
          ...networkStats,
          networkHealth: h.networkHealth ?? networkStats.networkHealth,
          totalBots: h.totalBots ?? networkStats.totalBots,
          activeBots: h.activeBots ?? networkStats.activeBots,
        };
        break;
      }
    }
  }

  return {
    hops: prepend(hops, newHops.reverse(), FEED_BUFFERS.hops.keep),
    discoveries: prepend(discoveries, newDiscoveries.reverse(), FEED_BUFFERS.discoveries.keep),
    liveEvents: prepend(liveEvents, newEvents.reverse(), FEED_BUFFERS.liveEvents.keep),
    scanners,
    networkStats,
    hopStats,
    cursor,
    totals: { events: eventCount, hops: hopCount },
    lastUpdate: now,
  } satisfies FleetFeedState;
}

/** What the Live Activity tab and the rest of the page read (use-fleet-feed.ts). */
export interface FleetFeed extends FleetFeedState {
  /** The lists are frozen (the header's Pause): events keep counting in `pendingEvents`. */
  paused: boolean;
  /** Auto Refresh is OFF: the whole view (figures, lists, scanners) stays as it was when turned off. */
  held: boolean;
  /** Events received and not shown (paused or held), shown when resumed. */
  pendingEvents: number;
  setPaused(paused: boolean): void;
}
