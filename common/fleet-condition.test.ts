import { describe, expect, it } from 'vitest';
import { fleetConditionOf, fleetHeadline } from './fleet-condition.ts';

const running = { stopped: false, changedBy: null, reason: null, changedAt: null };
const at = Date.parse('2026-11-28T09:12:00.000Z');
const hearing = (heardBots: number, expectedBots = 70) => ({
  expectedBots,
  heardBots,
  lastHeardAt: at,
  lastHeardFrom: 'ghost-07',
});
const utc = (iso: string) => iso.slice(11, 16);

describe('the fleet state', () => {
  it('is live from the threshold up, degraded below it, down with nobody heard', () => {
    expect(fleetConditionOf(hearing(70), running, 80).state).toBe('live');
    expect(fleetConditionOf(hearing(56), running, 80).state).toBe('live');
    expect(fleetConditionOf(hearing(55), running, 80).state).toBe('degraded');
    expect(fleetConditionOf(hearing(1), running, 80).state).toBe('degraded');
    expect(fleetConditionOf(hearing(0), running, 80).state).toBe('down');
  });

  it('is down before any bot has reported, and says so', () => {
    const c = fleetConditionOf(
      { expectedBots: 0, heardBots: 0, lastHeardAt: null, lastHeardFrom: null },
      running,
      80,
    );
    expect(c.state).toBe('down');
    expect(fleetHeadline(c, at, utc)).toBe('No bot has reported yet');
  });

  it('names the silence and the last bot heard', () => {
    const c = fleetConditionOf(hearing(0), running, 80);
    expect(fleetHeadline(c, at + 2 * 60_000, utc)).toBe(
      'No bot has reported for 2 min — last heard 09:12 from ghost-07',
    );
  });

  it('is stopped while the emergency stop is on, whoever reports, and names who stopped it', () => {
    const c = fleetConditionOf(
      hearing(70),
      { stopped: true, changedBy: 'admin', reason: 'bad build', changedAt: '2026-11-28T09:00:00.000Z' },
      80,
    );
    expect(c.state).toBe('stopped');
    expect(c.stoppedBy).toBe('admin');
    expect(fleetHeadline(c, at, utc)).toContain('Emergency stop by admin: bad build');
  });
});
