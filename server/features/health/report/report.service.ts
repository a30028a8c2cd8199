import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { AnalysisResult, HealthReport, ScoreComponent } from '../../../../common/ai-health.ts';
import type { AppContext } from '../../../context.ts';
import type { RequestTimings } from '../../../plugins/request-timings.ts';
import type { PendingWrites } from '../../security/pending-writes.ts';
import { probeDatabase } from './database-probe.ts';
import { measureBots, measurePoolAvailability } from './fleet-health.ts';
import { healthScoreOf, type Measurements, scoreComponents, systemStatusOf } from './health-score.ts';
import { summarizeReport } from './model-summary.ts';
import { CpuSampler, heapUsagePercent } from './process-usage.ts';
import { findLatestHealthReport, insertHealthReport } from './report.store.ts';
import {
  countActiveThreats,
  findWeaknesses,
  type RequestTransport,
  securityHealthOf,
} from './security-posture.ts';

export interface HealthReportDeps {
  /** This instance's request durations (plugins/request-timings.ts). */
  timings: RequestTimings;
  /** Queued audit rows (rate-limit hits, loader refusals): written before they are counted. */
  pendingWrites: PendingWrites;
  /** The open findings the model summary mentions (the analysis feature's); none when it has none. */
  openFindings: () => Promise<AnalysisResult[]>;
  log: FastifyBaseLogger;
}

/** What a part that reads the database gives when it cannot: its fallback, and why, for the component's notes. */
async function orFallback<T>(
  read: () => Promise<T>,
  fallback: T,
): Promise<{ value: T; problem: string | null }> {
  try {
    return { value: await read(), problem: null };
  } catch (error) {
    return { value: fallback, problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Measures the system now and writes a health report. Every figure comes from this instance and the
 * shared database: its request timings, heap and CPU, a timed query, the last hour of the audit log,
 * the live fleet state (the fleet's one condition: a fleet that is down makes the report critical)
 * and the pool. The figures describe the instance that generated the report.
 */
export class HealthReports {
  private readonly cpu = new CpuSampler();

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: HealthReportDeps,
  ) {}

  /** The newest stored report, or null before the first. */
  latest(): Promise<HealthReport | null> {
    return findLatestHealthReport(this.ctx.db);
  }

  /**
   * Measures, scores, asks the language model when one is configured, stores, returns. A database
   * that does not answer still gets a report (connectionStatus 'disconnected', its parts noted).
   */
  async generate(transport: RequestTransport): Promise<HealthReport> {
    const started = performance.now();
    const now = this.ctx.now();
    // First and alone, so nothing else this report does is in the round trip it times.
    const databaseHealth = await probeDatabase(this.ctx.db);
    const [threats, poolAvailability, fleet] = await Promise.all([
      orFallback(async () => {
        await this.deps.pendingWrites.flush();
        return countActiveThreats(this.ctx, now);
      }, 0),
      orFallback(() => measurePoolAvailability(this.ctx), null),
      // The fleet's one state, by the rule every screen uses (the emergency switch is in the database).
      orFallback(() => this.ctx.services.fleetCondition(), null),
    ]);
    const timings = this.deps.timings.stats();
    const measurements: Measurements = {
      databaseHealth: {
        responseTime: databaseHealth.responseTime,
        connectionStatus: databaseHealth.connectionStatus,
      },
      performanceHealth: {
        averageRequestTime: timings.mean,
        p50RequestTime: timings.p50,
        p95RequestTime: timings.p95,
        requestCount: timings.count,
        memoryUsage: heapUsagePercent(),
        cpuUsage: this.cpu.sample(),
      },
      securityHealth: securityHealthOf(findWeaknesses(this.ctx.config, transport), threats.value),
      fleetHealth: {
        ...measureBots(this.ctx, now),
        poolAvailability: poolAvailability.value,
        condition: fleet.value,
      },
    };
    const components = scoreComponents(measurements);
    noteProblem(components, 'database', databaseHealth.error);
    noteProblem(components, 'security', threats.problem && `threats not counted: ${threats.problem}`);
    noteProblem(
      components,
      'fleet',
      poolAvailability.problem && `pool not read: ${poolAvailability.problem}`,
    );
    noteProblem(components, 'fleet', fleet.problem && `fleet state not read: ${fleet.problem}`);
    const healthScore = healthScoreOf(components, fleet.value?.state ?? null);
    const measured: Omit<HealthReport, 'summary'> = {
      id: randomUUID(),
      healthScore,
      systemStatus: systemStatusOf(healthScore),
      generatedAt: new Date(now).toISOString(),
      analysisTime: Math.round(performance.now() - started),
      ...measurements,
      components,
    };
    const findings = await orFallback(this.deps.openFindings, []);
    const report: HealthReport = {
      ...measured,
      summary: await summarizeReport(this.ctx.config, measured, findings.value),
    };
    try {
      await insertHealthReport(this.ctx.db, report, now);
    } catch (error) {
      // The admin still sees what was measured; the next Generate stores again.
      this.deps.log.error({ err: error }, 'health report not stored');
    }
    return report;
  }
}

function noteProblem(
  components: ScoreComponent[],
  name: ScoreComponent['name'],
  problem: string | null,
): void {
  if (problem) components.find((c) => c.name === name)?.notes.push(problem);
}
