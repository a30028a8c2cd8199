import { z } from 'zod';
import { FleetConditionSchema } from './fleet-condition.ts';

/*
 * AI System Debugging (admin-back-office spec 2.10, sections 3, 4, 7 "AI health", 9): a health
 * report measured from the running system, findings from detectors over the system's own data,
 * recommendations derived from them, and an optional language-model summary. Server and screen
 * share these shapes.
 */

/** Spec section 9: score colours. */
export const HEALTH_SCORE_BANDS = { good: 85, fair: 60 } as const;
export type ScoreBand = 'good' | 'fair' | 'poor';
export function scoreBand(score: number): ScoreBand {
  return score >= HEALTH_SCORE_BANDS.good ? 'good' : score >= HEALTH_SCORE_BANDS.fair ? 'fair' : 'poor';
}

/** Spec section 9: under 1000 ms as ms; under 60 s as seconds with one decimal; else minutes and seconds. */
export function formatAnalysisDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m ${Math.floor((ms % 60_000) / 1000)}s`;
}

/** Spec section 9: the screen's polling. */
export const AI_HEALTH_POLL_MS = {
  health: 5 * 60_000,
  analysis: 2 * 60_000,
  recommendations: 10 * 60_000,
} as const;

export const SYSTEM_STATUSES = ['healthy', 'degraded', 'critical'] as const;
export type SystemStatus = (typeof SYSTEM_STATUSES)[number];

/** One weighted part of the health score (formula documented in the server and docs/rules-ai-health.md). */
export const ScoreComponentSchema = z.object({
  name: z.enum(['database', 'performance', 'security', 'fleet']),
  /** 0–100. */
  score: z.number(),
  /** Share of the total, 0–1; the weights add up to 1. */
  weight: z.number(),
  /** What lowered it, in words ('p95 request time 840 ms'); empty when nothing did. */
  notes: z.array(z.string()),
});
export type ScoreComponent = z.infer<typeof ScoreComponentSchema>;

/** The optional language-model summary of a report. */
export const ReportSummarySchema = z.object({
  /** 'disabled': no AI_BASE_URL/AI_MODEL set, the analysis is rule-based only. */
  status: z.enum(['ok', 'failed', 'disabled']),
  text: z.string().nullable(),
  model: z.string().nullable(),
  /** Why it failed ('timed out after 20 s', 'HTTP 502'), when it did. */
  error: z.string().nullable(),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;

/** Spec section 3 "Health report", every field measured; plus the score's parts and the fleet. */
export const HealthReportSchema = z.object({
  id: z.string(),
  /** 0–100, the weighted sum of `components`. */
  healthScore: z.number(),
  systemStatus: z.enum(SYSTEM_STATUSES),
  generatedAt: z.string(),
  /** ms the report took to produce (the language model's time not included). */
  analysisTime: z.number(),
  databaseHealth: z.object({
    /** ms a timed query took. */
    responseTime: z.number(),
    connectionStatus: z.enum(['connected', 'slow', 'disconnected']),
  }),
  securityHealth: z.object({
    /** 0–100, higher is worse: from the setup's weaknesses and the last hour's threats. */
    vulnerabilityScore: z.number(),
    /** Failed logins, rate-limit hits, refused loader calls and binding refusals in the last hour. */
    activeThreats: z.number(),
    /** The setup's weaknesses found ('the admin secret is the default'). */
    weaknesses: z.array(z.string()),
  }),
  performanceHealth: z.object({
    /** Mean ms over the server's rolling window of request timings. */
    averageRequestTime: z.number(),
    p50RequestTime: z.number(),
    p95RequestTime: z.number(),
    /** Requests in the window. */
    requestCount: z.number(),
    /** % of this process's heap (used over limit). */
    memoryUsage: z.number(),
    /** % of one CPU this process used since the previous sample. */
    cpuUsage: z.number(),
  }),
  fleetHealth: z.object({
    totalBots: z.number(),
    errorBots: z.number(),
    /** % of the last hour's hops that failed; null with no hops. */
    hopFailureRate: z.number().nullable(),
    /** % of pool servers available; null with an empty pool. */
    poolAvailability: z.number().nullable(),
    /**
     * The fleet's one state when the report was made (common/fleet-condition.ts): bots heard from,
     * the last one heard, an emergency stop. Null in reports stored before it was measured, or when
     * it could not be read.
     */
    condition: FleetConditionSchema.nullable(),
  }),
  components: z.array(ScoreComponentSchema),
  summary: ReportSummarySchema,
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

/** GET /api/admin/system-health → { healthReport: HealthReport | null } (null before the first). */
export const HealthReportResponseSchema = z.object({ healthReport: HealthReportSchema.nullable() });
export type HealthReportResponse = z.infer<typeof HealthReportResponseSchema>;

export const FINDING_SEVERITIES = ['CRITICAL', 'ERROR', 'WARNING', 'INFO'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** What each detector is called (`analysisType`). */
export const ANALYSIS_TYPES = [
  'hop_failure_spike',
  'failing_server',
  'failing_bot',
  'login_burst',
  'rate_limit_burst',
  'shared_key',
  'client_errors',
  'slots_nearly_full',
  'config_not_acknowledged',
  'fleet_not_live',
] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

const flag = z.union([z.literal(0), z.literal(1)]);

/**
 * How a finding or recommendation was closed: 'automatic' when an analysis run found that its
 * condition no longer held, 'operator' when the administrator resolved the finding.
 */
export const RESOLUTIONS = ['automatic', 'operator'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** When and how an item was closed; both null while it is open. */
const closing = {
  /** ISO time it was closed. */
  resolvedAt: z.string().nullable(),
  resolution: z.enum(RESOLUTIONS).nullable(),
};

/**
 * The note a closed item shows: "resolved automatically at 09:14" (`clock` formats the instant: the
 * browser's local time on screen, ISO in the API's tests); null while it is open.
 */
export function resolutionNote(
  item: { resolvedAt: string | null; resolution: Resolution | null },
  clock: (iso: string) => string,
): string | null {
  if (item.resolvedAt === null || item.resolution === null) return null;
  const how = item.resolution === 'automatic' ? 'resolved automatically' : 'resolved by the administrator';
  return `${how} at ${clock(item.resolvedAt)}`;
}

/** Spec section 3 "Analysis result". */
export const AnalysisResultSchema = z.object({
  id: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  analysisType: z.enum(ANALYSIS_TYPES),
  /** What the finding is about (a bot id, an IP, a key, a message): one open finding per subject. */
  subject: z.string(),
  title: z.string(),
  description: z.string(),
  suggestedAction: z.string(),
  /** How many times the cause was seen while the finding was open. */
  frequency: z.number(),
  createdAt: z.string(),
  /** ISO time the cause was last seen. */
  lastSeenAt: z.string(),
  isResolved: flag,
  ...closing,
});
export type AnalysisResult = z.infer<typeof AnalysisResultSchema>;
/** GET /api/admin/ai-analysis → { analysisResults } (unresolved first, then newest). */
export const AnalysisResponseSchema = z.object({ analysisResults: z.array(AnalysisResultSchema) });
export type AnalysisResponse = z.infer<typeof AnalysisResponseSchema>;

export const RECOMMENDATION_PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type RecommendationPriority = (typeof RECOMMENDATION_PRIORITIES)[number];

/** What Implement does, when it does something exact and safe (audited); 'none' only marks it. */
export const RecommendationActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('revoke_script_key'), scriptKeyId: z.string() }),
  z.object({ kind: z.literal('apply_profile'), profileId: z.string(), botIds: z.array(z.string()) }),
  z.object({ kind: z.literal('none') }),
]);
export type RecommendationAction = z.infer<typeof RecommendationActionSchema>;

/** Spec section 3 "Recommendation". */
export const RecommendationSchema = z.object({
  id: z.string(),
  priority: z.enum(RECOMMENDATION_PRIORITIES),
  category: z.string(),
  title: z.string(),
  description: z.string(),
  reasoning: z.string(),
  estimatedImpact: z.string(),
  implementationNotes: z.string(),
  createdAt: z.string(),
  validUntil: z.string(),
  isImplemented: flag,
  /** The finding it came from, if any. */
  analysisId: z.string().nullable(),
  action: RecommendationActionSchema,
  /** What Implement will do, in words ('Revokes key SK-1234…abcd'), or that it only marks it done; once implemented, what it did. */
  actionLabel: z.string(),
  /** Set when it closed itself: its finding closed, or the state now makes it pointless (the slots were raised). */
  ...closing,
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

/** Still to act on: neither implemented nor closed by an analysis run. */
export function isRecommendationOpen(r: Pick<Recommendation, 'isImplemented' | 'resolution'>): boolean {
  return r.isImplemented === 0 && r.resolution === null;
}
/** GET /api/admin/ai-recommendations → { recommendations } (unimplemented and valid first). */
export const RecommendationsResponseSchema = z.object({ recommendations: z.array(RecommendationSchema) });
export type RecommendationsResponse = z.infer<typeof RecommendationsResponseSchema>;
