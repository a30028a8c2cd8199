import { describe, expect, it } from 'vitest';
import { decide, fleetHoldMs, type StoredAlertState } from './alert-rules.ts';

const stored = (over: Partial<StoredAlertState> = {}): StoredAlertState => ({
  alertedState: 'live',
  observedState: null,
  divergedSince: null,
  version: 3,
  updatedAt: 0,
  ...over,
});
const HOLD = 60_000;
const STALE = 45_000;

describe('the hysteresis', () => {
  it('says nothing while the look agrees with what was alerted, and ends a divergence when it agrees again', () => {
    expect(decide(stored(), 'live', 1_000, HOLD, STALE)).toEqual({ type: 'none' });
    const diverging = stored({ observedState: 'down', divergedSince: 0, updatedAt: 15_000 });
    expect(decide(diverging, 'live', 30_000, HOLD, STALE)).toEqual({ type: 'settle' });
  });

  it('raises only a divergence that held on every look for the hold time, whatever the bad state became', () => {
    expect(decide(stored(), 'down', 1_000, HOLD, STALE)).toEqual({ type: 'watch', since: 1_000 });
    const diverging = stored({ observedState: 'degraded', divergedSince: 1_000, updatedAt: 45_000 });
    expect(decide(diverging, 'down', 60_999, HOLD, STALE)).toEqual({ type: 'watch', since: 1_000 });
    expect(decide({ ...diverging, updatedAt: 60_999 }, 'down', 61_000, HOLD, STALE)).toEqual({
      type: 'raise',
    });
  });

  it('starts a divergence again when nobody looked for a while, and raises at once with no hold', () => {
    const old = stored({ observedState: 'down', divergedSince: 0, updatedAt: 10_000 });
    expect(decide(old, 'down', 100_000, HOLD, STALE)).toEqual({ type: 'watch', since: 100_000 });
    expect(decide(stored(), 'stopped', 5, 0, STALE)).toEqual({ type: 'raise' });
  });

  it('holds the fleet: a stop or resume at once, worse after the raise time, better after the clear time', () => {
    expect(fleetHoldMs('live', 'stopped', 60, 120)).toBe(0);
    expect(fleetHoldMs('stopped', 'down', 60, 120)).toBe(0);
    expect(fleetHoldMs('live', 'degraded', 60, 120)).toBe(60);
    expect(fleetHoldMs('degraded', 'down', 60, 120)).toBe(60);
    expect(fleetHoldMs('down', 'degraded', 60, 120)).toBe(120);
    expect(fleetHoldMs('down', 'live', 60, 120)).toBe(120);
  });
});
