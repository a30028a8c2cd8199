import type { ErrorReport } from '../../../common/error-report.ts';
import type { Db } from '../../db/index.ts';

/** Keeps the searchable fields in columns and the whole report as sent in `report`; returns the row id. */
export async function insertErrorReport(db: Db, report: ErrorReport, now: number): Promise<number> {
  const row = await db
    .insertInto('error_reports')
    .values({
      error_id: report.errorId,
      level: report.level,
      name: report.error.name,
      message: report.error.message,
      stack: report.error.stack ?? null,
      url: report.url ?? null,
      user_agent: report.userAgent ?? null,
      report: JSON.stringify(report),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
