import { z } from 'zod';

/*
 * Notifications: the admin's destinations (where finds, or operator alerts, are posted) and the
 * deliveries to them, as the API (server/features/notifications) and the Notifications screen
 * (web/pages/admin/notifications) share them.
 */

export const DESTINATION_KINDS = ['discord', 'json'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** 'dropped': older than its destination's maximum age when it could be posted (late mode 'drop'). */
export const DELIVERY_STATES = ['pending', 'sent', 'failed', 'dropped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What a destination does with a find older than its maximum age: drop it (counted), or post it marked late. */
export const LATE_MODES = ['drop', 'mark'] as const;
export type LateMode = (typeof LATE_MODES)[number];

export const MAX_AGE_LIMITS = { min: 10, max: 7 * 86_400 } as const;

/**
 * The maximum age of a destination left on automatic (maxAgeSeconds null), by its tier: a channel
 * without delay (premium: a find is worth something while its server lasts) keeps finds 60 s; a
 * delayed channel (free tiers) keeps them 5 minutes past their delay.
 */
export function defaultMaxAgeSeconds(delaySeconds: number): number {
  return delaySeconds === 0 ? 60 : delaySeconds + 300;
}

/** A value per second (finds' numeric value): finite and not negative. */
const ValueSchema = z.number().finite().min(0, 'Values are 0 or more per second');

/** What the admin sends to create a destination (PATCH sends any part of it). */
export const DestinationInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    kind: z.enum(DESTINATION_KINDS),
    /** Checked by the server beyond its shape (https, Discord's hosts, no private address). */
    url: z.string().trim().min(1, 'URL is required').max(2048, 'URL must be at most 2048 characters'),
    minValue: ValueSchema.default(0),
    maxValue: ValueSchema.nullable().default(null),
    petNames: z.array(z.string().trim().min(1).max(100)).max(200, 'At most 200 pet names').default([]),
    delaySeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400, 'The delay is at most 86400 seconds (a day)')
      .default(0),
    includeJoinData: z.boolean().default(true),
    mentionRoleId: z
      .string()
      .regex(/^\d{1,25}$/, 'A Discord role id is its digits')
      .nullable()
      .default(null),
    mentionFromValue: ValueSchema.nullable().default(null),
    enabled: z.boolean().default(true),
    /** Seconds after a find that it may still be posted as new; null: the tier's default. */
    maxAgeSeconds: z
      .number()
      .int('The maximum age is whole seconds')
      .min(MAX_AGE_LIMITS.min, `The maximum age is at least ${MAX_AGE_LIMITS.min} seconds`)
      .max(MAX_AGE_LIMITS.max, `The maximum age is at most ${MAX_AGE_LIMITS.max} seconds (a week)`)
      .nullable()
      .default(null),
    lateMode: z.enum(LATE_MODES).default('drop'),
    /** Operator alerts instead of finds: such a destination gets alerts only, and no finds. */
    alerts: z.boolean().default(false),
  })
  .strict()
  .refine((d) => d.maxValue === null || d.maxValue >= d.minValue, {
    message: 'The maximum value must be at least the minimum',
    path: ['maxValue'],
  })
  .refine((d) => d.maxAgeSeconds === null || d.maxAgeSeconds > d.delaySeconds, {
    message: 'The maximum age must be more than the delay (or every find would be too old)',
    path: ['maxAgeSeconds'],
  });
export type DestinationInput = z.infer<typeof DestinationInputSchema>;

/** Delivery figures of one destination, as its row on the screen shows them. */
export const DestinationStatsSchema = z.object({
  sent: z.number(),
  pending: z.number(),
  failed: z.number(),
  /** Finds not posted because they were older than the maximum age. */
  dropped: z.number(),
  lastError: z.string().nullable(),
  /** Milliseconds from the find to its post, over the sent deliveries; null before the first. */
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
});
export type DestinationStats = z.infer<typeof DestinationStatsSchema>;

