import type { Generated } from 'kysely';
import type { ErrorLevel } from '../../../common/error-report.ts';

/** Errors the admin UI's error boundaries caught and sent in. */
export interface ErrorReportsTable {
  id: Generated<number>;
  error_id: string;
  level: ErrorLevel;
  name: string;
  message: string;
  stack: string | null;
  url: string | null;
  user_agent: string | null;
  /** JSON: the whole report as sent. */
  report: string;
  created_at: number;
}
