import { z } from 'zod';

export const ERROR_LEVELS = ['critical', 'page', 'component'] as const;
export type ErrorLevel = (typeof ERROR_LEVELS)[number];

/**
 * How deep and how large `errorInfo` may be. React sends `{componentStack}` (one level, at most
 * 20,000 characters); the bounds leave room for more while a report can neither fill the table nor,
 * nested thousands deep, overflow the stack when it is stored as JSON.
 */
export const ERROR_INFO_MAX_DEPTH = 10;
export const ERROR_INFO_MAX_CHARS = 50_000;

/** Whether objects and arrays nest deeper than `levels` in `value`; never looks further down than that. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  for (const child of Object.values(value)) if (nestsDeeperThan(child, levels - 1)) return true;
  return false;
}

const ErrorInfoSchema = z.unknown().superRefine((value, ctx) => {
  if (nestsDeeperThan(value, ERROR_INFO_MAX_DEPTH)) {
    ctx.addIssue(`must nest at most ${ERROR_INFO_MAX_DEPTH} levels deep`);
  } else if ((JSON.stringify(value) ?? '').length > ERROR_INFO_MAX_CHARS) {
    ctx.addIssue(`must be at most ${ERROR_INFO_MAX_CHARS} characters as JSON`);
  }
});

/** What an error boundary sends to POST /api/admin/error-report. Bounded so a loop cannot fill the disk. */
export const ErrorReportSchema = z.object(
  {
    errorId: z.string().min(1).max(100),
    error: z.object({
      name: z.string().max(200),
      message: z.string().max(5000),
      stack: z.string().max(20_000).optional(),
    }),
    errorInfo: ErrorInfoSchema.optional(),
    level: z.enum(ERROR_LEVELS),
    timestamp: z.string().max(50),
    userAgent: z.string().max(1000).optional(),
    url: z.string().max(2000).optional(),
    sessionData: z.object({ timestamp: z.string().max(50), retryCount: z.number().int().min(0) }).optional(),
  },
  { error: 'Request body must be an error report object' },
);
export type ErrorReport = z.infer<typeof ErrorReportSchema>;

/** POST /api/admin/error-report (201). */
export const ErrorReportResponseSchema = z.object({ success: z.literal(true), id: z.number() });
export type ErrorReportResponse = z.infer<typeof ErrorReportResponseSchema>;
