import type { AppContext } from '../../../../context.ts';
import { loadErrorReports } from '../evidence.store.ts';
import { type AnalysisWindow, type FindingCandidate, groupBy, HOUR_MS, severityAt } from './detector.ts';
import { trailingBurst } from './trailing-burst.ts';

/**
 * client_errors: the admin UI's error reports grouped by error name and message; a group with at
 * least CLIENT_ERRORS.minReports within CLIENT_ERRORS.spanMs is one bug hit again and again.
 */
export const CLIENT_ERRORS = {
  spanMs: HOUR_MS,
  minReports: 5,
  severity: { error: 20, critical: 100 },
  /** Subjects (name: message) are cut here; the finding's description holds the start of the message too. */
  maxSubjectLength: 200,
} as const;

export interface ErrorReportRow {
  name: string;
  message: string;
  createdAt: number;
}

const errorText = (r: Pick<ErrorReportRow, 'name' | 'message'>) =>
  `${r.name}: ${r.message}`.slice(0, CLIENT_ERRORS.maxSubjectLength);

export function clientErrorFindings(reports: ErrorReportRow[], window: AnalysisWindow): FindingCandidate[] {
  return [...groupBy(reports, errorText)].flatMap(([subject, group]) => {
    const burst = trailingBurst(
      group.map((r) => ({ at: r.createdAt, weight: 1 })),
      window,
      CLIENT_ERRORS.spanMs,
      CLIENT_ERRORS.minReports,
      'sum',
    );
    const first = group[0];
    if (!burst || !first) return [];
    return [
      {
        analysisType: 'client_errors' as const,
        subject,
        severity: severityAt(burst.peak, CLIENT_ERRORS.severity),
        title: `"${subject}" reported ${burst.peak} times in an hour`,
        description: `The admin screens' error boundaries sent the same error ${burst.peak} times within an hour: ${subject}.`,
        suggestedAction:
          'Find the screen it comes from (the reports hold the URL and stack) and fix the bug.',
        occurrences: burst.occurrences,
        lastSeenAt: burst.lastAt,
        evidence: {
          kind: 'client_errors' as const,
          name: first.name,
          message: first.message,
          reports: burst.peak,
        },
      },
    ];
  });
}

export async function detectClientErrors(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const reports = await loadErrorReports(ctx.db, {
    since: window.from - CLIENT_ERRORS.spanMs,
    until: window.to,
  });
  return clientErrorFindings(reports, window);
}
