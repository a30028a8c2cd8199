import {
  HEALTH_SCORE_BANDS,
  type HealthReport,
  type ScoreComponent,
  type SystemStatus,
} from '../../../../common/ai-health.ts';
import type { FleetStateName } from '../../../../common/fleet-condition.ts';
import { SLOW_DATABASE_MS } from './database-probe.ts';

/*
 * The health score (0–100) is the weighted sum of four component scores, each 0–100:
 *
 *   healthScore = round(0.20 × database + 0.25 × performance + 0.30 × security + 0.25 × fleet)
 *
 * - database: 100 up to 50 ms; falls linearly to 70 at 200 ms (SLOW_DATABASE_MS, 'slow' beyond), then
 *   to 20 at 2 s and stays there; 0 when disconnected.
 * - performance: 100 minus p95 request time past 500 ms (up to 50 points at 2 s), heap use past 80%
 *   (up to 25 at 100%) and CPU past 80% of one core (up to 25 at 100%).
 * - security: 100 − vulnerabilityScore (security-posture.ts).
 * - fleet: 100 minus the share of the known bots not heard from (1 point per %: a fleet that is down
 *   scores 0), the share of bots in error (1 point per %, up to 40), the last hour's hop failure
 *   rate past 10% (1 point per %, up to 40: some servers are always full) and pool availability
 *   under 50% (1 point per %, up to 30, the Server Pool Monitor's warning line). During an emergency
 *   stop the bots not heard from cost nothing: the operator chose it.
 *
 * Security weighs most: a guessable secret or an attack under way matters more than a slow page.
 * But a scanner network whose scanners are silent does nothing it exists for, however fast its
 * database: the fleet's state caps the total (FLEET_SCORE_CAP), so a fleet that is down makes the
 * report critical, and a degraded or stopped one keeps it out of healthy.
 * systemStatus uses the score colours' bands: healthy ≥ 85, degraded ≥ 60, else critical.
 */
export const SCORE_WEIGHTS = { database: 0.2, performance: 0.25, security: 0.3, fleet: 0.25 } as const;

/** The most the health score can be in each fleet state: the top of the band it must not rise above. */
export const FLEET_SCORE_CAP: Record<FleetStateName, number> = {
  live: 100,
  degraded: HEALTH_SCORE_BANDS.good - 1,
  stopped: HEALTH_SCORE_BANDS.good - 1,
  down: HEALTH_SCORE_BANDS.fair - 1,
};

const capNote = (state: FleetStateName) =>
  `the health score is held at ${FLEET_SCORE_CAP[state]} or below (${systemStatusOf(FLEET_SCORE_CAP[state])})`;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
/** `low` at `from`, `high` at `to`, linear between (either direction). */
const ramp = (value: number, from: number, to: number, low: number, high: number) =>
  low + (high - low) * clamp((value - from) / (to - from), 0, 1);
const ms = (value: number) => `${Math.round(value)} ms`;

export type Measurements = Omit<
  HealthReport,
  'id' | 'healthScore' | 'systemStatus' | 'generatedAt' | 'analysisTime' | 'components' | 'summary'
>;

function component(name: ScoreComponent['name'], score: number, notes: string[]): ScoreComponent {
  return { name, score: Math.round(clamp(score, 0, 100)), weight: SCORE_WEIGHTS[name], notes };
}

function databaseComponent({
  responseTime,
  connectionStatus,
}: Measurements['databaseHealth']): ScoreComponent {
  if (connectionStatus === 'disconnected') return component('database', 0, ['the database did not answer']);
  if (responseTime <= 50) return component('database', 100, []);
  const score =
    responseTime <= SLOW_DATABASE_MS
      ? ramp(responseTime, 50, SLOW_DATABASE_MS, 100, 70)
      : ramp(responseTime, SLOW_DATABASE_MS, 2000, 70, 20);
  return component('database', score, [`database round trip ${ms(responseTime)}`]);
}

function performanceComponent(p: Measurements['performanceHealth']): ScoreComponent {
  const notes: string[] = [];
  let score = 100;
  if (p.p95RequestTime > 500) {
    score -= ramp(p.p95RequestTime, 500, 2000, 0, 50);
    notes.push(`p95 request time ${ms(p.p95RequestTime)}`);
  }
  if (p.memoryUsage > 80) {
    score -= ramp(p.memoryUsage, 80, 100, 0, 25);
    notes.push(`heap ${p.memoryUsage}% of its limit`);
  }
  if (p.cpuUsage > 80) {
    score -= ramp(p.cpuUsage, 80, 100, 0, 25);
    notes.push(`CPU ${p.cpuUsage}% of one core`);
  }
  return component('performance', score, notes);
}

function securityComponent(s: Measurements['securityHealth']): ScoreComponent {
  const notes = [...s.weaknesses];
  if (s.activeThreats > 0) {
    notes.push(`${s.activeThreats} ${s.activeThreats === 1 ? 'threat' : 'threats'} in the last hour`);
  }
  return component('security', 100 - s.vulnerabilityScore, notes);
}

function fleetComponent(f: Measurements['fleetHealth']): ScoreComponent {
  const notes: string[] = [];
  let score = 100;
  const c = f.condition;
  if (c && c.state !== 'stopped' && c.heardPercent < 100) {
    score -= 100 - c.heardPercent;
    notes.push(
      c.expectedBots === 0
        ? 'no bot has reported yet'
        : `${c.heardBots} of ${c.expectedBots} bots heard from (${c.heardPercent}%)`,
    );
  }
  if (f.errorBots > 0 && f.totalBots > 0) {
    score -= Math.min(40, (f.errorBots / f.totalBots) * 100);
    notes.push(`${f.errorBots} of ${f.totalBots} bots in error`);
  }
  if (f.hopFailureRate !== null && f.hopFailureRate > 10) {
    score -= Math.min(40, f.hopFailureRate - 10);
    notes.push(`${f.hopFailureRate}% of the last hour's hops failed`);
  }
  if (f.poolAvailability !== null && f.poolAvailability < 50) {
    score -= Math.min(30, 50 - f.poolAvailability);
    notes.push(`${f.poolAvailability}% of pool servers available`);
  }
  if (c?.state === 'stopped') {
    notes.push(
      `emergency stop${c.stoppedBy ? ` by ${c.stoppedBy}` : ''}: not scored as a failure, but ${capNote('stopped')} while nothing is scanned`,
    );
  } else if (c && c.state !== 'live') {
    notes.push(`the fleet is ${c.state}: ${capNote(c.state)}`);
  }
  return component('fleet', score, notes);
}

/** Each component's score, weight and what lowered it. */
export function scoreComponents(m: Measurements): ScoreComponent[] {
  return [
    databaseComponent(m.databaseHealth),
    performanceComponent(m.performanceHealth),
    securityComponent(m.securityHealth),
    fleetComponent(m.fleetHealth),
  ];
}

/** The weighted sum of the parts, capped by the fleet's state (null: not read, no cap). */
export function healthScoreOf(components: ScoreComponent[], fleetState: FleetStateName | null): number {
  const weighted = Math.round(components.reduce((sum, c) => sum + c.score * c.weight, 0));
  return Math.min(weighted, FLEET_SCORE_CAP[fleetState ?? 'live']);
}

export function systemStatusOf(score: number): SystemStatus {
  if (score >= HEALTH_SCORE_BANDS.good) return 'healthy';
  return score >= HEALTH_SCORE_BANDS.fair ? 'degraded' : 'critical';
}
