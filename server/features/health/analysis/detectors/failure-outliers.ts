import type { AppContext } from '../../../../context.ts';
import { countHops, loadHopFailures, tallyFailingServers, tallyHopsByBot } from '../evidence.store.ts';
import {
  type AnalysisWindow,
  type FindingCandidate,
  HOUR_MS,
  isRateLimitError,
  percent,
  severityAt,
} from './detector.ts';

/**
 * failing_bot / failing_server: a bot, or a game server, whose hops over the last hour fail far more
 * often than the fleet's: a failure rate above OUTLIER.ratio times the baseline (never taken below
 * OUTLIER.minBaselineRate) with at least a minimum of failures. A bot is held against the median of
 * the bots' rates (one broken bot does not move it); a server against the fleet's overall rate,
 * since most servers see only a hop or two and their median says nothing. It fires in a run that
 * holds new failures of it, and those new failures are what its frequency counts.
 */
export const OUTLIER = {
  spanMs: HOUR_MS,
  ratio: 3,
  minBaselineRate: 0.02,
  bot: { minHops: 20, minFailures: 10 },
  server: { minFailures: 5 },
  /** Severity by how many times the baseline: ERROR from 6×, CRITICAL from 12×. */
  severity: { error: 6, critical: 12 },
} as const;

export interface FailureTally {
  subject: string;
  hops: number;
  failed: number;
  /** Failures inside the window. */
  newFailed: number;
  lastAt: number;
}

/** The median failure rate of the tallies with at least `minHops` hops (0 with none). */
export function medianFailureRate(tallies: FailureTally[], minHops: number): number {
  const rates = tallies
    .filter((t) => t.hops >= minHops)
    .map((t) => t.failed / t.hops)
    .sort((a, b) => a - b);
  if (rates.length === 0) return 0;
  const middle = Math.floor(rates.length / 2);
  return rates.length % 2 === 1
    ? (rates[middle] as number)
    : ((rates[middle - 1] as number) + (rates[middle] as number)) / 2;
}

export interface Outlier extends FailureTally {
  rate: number;
  baseline: number;
  /** Times the baseline. */
  ratio: number;
}

/** The tallies failing more than OUTLIER.ratio × the baseline, with enough failures, and new ones in this window. */
export function findFailureOutliers(
  tallies: FailureTally[],
  baselineRate: number,
  limits: { minHops: number; minFailures: number },
): Outlier[] {
  const baseline = Math.max(baselineRate, OUTLIER.minBaselineRate);
  return tallies.flatMap((t) => {
    const rate = t.hops > 0 ? t.failed / t.hops : 0;
    const firing =
      t.hops >= limits.minHops &&
      t.failed >= limits.minFailures &&
      t.newFailed > 0 &&
      rate > OUTLIER.ratio * baseline;
    return firing ? [{ ...t, rate, baseline, ratio: rate / baseline }] : [];
  });
}

/** A failing bot's finding; `errors` are its failed hops by error text over the span. */
export function failingBotFinding(
  outlier: Outlier,
  errors: { errorMessage: string | null; failed: number }[],
): FindingCandidate {
  const rateLimited = errors
    .filter((e) => isRateLimitError(e.errorMessage))
    .reduce((n, e) => n + e.failed, 0);
  const rateLimitedShare = outlier.failed > 0 ? rateLimited / outlier.failed : 0;
  const top = [...errors].sort((a, b) => b.failed - a.failed)[0];
  const mostlyRateLimited = rateLimitedShare >= 0.5;
  return {
    analysisType: 'failing_bot',
    subject: outlier.subject,
    severity: severityAt(outlier.ratio, OUTLIER.severity),
    title: mostlyRateLimited
      ? `${outlier.subject} is rate-limited by the game: ${percent(outlier.rate)} of its hops fail`
      : `${outlier.subject} fails ${percent(outlier.rate)} of its hops (the fleet: ${percent(outlier.baseline)})`,
    description:
      `In the last hour ${outlier.failed} of ${outlier.hops} hops by ${outlier.subject} failed ` +
      `(${percent(outlier.rate)}, ${outlier.ratio.toFixed(1)}× the fleet's median of ${percent(outlier.baseline)})` +
      (top?.errorMessage ? `; most often "${top.errorMessage}".` : '.'),
    suggestedAction: mostlyRateLimited
      ? `Slow ${outlier.subject} down: apply the STEALTH profile to it.`
      : `Inspect ${outlier.subject}: restart it, and check its game client and network.`,
    occurrences: outlier.newFailed,
    lastSeenAt: outlier.lastAt,
    evidence: {
      kind: 'failing_bot',
      botId: outlier.subject,
      failureRate: outlier.rate,
      baselineRate: outlier.baseline,
      rateLimitedShare,
    },
  };
}

/** A failing server's finding (its subject is 'placeId/jobId'). */
export function failingServerFinding(outlier: Outlier, placeId: string, jobId: string): FindingCandidate {
  return {
    analysisType: 'failing_server',
    subject: outlier.subject,
    severity: severityAt(outlier.ratio, OUTLIER.severity),
    title: `Game server ${jobId} fails ${percent(outlier.rate)} of the hops to it`,
    description:
      `In the last hour ${outlier.failed} of ${outlier.hops} hops to server ${jobId} (place ${placeId}) failed ` +
      `(${percent(outlier.rate)}, ${outlier.ratio.toFixed(1)}× the fleet's ${percent(outlier.baseline)}).`,
    suggestedAction: `Take server ${jobId} out of the pool; the pool quarantines a server once several bots fail on it.`,
    occurrences: outlier.newFailed,
    lastSeenAt: outlier.lastAt,
    evidence: {
      kind: 'failing_server',
      placeId,
      jobId,
      failureRate: outlier.rate,
      baselineRate: outlier.baseline,
    },
  };
}

const spanOf = (window: AnalysisWindow) => ({ since: window.to - OUTLIER.spanMs, until: window.to });

export async function detectFailingBots(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const span = spanOf(window);
  const tallies = await tallyHopsByBot(ctx.db, span, window.from);
  const outliers = findFailureOutliers(tallies, medianFailureRate(tallies, OUTLIER.bot.minHops), OUTLIER.bot);
  const errors = await loadHopFailures(
    ctx.db,
    span,
    outliers.map((o) => o.subject),
  );
  return outliers.map((o) =>
    failingBotFinding(
      o,
      errors.filter((e) => e.botId === o.subject),
    ),
  );
}

export async function detectFailingServers(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const span = spanOf(window);
  const [fleet, servers] = await Promise.all([
    countHops(ctx.db, span),
    tallyFailingServers(ctx.db, span, window.from, OUTLIER.server.minFailures),
  ]);
  const tallies = servers.map((s) => ({ ...s, subject: `${s.placeId}/${s.jobId}` }));
  const fleetRate = fleet.hops > 0 ? fleet.failed / fleet.hops : 0;
  const outliers = findFailureOutliers(tallies, fleetRate, { minHops: 1, ...OUTLIER.server });
  return outliers.map((o) => {
    const server = tallies.find((t) => t.subject === o.subject);
    return failingServerFinding(o, server?.placeId ?? '', server?.jobId ?? '');
  });
}
