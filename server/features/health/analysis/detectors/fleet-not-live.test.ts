import { describe, expect, it } from 'vitest';
import { fleetConditionOf, type NetworkSwitch } from '../../../../../common/fleet-condition.ts';
import { fleetFinding } from './fleet-not-live.ts';

const RUNNING: NetworkSwitch = { stopped: false, changedBy: null, reason: null, changedAt: null };
const HEARD_AT = Date.parse('2026-12-05T09:12:00Z');
const NOW = HEARD_AT + 2 * 60_000;

const fleet = (heardBots: number, network = RUNNING, expectedBots = 70) =>
  fleetConditionOf(
    { expectedBots, heardBots, lastHeardAt: HEARD_AT, lastHeardFrom: 'ghost-07' },
    network,
    80,
  );

describe('fleet_not_live', () => {
  it('says nothing while the fleet is live', () => {
    expect(fleetFinding(fleet(70), NOW, NOW)).toBeNull();
    expect(fleetFinding(fleet(56), NOW, NOW)).toBeNull(); // 80%
  });

  it('is CRITICAL when the fleet is down, with the shared headline naming the last bot heard from', () => {
    expect(fleetFinding(fleet(0), NOW, NOW - 5000)).toMatchObject({
      analysisType: 'fleet_not_live',
      subject: 'down',
      severity: 'CRITICAL',
      title: 'No bot has reported for 2 min — last heard 09:12 UTC from ghost-07',
      suggestedAction: expect.stringContaining("the bots' network"),
      isState: true,
      lastSeenAt: NOW - 5000,
      evidence: {
        kind: 'fleet_not_live',
        state: 'down',
        expectedBots: 70,
        heardBots: 0,
        lastHeardFrom: 'ghost-07',
      },
    });
    const never = fleetConditionOf(
      { expectedBots: 0, heardBots: 0, lastHeardAt: null, lastHeardFrom: null },
      RUNNING,
      80,
    );
    expect(fleetFinding(never, NOW, NOW)).toMatchObject({
      severity: 'CRITICAL',
      title: 'No bot has reported yet',
    });
  });

  it('is an ERROR when the fleet is degraded', () => {
    expect(fleetFinding(fleet(35), NOW, NOW)).toMatchObject({
      subject: 'degraded',
      severity: 'ERROR',
      title: 'Only 35 of 70 bots reporting (50%)',
    });
  });

  it('is a WARNING naming who made an emergency stop, and why', () => {
    const stop = {
      stopped: true,
      changedBy: 'admin (203.0.113.9)',
      reason: 'ban wave',
      changedAt: '2026-12-05T09:10:00.000Z',
    };
    const finding = fleetFinding(fleet(0, stop), NOW, NOW);
    expect(finding).toMatchObject({
      subject: 'stopped',
      severity: 'WARNING',
      title: 'Emergency stop by admin (203.0.113.9): ban wave — bots are told to stop scanning',
      evidence: { stoppedBy: 'admin (203.0.113.9)' },
    });
    expect(finding?.description).toBe(
      'The emergency stop is on, set by admin (203.0.113.9) at 09:10 UTC (ban wave): the bots are told to stop scanning until it is resumed.',
    );
  });
});
