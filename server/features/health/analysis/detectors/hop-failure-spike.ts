import type { AppContext } from '../../../../context.ts';
import { loadHopFailures, loadHopMinutes } from '../evidence.store.ts';
import {
  type AnalysisWindow,
  clockTime,
  type FindingCandidate,
  HOUR_MS,
  higherSeverity,
  isRateLimitError,
  listNames,
  MINUTE_MS,
  percent,
  plural,
  severityAt,
} from './detector.ts';

/**
 * hop_failure_spike: the fleet's per-minute hop failure rate against its own recent past. An
 * exponentially weighted moving average (EWMA) of the rate and of its squared deviation follows the
 * fleet minute by minute. A minute fires when its rate is above the average
 * - by at least SPIKE.k of the fleet's own (EW) deviations,
 * - by at least SPIKE.minExcess, so a steady fleet's wobble never fires,
 * - and by more than chance: with that many hops at the baseline rate, so many failures would happen
 *   less than once in 1/SPIKE.maxChance minutes (the Chernoff bound e^(−n·KL(rate‖baseline))), so a
 *   quiet minute with few hops does not fire on a handful of failures.
 * A minute that fires does not move the baseline.
 */
export const SPIKE = {
  /** Weight of each new minute in the averages: about the last 20 minutes count, the last 2 hours matter. */
  alpha: 0.05,
  /** Deviations above the baseline that make a spike. */
  k: 4,
  /** …and at least this much above it (0.10: 10 percentage points). */
  minExcess: 0.1,
  /** …and that many failures at the baseline rate are less likely than this in a minute. */
  maxChance: 1e-6,
  /** Minutes with fewer hops are too noisy to judge and do not feed the baseline. */
  minHops: 20,
  /** Judged minutes need this many minutes of baseline before them. */
  minBaselineMinutes: 15,
  /** How far back the baseline is read before the window (α = 0.05 forgets 99% in 90 minutes). */
  lookbackMs: 2 * HOUR_MS,
  /** Severity by deviations above (the larger of the fleet's and the minute's sampling noise): ERROR from 2k, CRITICAL from 4k. */
  severity: { error: 8, critical: 16 },
  /**
   * A spike's finding closes itself after this long without a spiking minute: a quarter of an hour of
   * judged minutes back near the baseline (a spike that comes and goes stays one finding).
   */
  quietMs: 15 * MINUTE_MS,
} as const;

/** The bots named in a spike finding (and given a profile by its recommendation) at most. */
const MAX_FAILED_BOTS = 20;

export interface HopMinute {
  /** Start of the minute (epoch ms). */
  minute: number;
  hops: number;
  failed: number;
}

export interface SpikeMinute extends HopMinute {
  rate: number;
  baseline: number;
  deviation: number;
  /** Deviations above the baseline. */
  score: number;
}

/**
 * The minutes that ended inside the window (`from` < end ≤ `to`: each minute is judged by exactly
 * one run, once it is complete) and spiked against the baseline of the minutes before them.
 * `minutes` must be sorted and may start up to SPIKE.lookbackMs before the window.
 */
export function findHopSpikes(minutes: HopMinute[], window: AnalysisWindow): SpikeMinute[] {
  const spikes: SpikeMinute[] = [];
  let mean: number | undefined;
  let variance = 0;
  let seen = 0;
  for (const m of minutes) {
    if (m.hops < SPIKE.minHops) continue;
    const rate = m.failed / m.hops;
    if (mean !== undefined && seen >= SPIKE.minBaselineMinutes) {
      const excess = rate - mean;
      const fleetDeviation = Math.sqrt(variance);
      const p = Math.min(Math.max(mean, 0.005), 0.995);
      const unlikely = m.hops * divergence(rate, p) >= -Math.log(SPIKE.maxChance);
      if (excess >= SPIKE.minExcess && excess >= SPIKE.k * fleetDeviation && unlikely) {
        const deviation = Math.max(fleetDeviation, Math.sqrt((p * (1 - p)) / m.hops));
        const end = m.minute + MINUTE_MS;
        if (end > window.from && end <= window.to) {
          spikes.push({ ...m, rate, baseline: mean, deviation, score: excess / deviation });
        }
        continue;
      }
    }
    if (mean === undefined) {
      mean = rate;
    } else {
      const diff = rate - mean;
      const increment = SPIKE.alpha * diff;
      mean += increment;
      variance = (1 - SPIKE.alpha) * (variance + diff * increment);
    }
    seen++;
  }
  return spikes;
}

