import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import {
  AI_HEALTH_POLL_MS,
  type AnalysisResponse,
  type HealthReportResponse,
  type RecommendationsResponse,
} from '../../../../common/ai-health.ts';

/** Query keys are the URLs, like every screen's, so Generate Report and the row actions invalidate by URL. */
export const SYSTEM_HEALTH_URL = '/api/admin/system-health';
export const AI_ANALYSIS_URL = '/api/admin/ai-analysis';
export const AI_RECOMMENDATIONS_URL = '/api/admin/ai-recommendations';

/** What a new report makes stale: the report itself and both lists (generating runs the detectors). */
export const AI_HEALTH_URLS = [SYSTEM_HEALTH_URL, AI_ANALYSIS_URL, AI_RECOMMENDATIONS_URL] as const;

/** The spec's page-level failure (2.10). */
export const HEALTH_LOAD_FAILURE = 'Failed to load health data';

/** The latest stored report (null before the first); polled every 5 min. */
export function healthReportQuery() {
  return queryOptions({
    queryKey: [SYSTEM_HEALTH_URL],
    queryFn: () => getJson<HealthReportResponse>(SYSTEM_HEALTH_URL, { failure: HEALTH_LOAD_FAILURE }),
    select: (data) => data.healthReport,
    refetchInterval: AI_HEALTH_POLL_MS.health,
  });
}

/** The detectors' findings, unresolved first; polled every 2 min. */
export function analysisResultsQuery() {
  return queryOptions({
    queryKey: [AI_ANALYSIS_URL],
    queryFn: () =>
      getJson<AnalysisResponse>(AI_ANALYSIS_URL, { failure: 'Failed to fetch analysis results' }),
    select: (data) => data.analysisResults,
    refetchInterval: AI_HEALTH_POLL_MS.analysis,
  });
}

/** Recommendations, unimplemented and valid first; polled every 10 min. */
export function recommendationsQuery() {
  return queryOptions({
    queryKey: [AI_RECOMMENDATIONS_URL],
    queryFn: () =>
      getJson<RecommendationsResponse>(AI_RECOMMENDATIONS_URL, {
        failure: 'Failed to fetch recommendations',
      }),
    select: (data) => data.recommendations,
    refetchInterval: AI_HEALTH_POLL_MS.recommendations,
  });
}
