import { z } from 'zod';

/** A whole number within bounds, with its unit in the error texts. */
const whole = (unit: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int(`must be a whole number of ${unit}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(fallback);

/**
 * The operator alerts' settings (server/features/alerts; server/config.ts joins them with the
 * others; docs/notifications.md, "Operator alerts").
 */
export const ALERT_SETTINGS = {
  /** How often the alert monitor looks at the fleet, payments, notifications and disk. */
  ALERT_CHECK_MS: whole('milliseconds', 1_000, 3_600_000, 15_000),
  /** A bad state (fleet down or degraded, payments disconnected…) must hold this long before its alert. */
  ALERT_RAISE_AFTER_SECONDS: whole('seconds', 0, 86_400, 60),
  /** A good state must hold this long again before its "back" alert. */
  ALERT_CLEAR_AFTER_SECONDS: whole('seconds', 0, 86_400, 120),
  /** A find destination is failing once a delivery of it has failed for this long (or it was turned off). */
  ALERT_NOTIFICATIONS_FAILING_MINUTES: whole('minutes', 1, 1_440, 10),
  /** The disk is low below this share of free space (0: no share rule). */
  ALERT_DISK_MIN_FREE_PERCENT: whole('percent', 0, 99, 10),
  /** The disk is low below this many MB free (0: no size rule). */
  ALERT_DISK_MIN_FREE_MB: whole('MB', 0, 10_000_000, 1_024),
  /** The directory whose disk is watched. Unset: the SQLite file's directory, or ./data with PostgreSQL. */
  ALERT_DISK_PATH: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
};