/** A destination as the API answers it: its URL masked (the token is a secret). */
export const DestinationSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS),
  url: z.string(),
  minValue: z.number(),
  maxValue: z.number().nullable(),
  petNames: z.array(z.string()),
  delaySeconds: z.number(),
  includeJoinData: z.boolean(),
  mentionRoleId: z.string().nullable(),
  mentionFromValue: z.number().nullable(),
  enabled: z.boolean(),
  maxAgeSeconds: z.number().nullable(),
  /** The maximum age that applies: maxAgeSeconds, or the tier's default when it is null. */
  maxAgeSecondsInEffect: z.number(),
  lateMode: z.enum(LATE_MODES),
  /** It gets operator alerts, not finds. */
  alerts: z.boolean(),
  /** Why the dispatcher turned it off (e.g. 'Unknown Webhook (404)'); null otherwise. */
  disabledReason: z.string().nullable(),
  stats: DestinationStatsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Destination = z.infer<typeof DestinationSchema>;

/**
 * GET …/destinations: the destinations, and the server's own URL settings (NOTIFY_ALLOW_HOSTS,
 * NOTIFY_ALLOW_PRIVATE), by which the admin's form judges a URL before sending it (common/outbound-url.ts).
 */
export const DestinationListSchema = z.object({
  destinations: z.array(DestinationSchema),
  urlPolicy: z.object({ allowHosts: z.array(z.string()), allowPrivate: z.boolean() }),
});
export type DestinationList = z.infer<typeof DestinationListSchema>;

/** One post of a find (or an operator alert) to a destination. */
export const DeliverySchema = z.object({
  id: z.number(),
  destinationId: z.number(),
  destinationName: z.string(),
  /** 'alert': an operator alert, whose title is in `petName` and its state in `value`. */
  item: z.enum(['find', 'alert']),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number(),
  petName: z.string(),
  value: z.string(),
  numericValue: z.number(),
  foundAt: z.string(),
  dueAt: z.string(),
  sentAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const DeliveryListSchema = z.object({ deliveries: z.array(DeliverySchema) });

export const DeliveryQuerySchema = z.object({
  destinationId: z.coerce.number().int().positive().optional(),
  state: z.enum(DELIVERY_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * What the admin sends to change a destination: any part of the input, nothing defaulted (a field
 * left out keeps its value). The range is checked against the stored values by the server.
 */
export const DestinationPatchSchema = z
  .object(
    Object.fromEntries(
      Object.entries(DestinationInputSchema.shape).map(([key, field]) => [
        key,
        (field instanceof z.ZodDefault ? field.unwrap() : field).optional(),
      ]),
    ) as unknown as {
      [K in keyof typeof DestinationInputSchema.shape]: z.ZodOptional<z.ZodType<DestinationInput[K]>>;
    },
  )
  .strict();
export type DestinationPatch = z.infer<typeof DestinationPatchSchema>;

/** What operator alerts watch (docs/notifications.md, "Operator alerts"). */
export const ALERT_KINDS = ['fleet', 'payments', 'notifications', 'disk'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** critical: down, stopped, disconnected (red); warning: degraded, failing, low (amber); ok: back (green). */
export const ALERT_SEVERITIES = ['critical', 'warning', 'ok'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** One alert as an alerts destination receives it (JSON: `{type: 'alert', alert, destination, deliveryId}`). */
export const OperatorAlertSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  /** The state it changed to (fleet: live, degraded, down, stopped; payments: connected, disconnected…). */
  state: z.string(),
  /** The state alerted before. */
  previous: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  /** e.g. 'Fleet down', 'Emergency stop by admin (10.0.0.5)'. */
  title: z.string(),
  /** One sentence in the operator's words, e.g. 'No bot has reported for 2 min — last heard …'. */
  message: z.string(),
  /** When it was raised (ISO). */
  at: z.string(),
});
export type OperatorAlert = z.infer<typeof OperatorAlertSchema>;
