import { describe, expect, it } from 'vitest';
import { healthScoreOf, type Measurements, scoreComponents, systemStatusOf } from './health-score.ts';

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
  fleetHealth: { totalBots: 70, errorBots: 0, hopFailureRate: 8, poolAvailability: 80 },
};

const scores = (m: Measurements) => Object.fromEntries(scoreComponents(m).map((c) => [c.name, c.score]));

describe('health score', () => {
  it('is 100 and healthy when nothing is wrong', () => {
    const components = scoreComponents(calm);
    expect(components.every((c) => c.score === 100 && c.notes.length === 0)).toBe(true);
    expect(components.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(1);
    expect(healthScoreOf(components)).toBe(100);
  });

  it('scores each part as documented', () => {
    const troubled: Measurements = {
      databaseHealth: { responseTime: 1100, connectionStatus: 'slow' },
      performanceHealth: { ...calm.performanceHealth, p95RequestTime: 1250, memoryUsage: 90, cpuUsage: 120 },
      securityHealth: { vulnerabilityScore: 45, activeThreats: 10, weaknesses: ['x'] },
      fleetHealth: { totalBots: 50, errorBots: 10, hopFailureRate: 30, poolAvailability: 40 },
    };
    // database: 70 at 200 ms down to 20 at 2 s, so 45 at 1.1 s; performance: 100 − 25 (p95) − 12.5
    // (heap) − 25 (CPU); security: 100 − 45; fleet: 100 − 20 (error bots) − 20 (hops) − 10 (pool).
    expect(scores(troubled)).toEqual({ database: 45, performance: 38, security: 55, fleet: 50 });
    // 0.2 × 45 + 0.25 × 38 + 0.3 × 55 + 0.25 × 50 = 47.5
    expect(healthScoreOf(scoreComponents(troubled))).toBe(48);
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
