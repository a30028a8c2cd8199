import type { ErrorReport, ErrorReportResponse } from '../../../common/error-report.ts';
import type { AppContext } from '../../context.ts';
import { insertErrorReport } from './health.store.ts';

/** Stores an error a UI error boundary caught, for the health analysis to read. */
export async function recordErrorReport(ctx: AppContext, report: ErrorReport): Promise<ErrorReportResponse> {
  const id = await insertErrorReport(ctx.db, report, ctx.now());
  return { success: true, id };
}
