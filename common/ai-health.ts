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

/** One weighted part of the health score (the formula is documented in the server and README). */
export interface ScoreComponent {
  name: 'database' | 'performance' | 'security' | 'fleet';
  /** 0–100. */
  score: number;
  /** Share of the total, 0–1; the weights add up to 1. */
  weight: number;
  /** What lowered it, in words ('p95 request time 840 ms'); empty when nothing did. */
  notes: string[];
}

/** The optional language-model summary of a report. */
export interface ReportSummary {
  /** 'disabled': no AI_BASE_URL/AI_MODEL set, the analysis is rule-based only. */
  status: 'ok' | 'failed' | 'disabled';
  text: string | null;
  model: string | null;
  /** Why it failed ('timed out after 20 s', 'HTTP 502'), when it did. */
  error: string | null;
}

/** Spec section 3 "Health report", every field measured; plus the score's parts and the fleet. */
export interface HealthReport {
  id: string;
  /** 0–100, the weighted sum of `components`. */
  healthScore: number;
  systemStatus: SystemStatus;
  generatedAt: string;
  /** ms the report took to produce (the language model's time not included). */
  analysisTime: number;
  databaseHealth: {
    /** ms a timed query took. */
    responseTime: number;
    connectionStatus: 'connected' | 'slow' | 'disconnected';
  };
  securityHealth: {
    /** 0–100, higher is worse: from the setup's weaknesses and the last hour's threats. */
    vulnerabilityScore: number;
    /** Failed logins, rate-limit hits, refused loader calls and binding refusals in the last hour. */
    activeThreats: number;
    /** The setup's weaknesses found ('the admin secret is the default'). */
    weaknesses: string[];
  };
  performanceHealth: {
    /** Mean ms over the server's rolling window of request timings. */
    averageRequestTime: number;
    p50RequestTime: number;
    p95RequestTime: number;
    /** Requests in the window. */
    requestCount: number;
    /** % of this process's heap (used over limit). */
    memoryUsage: number;
    /** % of one CPU this process used since the previous sample. */
    cpuUsage: number;
  };
  fleetHealth: {
    totalBots: number;
    errorBots: number;
    /** % of the last hour's hops that failed; null with no hops. */
    hopFailureRate: number | null;
    /** % of pool servers available; null with an empty pool. */
    poolAvailability: number | null;
  };
  components: ScoreComponent[];
  summary: ReportSummary;
}

/** GET /api/admin/system-health → { healthReport: HealthReport | null } (null before the first). */
export interface HealthReportResponse {
  healthReport: HealthReport | null;
}

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
] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

/** Spec section 3 "Analysis result". */
export interface AnalysisResult {
  id: string;
  severity: FindingSeverity;
  analysisType: AnalysisType;
  /** What the finding is about (a bot id, an IP, a key, a message): one open finding per subject. */
  subject: string;
  title: string;
  description: string;
  suggestedAction: string;
  /** How many times the cause was seen while the finding was open. */
  frequency: number;
  createdAt: string;
  /** ISO time the cause was last seen. */
  lastSeenAt: string;
  isResolved: 0 | 1;
}
/** GET /api/admin/ai-analysis → { analysisResults } (unresolved first, then newest). */
export interface AnalysisResponse {
  analysisResults: AnalysisResult[];
}

export const RECOMMENDATION_PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type RecommendationPriority = (typeof RECOMMENDATION_PRIORITIES)[number];

/** What Implement does, when it does something exact and safe (audited); 'none' only marks it. */
export type RecommendationAction =
  | { kind: 'revoke_script_key'; scriptKeyId: string }
  | { kind: 'apply_profile'; profileId: string; botIds: string[] }
  | { kind: 'none' };

/** Spec section 3 "Recommendation". */
export interface Recommendation {
  id: string;
  priority: RecommendationPriority;
  category: string;
  title: string;
  description: string;
  reasoning: string;
  estimatedImpact: string;
  implementationNotes: string;
  createdAt: string;
  validUntil: string;
  isImplemented: 0 | 1;
  /** The finding it came from, if any. */
  analysisId: string | null;
  action: RecommendationAction;
  /** What Implement will do, in words ('Revokes key SK-1234…abcd'), or that it only marks it done; once implemented, what it did. */
  actionLabel: string;
}
/** GET /api/admin/ai-recommendations → { recommendations } (unimplemented and valid first). */
export interface RecommendationsResponse {
  recommendations: Recommendation[];
}
