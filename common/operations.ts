import { z } from 'zod';

/** GET /healthz: the process answers (liveness). Never fails while the process can answer at all. */
export const LivenessSchema = z
  .object({
    status: z.literal('ok'),
    /** The event loop's delay (99th percentile over the last few seconds), in milliseconds. */
    eventLoopLagMs: z.number(),
    /** Seconds since the process started. */
    uptimeS: z.number(),
  })
  .meta({ id: 'Liveness', description: 'The process answers; how late its event loop runs' });
export type Liveness = z.infer<typeof LivenessSchema>;

/** What /readyz checks: each part the instance needs to serve, and the shutdown it may be in. */
export const READINESS_PARTS = ['shutting-down', 'database', 'migrations', 'redis'] as const;
export type ReadinessPart = (typeof READINESS_PARTS)[number];

export const ReadinessCheckSchema = z
  .object({
    ok: z.boolean(),
    /** Why the part failed: its error, or `timed out after N ms`. */
    error: z.string().optional(),
    /** How long the check took, in milliseconds. */
    durationMs: z.number(),
  })
  .meta({ id: 'ReadinessCheck' });
export type ReadinessCheck = z.infer<typeof ReadinessCheckSchema>;

/**
 * GET /readyz: 200 `ready` when every part answered, 503 `unavailable` naming the parts that failed.
 * `redis` is checked only with REDIS_URL; `migrations` only when the database answered;
 * `shutting-down` appears (failed) once the process received SIGTERM.
 */
export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    failed: z.array(z.enum(READINESS_PARTS)),
    checks: z.object({
      'shutting-down': ReadinessCheckSchema.optional(),
      database: ReadinessCheckSchema.optional(),
      migrations: ReadinessCheckSchema.optional(),
      redis: ReadinessCheckSchema.optional(),
    }),
  })
  .meta({ id: 'Readiness', description: 'Whether this instance can serve, part by part' });
export type Readiness = z.infer<typeof ReadinessSchema>;
