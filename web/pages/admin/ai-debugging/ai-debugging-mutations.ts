import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type {
  AnalysisResult,
  HealthReportResponse,
  Recommendation,
  RecommendationAction,
} from '../../../../common/ai-health.ts';
import { LIVE_CONFIGURATION_URLS } from '../shared/query-keys.ts';
import { invalidateUrls, refreshLicensing } from '../shared/refresh.ts';
import {
  AI_ANALYSIS_URL,
  AI_HEALTH_URLS,
  AI_RECOMMENDATIONS_URL,
  healthReportQuery,
} from './ai-debugging-queries.ts';

export const AI_HEALTH_CALLS = {
  generate: '/api/admin/system-health/generate',
  resolve: (id: string) => `/api/admin/ai-analysis/resolve/${encodeURIComponent(id)}`,
  implement: (id: string) => `/api/admin/ai-recommendations/implement/${encodeURIComponent(id)}`,
} as const;

/** Both lists: resolving or implementing one can settle the other (a recommendation comes from a finding). */
const FINDING_LISTS = [AI_ANALYSIS_URL, AI_RECOMMENDATIONS_URL] as const;

/**
 * Sets fields of one row in a cached list answer (`{[field]: rows}`), so its button goes the moment
 * the server says it worked rather than when the refresh arrives.
 */
function patchCachedRow<T extends { id: string }>(
  queryClient: QueryClient,
  url: string,
  field: string,
  id: string,
  patch: Partial<T>,
): void {
  queryClient.setQueryData([url], (data: Record<string, T[]> | undefined) =>
    data?.[field]
      ? { ...data, [field]: data[field].map((row) => (row.id === id ? { ...row, ...patch } : row)) }
      : data,
  );
}

/**
 * Generate Report: a new report at once from the answer, then the report and both lists refresh (the
 * spec: health data refreshed). On failure the button's spinner simply stops, and a toast says why.
 */
export function useGenerateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<HealthReportResponse | undefined>('POST', AI_HEALTH_CALLS.generate),
    onSuccess: async (answer) => {
      if (answer?.healthReport) queryClient.setQueryData(healthReportQuery().queryKey, answer);
      await invalidateUrls(queryClient, AI_HEALTH_URLS);
    },
    onError: toastFailure('Report Generation Failed', 'Failed to generate the health report'),
  });
}

/** Resolve: the finding turns resolved (its button goes) and the lists refresh. */
export function useResolveFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (finding: AnalysisResult) => apiRequest('POST', AI_HEALTH_CALLS.resolve(finding.id)),
    onSuccess: async (_answer, finding) => {
      patchCachedRow<AnalysisResult>(queryClient, AI_ANALYSIS_URL, 'analysisResults', finding.id, {
        isResolved: 1,
      });
      toast({ title: 'Finding Resolved', description: finding.title });
      await invalidateUrls(queryClient, FINDING_LISTS);
    },
    onError: toastFailure('Resolve Failed', 'Failed to resolve the finding'),
  });
}

/** The other screens' data an implemented action changes, so they show it when next opened. */
function refreshAfterAction(queryClient: QueryClient, action: RecommendationAction): Promise<void> {
  switch (action.kind) {
    case 'revoke_script_key':
      return refreshLicensing(queryClient);
    case 'apply_profile':
      return invalidateUrls(queryClient, LIVE_CONFIGURATION_URLS);
    case 'none':
      return Promise.resolve();
  }
}

/**
 * Implement: the server does what `actionLabel` says (revokes a key, applies a profile) or only marks
 * it; the recommendation turns implemented (its button goes) and the lists refresh.
 */
export function useImplementRecommendation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recommendation: Recommendation) =>
      apiRequest('POST', AI_HEALTH_CALLS.implement(recommendation.id)),
    onSuccess: async (_answer, recommendation) => {
      patchCachedRow<Recommendation>(
        queryClient,
        AI_RECOMMENDATIONS_URL,
        'recommendations',
        recommendation.id,
        { isImplemented: 1 },
      );
      toast({ title: 'Recommendation Implemented', description: recommendation.actionLabel });
      await Promise.all([
        invalidateUrls(queryClient, FINDING_LISTS),
        refreshAfterAction(queryClient, recommendation.action),
      ]);
    },
    onError: toastFailure('Implementation Failed', 'Failed to implement the recommendation'),
  });
}
