import type { AnalysisType, FindingSeverity } from '../../../../../common/ai-health.ts';
import type { SlotUsage } from '../../../../../common/system.ts';
import type { AppContext } from '../../../../context.ts';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/**
 * The stretch of time one analysis run reads: from the previous run's watermark up to `to`. Evidence
 * is counted in the run whose window holds it, so no occurrence is counted twice.
 */
export interface AnalysisWindow {
  from: number;
  to: number;
}

/** What a recommendation needs from a finding, by detector. Stored with the finding as JSON. */
export type FindingEvidence =
  | {
      kind: 'hop_failure_spike';
      failureRate: number;
      baselineRate: number;
      /** The bots with the most failures in the spiking minutes, most first. */
      failedBots: string[];
      /** Share (0–1) of those failures that were the game's rate limits. */
      rateLimitedShare: number;
    }
  | {
      kind: 'failing_bot';
      botId: string;
      failureRate: number;
      baselineRate: number;
      rateLimitedShare: number;
    }
  | { kind: 'failing_server'; placeId: string; jobId: string; failureRate: number; baselineRate: number }
  | { kind: 'login_burst'; client: string; attempts: number }
  | { kind: 'rate_limit_burst'; identifier: string; refused: number; limitTypes: string[] }
  | { kind: 'shared_key'; scriptKeyId: number; maskedKey: string; devices: number }
  | { kind: 'client_errors'; name: string; message: string; reports: number }
  | ({ kind: 'slots_nearly_full' } & SlotUsage)
  | { kind: 'config_not_acknowledged'; botId: string; unacknowledged: number }
  | {
      kind: 'fleet_not_live';
      state: 'down' | 'degraded' | 'stopped';
      expectedBots: number;
      heardBots: number;
      lastHeardFrom: string | null;
      stoppedBy: string | null;
    };

/** One finding a detector reports for this window; the service opens it or adds to the open one. */
export interface FindingCandidate {
  analysisType: AnalysisType;
  subject: string;
  severity: FindingSeverity;
  title: string;
  description: string;
  suggestedAction: string;
  /**
   * New occurrences this window holds (spiking minutes, failed hops, refused calls…): what the open
   * finding's frequency grows by.
   */
  occurrences: number;
  /** When the cause was last seen in this window. */
  lastSeenAt: number;
  /**
   * A state rather than events (slots nearly full): seen again at the very next run it is the same
   * occurrence going on, so it adds to the frequency only after a run that did not see it.
   */
  isState?: true;
  evidence: FindingEvidence;
}

/** A detector: a thin query over the window's data and a pure rule over the rows. */
export type Detector = (ctx: AppContext, window: AnalysisWindow) => Promise<FindingCandidate[]>;

const SEVERITY_RANK: Record<FindingSeverity, number> = { INFO: 0, WARNING: 1, ERROR: 2, CRITICAL: 3 };

export function higherSeverity(a: FindingSeverity, b: FindingSeverity): FindingSeverity {
  return SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

/** WARNING, or ERROR / CRITICAL once `value` reaches their thresholds (a detector fires from WARNING). */
export function severityAt(value: number, thresholds: { error: number; critical: number }): FindingSeverity {
  if (value >= thresholds.critical) return 'CRITICAL';
  if (value >= thresholds.error) return 'ERROR';
  return 'WARNING';
}

/** Messages games and services send when they rate-limit a client (HTTP 429, "too many requests"). */
const RATE_LIMIT_PATTERN = /\b429\b|too many requests|rate.?limit/i;

export function isRateLimitError(message: string | null): boolean {
  return message !== null && RATE_LIMIT_PATTERN.test(message);
}

export const percent = (share: number) => `${(Math.round(share * 1000) / 10).toString()}%`;

/** 'HH:MM UTC' of an epoch-ms time, for descriptions. */
export const clockTime = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** Lists at most `max` names, then how many more. */
export function listNames(names: string[], max = 5): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** Items grouped by key, in order of first appearance; items without a key are left out. */
export function groupBy<T>(
  items: Iterable<T>,
  keyOf: (item: T) => string | null | undefined,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null || key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
