import { apiRequest } from '@/lib/api.ts';
import type { ErrorLevel, ErrorReport } from '../../common/error-report.ts';

/** Retries an error boundary allows (automatic for components, manual for pages). */
export const MAX_RETRIES = 3;
const FIRST_RETRY_DELAY_MS = 1000;
const MAX_RETRY_DELAY_MS = 10_000;

/** Delay before automatic retry number `retryCount + 1`: 1 s, doubling, capped at 10 s. */
export function retryDelayMs(retryCount: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** retryCount, MAX_RETRY_DELAY_MS);
}

/** A short id the user can quote to support and the admin can find in the error reports. */
export function createErrorId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().slice(0, 8)
      : Math.random().toString(36).slice(2, 10);
  return `err_${Date.now().toString(36)}_${random}`;
}

/** Anything can be thrown; the boundary and the report want an Error. */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'string') return new Error(thrown);
  try {
    return new Error(JSON.stringify(thrown));
  } catch {
    return new Error(String(thrown));
  }
}

/** The ErrorReport the server stores, cut to the schema's bounds so an oversized stack is not refused. */
export function buildErrorReport(input: {
  errorId: string;
  error: Error;
  componentStack: string | null | undefined;
  level: ErrorLevel;
  retryCount: number;
}): ErrorReport {
  const now = new Date().toISOString();
  return {
    errorId: input.errorId,
    error: {
      name: (input.error.name || 'Error').slice(0, 200),
      message: input.error.message.slice(0, 5000),
      stack: input.error.stack?.slice(0, 20_000),
    },
    errorInfo: { componentStack: input.componentStack?.slice(0, 20_000) ?? null },
    level: input.level,
    timestamp: now,
    userAgent: navigator.userAgent.slice(0, 1000),
    url: window.location.href.slice(0, 2000),
    sessionData: { timestamp: now, retryCount: input.retryCount },
  };
}

/** Sends the report; a failure here must never become a second error, so it is dropped. */
export function sendErrorReport(report: ErrorReport): void {
  apiRequest('POST', '/api/admin/error-report', report).catch(() => {
    // Reporting is best effort: offline, logged out (visitors have no admin session) or server down.
  });
}
