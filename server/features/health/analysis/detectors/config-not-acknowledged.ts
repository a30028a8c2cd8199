import type { AppContext } from '../../../../context.ts';
import { CONFIGURATION_TEXTS } from '../../../configuration/configuration.service.ts';
import { loadFailedTargets } from '../evidence.store.ts';
import {
  type AnalysisWindow,
  type FindingCandidate,
  groupBy,
  HOUR_MS,
  plural,
  severityAt,
} from './detector.ts';
import { trailingBurst } from './trailing-burst.ts';

/**
 * config_not_acknowledged: a bot with a socket that let a configuration push pass its deadline
 * without an answer ('no acknowledgement'). A bot that answers, even with an error, is not one; a
 * single silent push already is (a connected bot that never answers is stuck). Severity grows with
 * the silent pushes in CONFIG_ACK.spanMs.
 */
export const CONFIG_ACK = {
  spanMs: 6 * HOUR_MS,
  minUnacknowledged: 1,
  severity: { error: 3, critical: 10 },
} as const;

export function configNotAcknowledgedFindings(
  failures: { botId: string; respondedAt: number }[],
  window: AnalysisWindow,
): FindingCandidate[] {
  return [...groupBy(failures, (f) => f.botId)].flatMap(([botId, group]) => {
    const burst = trailingBurst(
      group.map((f) => ({ at: f.respondedAt, weight: 1 })),
      window,
      CONFIG_ACK.spanMs,
      CONFIG_ACK.minUnacknowledged,
      'sum',
    );
    if (!burst) return [];
    return [
      {
        analysisType: 'config_not_acknowledged' as const,
        subject: botId,
        severity: severityAt(burst.peak, CONFIG_ACK.severity),
        title: `${botId} does not acknowledge its configuration`,
        description: `${botId} left ${plural(burst.peak, 'configuration push', 'configuration pushes')} unanswered past the deadline in the last ${CONFIG_ACK.spanMs / HOUR_MS} hours ('${CONFIGURATION_TEXTS.noAcknowledgement}'): it holds a socket but does not apply its settings.`,
        suggestedAction: `Restart ${botId} and check its logs; Live Configuration's History shows each push's outcome.`,
        occurrences: burst.occurrences,
        lastSeenAt: burst.lastAt,
        evidence: { kind: 'config_not_acknowledged' as const, botId, unacknowledged: burst.peak },
      },
    ];
  });
}

export async function detectUnacknowledgedConfigs(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const failures = await loadFailedTargets(ctx.db, CONFIGURATION_TEXTS.noAcknowledgement, {
    since: window.from - CONFIG_ACK.spanMs,
    until: window.to,
  });
  return configNotAcknowledgedFindings(failures, window);
}
