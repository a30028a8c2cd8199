import { z } from 'zod';

/** The audit events the licensing path writes (others, such as admin_login, appear too). */
export const SECURITY_EVENT_TYPES = [
  'challenge_issued',
  'challenge_verified',
  'binding_attempt',
  'rate_limit_hit',
  'hmac_verification',
  'transaction_conflict',
  /** A script key's devices were reset (details.by: 'buyer' or 'admin'); also the admin's grant, 'hwid_resets_granted'. */
  'hwid_reset',
  /** Payment webhooks with a missing or wrong signature, refused with 401: one row per IP and minute (details.count). */
  'webhook_rejected',
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

/** One audit event (times as ISO strings). */
export const AuditLogSchema = z
  .object({
    id: z.number().int(),
    eventType: z.string(),
    success: z.union([z.literal(0), z.literal(1)]),
    licenseKey: z.string().nullable(),
    ipAddress: z.string().nullable(),
    hardwareId: z.string().nullable(),
    timestamp: z.string(),
    /** What the event records beyond the columns; its fields depend on the event type. */
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditLog' });
export type AuditLog = z.infer<typeof AuditLogSchema>;

/** Newest first, from the last 24 hours. */
export const AuditLogListResponseSchema = z
  .object({
    logs: z.array(AuditLogSchema),
    /** Rows in `logs`. */
    count: z.number().int(),
    /** Events matching the filter in the last 24 hours (for paging). */
    total: z.number().int(),
    /** Every event in the last 24 hours, whatever the filter: the 'Security Events (24h)' card. */
    last24h: z.number().int(),
    timestamp: z.string(),
  })
  .meta({ id: 'AuditLogList' });
export type AuditLogListResponse = z.infer<typeof AuditLogListResponseSchema>;

/** Which limited call a limit guards. */
export const RATE_LIMITED_CALLS = [
  'login',
  'redeem',
  'challenge',
  'loader',
  'feed',
  'key',
  'order',
  'bot_enroll',
] as const;
export type RateLimitedCall = (typeof RATE_LIMITED_CALLS)[number];

export const RateLimitStatusSchema = z
  .object({
    /** Identifiers (IP or key, per call) currently refused until their window ends. */
    activeLimits: z.number().int(),
    /** Identifiers with a live window (requests counted right now). */
    totalLimits: z.number().int(),
    /** rate_limit_hit events in the last 24 hours. */
    hitCount24h: z.number().int(),
    /** The most limited identifiers in the last 24 hours, most hits first (at most 5). */
    topLimitedIPs: z.array(
      z.object({ identifier: z.string(), limitType: z.string(), count: z.number().int() }),
    ),
  })
  .meta({ id: 'RateLimitStatus' });
export type RateLimitStatus = z.infer<typeof RateLimitStatusSchema>;

/** GET /api/admin/security/rate-limits */
export const RateLimitStatusResponseSchema = z
  .object({ rateLimits: RateLimitStatusSchema, timestamp: z.string() })
  .meta({ id: 'RateLimitStatusResponse' });
export type RateLimitStatusResponse = z.infer<typeof RateLimitStatusResponseSchema>;