/** KL(a ‖ p) for Bernoulli rates: how surprising a rate `a` is when `p` is expected, per trial. */
function divergence(a: number, p: number): number {
  const term = (x: number, y: number) => (x === 0 ? 0 : x * Math.log(x / y));
  return term(a, p) + term(1 - a, 1 - p);
}

/** The finding for a window's spiking minutes; `failures` are the failed hops in those minutes by bot and error. */
export function hopSpikeFinding(
  spikes: SpikeMinute[],
  failures: { botId: string; errorMessage: string | null; failed: number }[],
): FindingCandidate | null {
  const worst = spikes.reduce<SpikeMinute | undefined>(
    (w, s) => (!w || s.score > w.score ? s : w),
    undefined,
  );
  const last = spikes.at(-1);
  if (!worst || !last) return null;
  const byBot = new Map<string, number>();
  let failed = 0;
  let rateLimited = 0;
  for (const f of failures) {
    byBot.set(f.botId, (byBot.get(f.botId) ?? 0) + f.failed);
    failed += f.failed;
    if (isRateLimitError(f.errorMessage)) rateLimited += f.failed;
  }
  const failedBots = [...byBot.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_FAILED_BOTS)
    .map(([botId]) => botId);
  const rateLimitedShare = failed > 0 ? rateLimited / failed : 0;
  const severity = spikes
    .map((s) => severityAt(s.score, SPIKE.severity))
    .reduce(higherSeverity, 'WARNING' as const);
  const mostlyRateLimited = rateLimitedShare >= 0.5;
  return {
    analysisType: 'hop_failure_spike',
    subject: 'fleet',
    severity,
    title: `Hop failures spiked to ${percent(worst.rate)} (baseline ${percent(worst.baseline)})`,
    description:
      `In the minute from ${clockTime(worst.minute)}, ${worst.failed} of ${worst.hops} hops failed ` +
      `(${percent(worst.rate)}) against ${percent(worst.baseline)} ± ${percent(worst.deviation)} over the ` +
      `previous hours (${worst.score.toFixed(1)} deviations above). ${plural(spikes.length, 'minute')} spiked` +
      (failedBots.length > 0 ? `; most failures: ${listNames(failedBots)}` : '') +
      (rateLimitedShare > 0 ? `; ${percent(rateLimitedShare)} of them were rate limits.` : '.'),
    suggestedAction: mostlyRateLimited
      ? 'The game is rate-limiting the bots: slow them down (apply the STEALTH profile to the bots that failed).'
      : 'Check the Server Pool Monitor for full or dead servers, and the bots that failed most.',
    occurrences: spikes.length,
    lastSeenAt: last.minute + MINUTE_MS,
    evidence: {
      kind: 'hop_failure_spike',
      failureRate: worst.rate,
      baselineRate: worst.baseline,
      failedBots,
      rateLimitedShare,
    },
  };
}

/** Reads the window's minutes with their baseline before them, and the failures of the minutes that spiked. */
export async function detectHopFailureSpike(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const since = window.from - (window.from % MINUTE_MS) - SPIKE.lookbackMs;
  const minutes = await loadHopMinutes(ctx.db, { since, until: window.to });
  const spikes = findHopSpikes(minutes, window);
  const failures = (
    await Promise.all(
      spikes.map((s) => loadHopFailures(ctx.db, { since: s.minute, until: s.minute + MINUTE_MS })),
    )
  ).flat();
  const finding = hopSpikeFinding(spikes, failures);
  return finding ? [finding] : [];
}
