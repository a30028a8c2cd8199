import { z } from 'zod';

export const ERROR_LEVELS = ['critical', 'page', 'component'] as const;
export type ErrorLevel = (typeof ERROR_LEVELS)[number];

/** What an error boundary sends to POST /api/admin/error-report. Bounded so a loop cannot fill the disk. */
export const ErrorReportSchema = z.object(
  {
    errorId: z.string().min(1).max(100),
    error: z.object({
      name: z.string().max(200),
      message: z.string().max(5000),
      stack: z.string().max(20_000).optional(),
    }),
    errorInfo: z.unknown().optional(),
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
export interface ErrorReportResponse {
  success: true;
  id: number;
}
