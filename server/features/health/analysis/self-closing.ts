import type { AnalysisType } from '../../../../common/ai-health.ts';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/index.ts';
import { listOpenFindingKeys, type OpenFindingKey, resolveFindingById } from './analysis.store.ts';
import { LOGIN_BURST, RATE_LIMIT_BURST } from './detectors/audit-bursts.ts';
import { CLIENT_ERRORS } from './detectors/client-errors.ts';
import { CONFIG_ACK } from './detectors/config-not-acknowledged.ts';
import type { AnalysisWindow, FindingCandidate } from './detectors/detector.ts';
import { OUTLIER } from './detectors/failure-outliers.ts';
import { SPIKE } from './detectors/hop-failure-spike.ts';
import { SHARED_KEY } from './detectors/shared-key.ts';

/*
 * Advice follows the data: on every analysis run each open finding is judged again, and one whose
 * condition no longer holds closes itself ('automatic', "resolved automatically at …"); its pending
 * recommendation closes with it (analysis.service.ts). What "no longer holds" means, by detector:
 *
 * - a state (slots nearly full, the fleet not live) holds only while its detector reports it: the
 *   first run that does not closes it;
 * - events (bursts, spikes, failing bots and servers) are reported only in the run whose window holds
 *   new ones, so theirs holds until the detector's own span has passed since the last occurrence:
 *   after that the span the rule counts over ("5 failed logins within 15 minutes") is empty of them.
 *
 * A cause that comes back later opens a new finding (the closed one keeps its history), as after
 * the administrator's Resolve. Findings the administrator resolved are not touched.
 */

/** How long an event finding stays open without a new occurrence; null for a state (holds while reported). */
export function quietPeriodOf(
  type: AnalysisType,
  config: Pick<Config, 'RATE_LIMIT_WINDOW_MS'>,
): number | null {
  switch (type) {
    case 'slots_nearly_full':
    case 'fleet_not_live':
      return null;
    case 'hop_failure_spike':
      return SPIKE.quietMs;
    case 'failing_bot':
    case 'failing_server':
      return OUTLIER.spanMs;
    case 'login_burst':
      return LOGIN_BURST.spanMs;
    case 'rate_limit_burst':
      // Hit rows are read one rate-limit window late (once their count is final).
      return RATE_LIMIT_BURST.spanMs + config.RATE_LIMIT_WINDOW_MS;
    case 'shared_key':
      return SHARED_KEY.spanMs;
    case 'client_errors':
      return CLIENT_ERRORS.spanMs;
    case 'config_not_acknowledged':
      return CONFIG_ACK.spanMs;
  }
}

const keyOf = (type: AnalysisType, subject: string) => `${type} ${subject}`;

/** Whether an open finding's condition still holds at the end of this run's window. */
export function stillHolds(
  finding: OpenFindingKey,
  reported: ReadonlySet<string>,
  window: AnalysisWindow,
  config: Pick<Config, 'RATE_LIMIT_WINDOW_MS'>,
): boolean {
  if (reported.has(keyOf(finding.analysis_type, finding.subject))) return true;
  const quietMs = quietPeriodOf(finding.analysis_type, config);
  return quietMs !== null && finding.last_seen_at + quietMs > window.to;
}

/**
 * Closes ('automatic', at `now`) every open finding whose condition no longer holds, given what this
 * run's detectors reported. Runs in the transaction that moved the watermark, so one run judges.
 */
export async function closeFindingsNoLongerHolding(
  db: Db,
  config: Pick<Config, 'RATE_LIMIT_WINDOW_MS'>,
  candidates: readonly FindingCandidate[],
  window: AnalysisWindow,
  now: number,
): Promise<void> {
  const reported = new Set(candidates.map((c) => keyOf(c.analysisType, c.subject)));
  for (const finding of await listOpenFindingKeys(db)) {
    if (!stillHolds(finding, reported, window, config)) {
      await resolveFindingById(db, finding.id, now, 'automatic');
    }
  }
}
