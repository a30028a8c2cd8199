import type { Generated } from 'kysely';

/** Errors the admin UI's error boundaries caught and sent in. */
export interface ErrorReportsTable {
  id: Generated<number>;
  error_id: string;
  level: string;
  name: string;
  message: string;
  stack: string | null;
  url: string | null;
  user_agent: string | null;
  /** JSON: the whole report as sent. */
  report: string;
  created_at: number;
}
