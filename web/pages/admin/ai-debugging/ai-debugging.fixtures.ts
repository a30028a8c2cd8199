import type { AnalysisResult, HealthReport, Recommendation } from '../../../../common/ai-health.ts';
import type { FleetCondition } from '../../../../common/fleet-condition.ts';

/** The fleet's state as the report carries it: all 70 bots heard from, unless `overrides` say otherwise. */
export function fleetCondition(overrides: Partial<FleetCondition> = {}): FleetCondition {
  return {
    state: 'live',
    expectedBots: 70,
    heardBots: 70,
    heardPercent: 100,
    lastHeardAt: '2026-11-23T11:54:58.000Z',
    lastHeardFrom: 'ghost-07',
    stoppedBy: null,
    stoppedReason: null,
    stoppedAt: null,
    ...overrides,
  };
}

/** A healthy report made at `generatedAt`; `overrides` replace whole fields. */
export function healthReport(overrides: Partial<HealthReport> = {}): HealthReport {
  return {
    id: 'report-1',
    healthScore: 91,
    systemStatus: 'healthy',
    generatedAt: '2026-11-23T11:55:00.000Z',
    analysisTime: 340,
    databaseHealth: { responseTime: 0.42, connectionStatus: 'connected' },
    securityHealth: {
      vulnerabilityScore: 20,
      activeThreats: 3,
      weaknesses: ['TRUST_PROXY=true: any client can set X-Forwarded-For'],
    },
    performanceHealth: {
      averageRequestTime: 12.6,
      p50RequestTime: 4.2,
      p95RequestTime: 48,
      requestCount: 1000,
      memoryUsage: 37.25,
      cpuUsage: 8,
    },
    fleetHealth: {
      totalBots: 70,
      errorBots: 2,
      hopFailureRate: 12.5,
      poolAvailability: 64,
      condition: fleetCondition(),
    },
    components: [
      { name: 'database', score: 100, weight: 0.2, notes: [] },
      { name: 'performance', score: 88, weight: 0.25, notes: ['p95 request time 48 ms'] },
      { name: 'security', score: 72, weight: 0.25, notes: ['TRUST_PROXY=true'] },
      { name: 'fleet', score: 41, weight: 0.3, notes: ['12.5% of hops failed in the last hour'] },
    ],
    summary: { status: 'disabled', text: null, model: null, error: null },
    ...overrides,
  };
}

export function finding(overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  return {
    id: 'finding-1',
    severity: 'ERROR',
    analysisType: 'hop_failure_spike',
    subject: 'fleet',
    title: 'Hop failures spiked to 38% a minute',
    description: 'Failed hops rose to 38% against a baseline of 9% over the last 10 minutes.',
    suggestedAction: 'Slow the bots down with the STEALTH profile until the game recovers.',
    frequency: 4,
    createdAt: '2026-11-23T11:40:00.000Z',
    lastSeenAt: '2026-11-23T11:54:00.000Z',
    isResolved: 0,
    resolvedAt: null,
    resolution: null,
    ...overrides,
  };
}

export function recommendation(overrides: Partial<Recommendation> = {}): Recommendation {
  return {
    id: 'rec-1',
    priority: 'HIGH',
    category: 'fleet',
    title: 'Apply STEALTH to ghost-12 and ghost-40',
    description: 'Both bots are being refused by the game far more than the rest.',
    reasoning: 'ghost-12 and ghost-40 failed 31 of 40 hops in the last hour; the fleet failed 9%.',
    estimatedImpact: 'Fewer refused joins and fewer servers marked deleted',
    implementationNotes: 'Applies the built-in STEALTH profile to the two bots; roll back from History.',
    createdAt: '2026-11-23T11:55:00.000Z',
    validUntil: '2099-01-01T00:00:00.000Z',
    isImplemented: 0,
    analysisId: 'finding-1',
    action: { kind: 'apply_profile', profileId: 'stealth', botIds: ['ghost-12', 'ghost-40'] },
    actionLabel: 'Applies the STEALTH profile to ghost-12, ghost-40',
    resolvedAt: null,
    resolution: null,
    ...overrides,
  };
}
