import type { Generated } from 'kysely';
import type {
  AnalysisType,
  FindingSeverity,
  RecommendationPriority,
  Resolution,
} from '../../../../common/ai-health.ts';

/** A finding a detector opened; recurrence while open raises `frequency` on the same row. */
export interface AnalysisFindingsTable {
  id: Generated<number>;
  analysis_type: AnalysisType;
  /** What it is about (a bot, an IP, a key, a message): one open row per type and subject. */
  subject: string;
  severity: FindingSeverity;
  title: string;
  description: string;
  suggested_action: string;
  frequency: number;
  /** JSON: FindingEvidence, what the recommendation is derived from (ids, counts). */
  evidence: string;
  created_at: number;
  last_seen_at: number;
  /** 1 resolved, 0 open. */
  is_resolved: number;
  resolved_at: number | null;
  /** How it was closed (an analysis run or the administrator); null while open. */
  resolution: Resolution | null;
  /** `type subject` while open, null once resolved (unique: one open row per type and subject). */
  open_key: string | null;
}

/** A recommendation derived from a finding; Implement marks it (and does its action). */
export interface RecommendationsTable {
  id: Generated<number>;
  analysis_id: number | null;
  priority: RecommendationPriority;
  category: string;
  title: string;
  description: string;
  reasoning: string;
  estimated_impact: string;
  implementation_notes: string;
  /** JSON: RecommendationAction. */
  action: string;
  /** What Implement will do; once implemented, what it did. */
  action_label: string;
  created_at: number;
  valid_until: number;
  /** 1 implemented, 0 not. */
  is_implemented: number;
  implemented_at: number | null;
  /** Set when an analysis run closed it (its finding closed, or it no longer applies); null otherwise. */
  resolved_at: number | null;
  resolution: Resolution | null;
}

/** The one row (id 1): the end of the data the last analysis run read; null before the first. */
export interface AnalysisStateTable {
  id: number;
  watermark: number | null;
}
