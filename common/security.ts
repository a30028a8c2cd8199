import { z } from 'zod';

/** The audit events the licensing path writes (others, such as admin_login, appear too). */
export const SECURITY_EVENT_TYPES = [
  'challenge_issued',
  'challenge_verified',
  'binding_attempt',
  'rate_limit_hit',
  'hmac_verification',
  'transaction_conflict',
] as const;

export const AUDIT_PAGE_SIZES = [50, 100, 200, 500] as const;
export const DEFAULT_AUDIT_PAGE_SIZE = 100;
/** The audit log and its counts cover the last 24 hours. */
export const AUDIT_WINDOW_MS = 24 * 60 * 60 * 1000;
export const TOP_LIMITED_SHOWN = 5;

/** GET /api/admin/security/audit-logs?limit=&offset=&eventType= */
export const AuditLogQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 500')
    .max(500, 'limit must be between 1 and 500')
    .default(DEFAULT_AUDIT_PAGE_SIZE),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
  eventType: z
    .string()
    .regex(/^[a-z_]{1,50}$/, 'eventType must be lower-case letters and underscores')
    .optional(),
});

export interface AuditLog {
  id: number;
  eventType: string;
  success: 0 | 1;
  licenseKey: string | null;
  ipAddress: string | null;
  hardwareId: string | null;
  timestamp: string;
  details: Record<string, unknown>;
}

/** Newest first, from the last 24 hours. */
export interface AuditLogListResponse {
  logs: AuditLog[];
  /** Rows in `logs`. */
  count: number;
  /** Events matching the filter in the last 24 hours (for paging). */
  total: number;
  /** Every event in the last 24 hours, whatever the filter: the 'Security Events (24h)' card. */
  last24h: number;
  timestamp: string;
}

/** Which limited call a limit guards. */
export const RATE_LIMITED_CALLS = ['login', 'redeem', 'challenge', 'loader', 'feed'] as const;
export type RateLimitedCall = (typeof RATE_LIMITED_CALLS)[number];

export interface RateLimitStatus {
  /** Identifiers (IP or key, per call) currently refused until their window ends. */
  activeLimits: number;
  /** Identifiers with a live window (requests counted right now). */
  totalLimits: number;
  /** rate_limit_hit events in the last 24 hours. */
  hitCount24h: number;
  /** The most limited identifiers in the last 24 hours, most hits first (at most 5). */
  topLimitedIPs: { identifier: string; limitType: string; count: number }[];
}

/** GET /api/admin/security/rate-limits */
export interface RateLimitStatusResponse {
  rateLimits: RateLimitStatus;
  timestamp: string;
}
