import { describe, expect, it } from 'vitest';
import type { HopStats, PetDiscovery, ServerHopEvent } from '../../../../common/fleet.ts';
import { hop } from './fleet-feed.fixtures.ts';
import {
  applyFleetMessages,
  FEED_BUFFERS,
  type FleetMessage,
  INITIAL_FLEET_FEED,
  INITIAL_NETWORK_STATS,
  liveEventOfDiscovery,
  liveEventOfHop,
} from './fleet-feed.ts';

const pet = (seq: number, numericValue: number): PetDiscovery => ({
  id: `pet-${seq}`,
  seq,
  name: 'Dragon',
  type: 'Legendary',
  value: 'x',
  numericValue,
  count: 1,
  timestamp: '2026-11-23T10:00:00.000Z',
  placeid: '1',
  jobid: 'job',
  scannerId: 's7',
  botId: '7',
});

function backfill(
  reset: boolean,
  cursor: number,
  hops: ServerHopEvent[],
  discoveries: PetDiscovery[] = [],
): FleetMessage {
  return {
    type: 'fleet_backfill',
    payload: {
      reset,
      cursor,
      hops,
      discoveries,
      scanners: [],
      networkStats: INITIAL_NETWORK_STATS,
      hopStats: {} as HopStats,
    },
  };
}

const hopMessage = (seq: number): FleetMessage => ({ type: 'server_hop', payload: hop(seq) });

describe('live events', () => {
  it('use the spec texts and severities for hops', () => {
    expect(liveEventOfHop(hop(1))).toMatchObject({
      type: 'server_hop',
      severity: 'success',
      message: 'Bot 7 successfully hopped to new server (120ms)',
    });
    expect(liveEventOfHop(hop(2, { success: false, errorMessage: 'Server full' }))).toMatchObject({
      severity: 'warning',
      message: 'Bot 7 failed to hop: Server full',
    });
    expect(liveEventOfHop(hop(3, { success: false, errorMessage: null })).message).toBe(
      'Bot 7 failed to hop: Unknown error',
    );
  });

  it('rate a discovery success only above 5M', () => {
    expect(liveEventOfDiscovery(pet(1, 5_000_000)).severity).toBe('info');
    expect(liveEventOfDiscovery(pet(2, 5_000_001)).severity).toBe('success');
  });
});

describe('applyFleetMessages', () => {
  it('keeps lists newest first, skips events it already has and counts each once', () => {
    let state = applyFleetMessages(INITIAL_FLEET_FEED, [hopMessage(1), hopMessage(2)], 0);
    state = applyFleetMessages(state, [hopMessage(2), hopMessage(1), hopMessage(3)], 0);
    expect(state.hops.map((h) => h.seq)).toEqual([3, 2, 1]);
    expect(state.liveEvents.map((e) => e.seq)).toEqual([3, 2, 1]);
    expect(state.cursor).toBe(3);
    expect(state.totals).toEqual({ events: 3, hops: 3 });
  });

  it('caps each list at its buffer, newest kept, while the totals keep counting', () => {
    const many = Array.from({ length: FEED_BUFFERS.hops.keep + 50 }, (_, i) => hopMessage(i + 1));
    const state = applyFleetMessages(INITIAL_FLEET_FEED, many, 0);
    expect(state.hops).toHaveLength(FEED_BUFFERS.hops.keep);
    expect(state.hops[0]!.seq).toBe(many.length);
    expect(state.totals.hops).toBe(many.length);
  });

  it('lets a system_health update only the fields it carries', () => {
    const state = applyFleetMessages(
      INITIAL_FLEET_FEED,
      [backfill(false, 0, []), { type: 'system_health', payload: { networkHealth: 40 } }],
      0,
    );
    expect(state.networkStats).toEqual({ ...INITIAL_NETWORK_STATS, networkHealth: 40 });
  });

  it('has no network figures until a snapshot arrives, and makes none up from a system_health', () => {
    expect(INITIAL_FLEET_FEED.networkStats).toBeNull();
    const state = applyFleetMessages(
      INITIAL_FLEET_FEED,
      [{ type: 'system_health', payload: { networkHealth: 40 } }],
      0,
    );
    expect(state.networkStats).toBeNull();
  });

  it('appends a non-reset backfill after what it has, and replaces on reset', () => {
    let state = applyFleetMessages(INITIAL_FLEET_FEED, [backfill(false, 2, [hop(1), hop(2)])], 0);
    state = applyFleetMessages(state, [backfill(false, 3, [hop(2), hop(3)])], 0);
    expect(state.hops.map((h) => h.seq)).toEqual([3, 2, 1]);
    state = applyFleetMessages(state, [backfill(true, 10, [hop(10)])], 0);
    expect(state.hops.map((h) => h.seq)).toEqual([10]);
    expect(state.cursor).toBe(10);
  });

  it('does not count again what a reset backfill shows again', () => {
    let state = applyFleetMessages(INITIAL_FLEET_FEED, [backfill(false, 3, [hop(1), hop(2), hop(3)])], 0);
    expect(state.totals).toEqual({ events: 3, hops: 3 });
    // A slow page is sent a reset: hops 2 and 3 again, then 4 and 5 and a discovery it never had.
    state = applyFleetMessages(state, [backfill(true, 6, [hop(2), hop(3), hop(4), hop(5)], [pet(6, 1)])], 0);
    expect(state.liveEvents.map((e) => e.seq)).toEqual([6, 5, 4, 3, 2]);
    expect(state.totals).toEqual({ events: 6, hops: 5 });
  });
});
