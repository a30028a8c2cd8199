import { describe, expect, it } from 'vitest';
import {
  type FleetCondition,
  fleetConditionOf,
  type NetworkSwitch,
} from '../../../../common/fleet-condition.ts';
import { healthScoreOf, type Measurements, scoreComponents, systemStatusOf } from './health-score.ts';

const RUNNING: NetworkSwitch = { stopped: false, changedBy: null, reason: null, changedAt: null };
const LAST_HEARD = Date.parse('2026-12-05T09:12:00Z');

/** The fleet's state by the shared rule: `heard` of 70 bots heard from, ghost-07 the last. */
function fleetOf(heard: number, network = RUNNING, expected = 70): FleetCondition {
  return fleetConditionOf(
    { expectedBots: expected, heardBots: heard, lastHeardAt: LAST_HEARD, lastHeardFrom: 'ghost-07' },
    network,
    80,
  );
}

const calm: Measurements = {
  databaseHealth: { responseTime: 2, connectionStatus: 'connected' },
  performanceHealth: {
    averageRequestTime: 4,
    p50RequestTime: 3,
    p95RequestTime: 12,
    requestCount: 40,
    memoryUsage: 3,
    cpuUsage: 5,
  },
  securityHealth: { vulnerabilityScore: 0, activeThreats: 0, weaknesses: [] },
  fleetHealth: {
    totalBots: 70,
    errorBots: 0,
    hopFailureRate: 8,
    poolAvailability: 80,
    condition: fleetOf(70),
  },
};

const scores = (m: Measurements) => Object.fromEntries(scoreComponents(m).map((c) => [c.name, c.score]));

describe('health score', () => {
  it('is 100 and healthy when nothing is wrong', () => {
    const components = scoreComponents(calm);
    expect(components.every((c) => c.score === 100 && c.notes.length === 0)).toBe(true);
    expect(components.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(1);
    expect(healthScoreOf(components, 'live')).toBe(100);
  });

  it('scores each part as documented', () => {
    const troubled: Measurements = {
      databaseHealth: { responseTime: 1100, connectionStatus: 'slow' },
      performanceHealth: { ...calm.performanceHealth, p95RequestTime: 1250, memoryUsage: 90, cpuUsage: 120 },
      securityHealth: { vulnerabilityScore: 45, activeThreats: 10, weaknesses: ['x'] },
      fleetHealth: {
        totalBots: 50,
        errorBots: 10,
        hopFailureRate: 30,
        poolAvailability: 40,
        condition: fleetOf(50, RUNNING, 50),
      },
    };
    // database: 70 at 200 ms down to 20 at 2 s, so 45 at 1.1 s; performance: 100 − 25 (p95) − 12.5
    // (heap) − 25 (CPU); security: 100 − 45; fleet: 100 − 20 (error bots) − 20 (hops) − 10 (pool).
    expect(scores(troubled)).toEqual({ database: 45, performance: 38, security: 55, fleet: 50 });
    // 0.2 × 45 + 0.25 × 38 + 0.3 × 55 + 0.25 × 50 = 47.5
    expect(healthScoreOf(scoreComponents(troubled), 'live')).toBe(48);
    expect(
      scores({ ...calm, databaseHealth: { responseTime: 125, connectionStatus: 'connected' } }).database,
    ).toBe(85);
    expect(
      scores({ ...calm, databaseHealth: { responseTime: 3, connectionStatus: 'disconnected' } }).database,
    ).toBe(0);
  });

  it('uses the score colour bands for the status', () => {
    expect(systemStatusOf(100)).toBe('healthy');
    expect(systemStatusOf(85)).toBe('healthy');
    expect(systemStatusOf(84)).toBe('degraded');
    expect(systemStatusOf(60)).toBe('degraded');
    expect(systemStatusOf(59)).toBe('critical');
  });
});

describe("the health score's fleet part", () => {
  const withFleet = (condition: FleetCondition | null): Measurements => ({
    ...calm,
    fleetHealth: { ...calm.fleetHealth, condition },
  });
  const fleetPart = (m: Measurements) => scoreComponents(m).find((c) => c.name === 'fleet');
  /** The score and status of a report whose other parts are perfect. */
  const overall = (m: Measurements) => {
    const score = healthScoreOf(scoreComponents(m), m.fleetHealth.condition?.state ?? null);
    return { score, status: systemStatusOf(score) };
  };

  it('is 0 when the fleet is down, and makes the report critical however well the rest does', () => {
    const down = withFleet(fleetOf(0));
    expect(down.fleetHealth.condition?.state).toBe('down');
    expect(fleetPart(down)).toMatchObject({ score: 0 });
    expect(fleetPart(down)?.notes).toEqual([
      '0 of 70 bots heard from (0%)',
      'the fleet is down: the health score is held at 59 or below (critical)',
    ]);
    // Weighted, the other three parts alone would make 75.
    expect(overall(down)).toEqual({ score: 59, status: 'critical' });
  });

  it('is 0 when no bot has ever reported', () => {
    const never = withFleet(
      fleetConditionOf(
        { expectedBots: 0, heardBots: 0, lastHeardAt: null, lastHeardFrom: null },
        RUNNING,
        80,
      ),
    );
    expect(fleetPart(never)).toMatchObject({ score: 0 });
    expect(fleetPart(never)?.notes[0]).toBe('no bot has reported yet');
    expect(overall(never).status).toBe('critical');
  });

  it('falls with the share of bots not heard from, and holds a degraded fleet out of healthy', () => {
    const half = withFleet(fleetOf(35));
    expect(half.fleetHealth.condition?.state).toBe('degraded');
    expect(fleetPart(half)?.score).toBe(50);
    // 0.75 × 100 + 0.25 × 50 = 87.5 would be healthy: a degraded fleet holds it at 84.
    expect(overall(half)).toEqual({ score: 84, status: 'degraded' });
    const most = withFleet(fleetOf(55)); // 78%: still degraded
    expect(fleetPart(most)?.score).toBe(78);
    expect(overall(most).status).toBe('degraded');
    const live = withFleet(fleetOf(63)); // 90%: live, 10 points off the fleet part
    expect(fleetPart(live)?.score).toBe(90);
    expect(overall(live)).toEqual({ score: 98, status: 'healthy' });
  });

  it('does not count an emergency stop as a failing fleet, but holds the report out of healthy and names who stopped it', () => {
    const stopped = withFleet(
      fleetOf(0, { stopped: true, changedBy: 'admin (203.0.113.9)', reason: 'ban wave', changedAt: null }),
    );
    expect(stopped.fleetHealth.condition?.state).toBe('stopped');
    expect(fleetPart(stopped)).toMatchObject({
      score: 100,
      notes: [
        'emergency stop by admin (203.0.113.9): not scored as a failure, but the health score is held at 84 or below (degraded) while nothing is scanned',
      ],
    });
    expect(overall(stopped)).toEqual({ score: 84, status: 'degraded' });
  });

  it('leaves the fleet part to its other figures when the state could not be read', () => {
    expect(fleetPart(withFleet(null))?.score).toBe(100);
    expect(overall(withFleet(null))).toEqual({ score: 100, status: 'healthy' });
  });
});
