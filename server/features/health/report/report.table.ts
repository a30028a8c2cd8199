import type { Generated } from 'kysely';
import type { SystemStatus } from '../../../../common/ai-health.ts';

/** Stored health reports: the newest is what the screen shows; the newest 100 are kept. */
export interface HealthReportsTable {
  /** Insertion order: the newest report is the highest id (several may share a generated_at). */
  id: Generated<number>;
  /** The report's own id (HealthReport.id), known before the row is written. */
  report_id: string;
  generated_at: number;
  health_score: number;
  system_status: SystemStatus;
  /** JSON: the whole HealthReport. */
  report: string;
}
