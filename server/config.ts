import { z } from 'zod';
import { ALERT_SETTINGS } from './config-alerts.ts';
import { DISCORD_SETTINGS } from './config-discord.ts';
import { LIMIT_SETTINGS } from './config-limits.ts';
import { checkOutsideServiceSettings, OUTSIDE_SERVICE_SETTINGS } from './config-outside-services.ts';
import { DEFAULT_POOL_SIZE } from './db/index.ts';

/**
 * `scheme://host[:port]` as browsers send it in Origin (lowercase, default port dropped), or null when
 * `entry` is not an http(s) origin (a path, query or credentials make it something else).
 */
function bareOrigin(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  return bare && web ? url.origin : null;
}

/**
 * Every setting the server reads from the environment, with defaults that run out of the box: the
 * server's own here, its limits in config-limits.ts, the outside services' in config-outside-services.ts
 * and config-discord.ts.
 */
const ConfigFields = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  /** `postgres://…` selects PostgreSQL; anything else is a SQLite file path. */
  DATABASE_URL: z.string().default('./data/scanline.db'),
  /** PostgreSQL only: connections this instance opens at most (docs/configuration.md says how to size it). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(DEFAULT_POOL_SIZE),
  /** When set, the fan-out bus and shared counters go through Redis so several instances act as one. */
  REDIS_URL: z.string().optional(),
  /** Prefix of every Redis key and pub/sub channel (rate limits, fleet counter and finds, the bus): deployments on one Redis share nothing. */
  REDIS_KEY_PREFIX: z.string().default('scanline:'),
  /** The administrator's secret. When unset, one is generated on first start, stored hashed and printed once. */
  ADMIN_SECRET: z.string().min(1).optional(),
  /**
   * The shared bot token: the enrollment secret bots present to POST /api/bot/enroll for their own
   * credential (and, with BOT_TOKEN_LEGACY, what bots not yet enrolled present everywhere). Unset:
   * one is generated on first start.
   */
  BOT_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** Where a generated bot token is written once (mode 0600), for the simulator on the same machine. */
  BOT_TOKEN_FILE: z.string().default('./data/bot-token'),
  /**
   * 'true' (for the transition): bots not enrolled may still present the shared bot token on their
   * socket, POST /api/bot/events and the server pool, for ids that have no credential of their own.
   * 'false': the shared token only enrolls (docs/rules-fleet.md, "Bot credentials").
   */
  BOT_TOKEN_LEGACY: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Directory with the Lua scripts shipped with the app (location 'project'); a missing one means none. */
  SCRIPTS_DIR: z.string().default('./scripts'),
  /** Directory with the built web app; served when present. */
  WEB_DIST: z.string().default('./dist/web'),
  /** `info` logs what a person reads (docs/operations.md, "Logs"); `debug` adds a line per request. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `pretty` (readable lines, through pino-pretty) or `json` (one JSON object a line). Unset: pretty
   * when stdout is a terminal, json otherwise (a file, a pipe, journald, docker logs).
   */
  LOG_FORMAT: z
    .enum(['pretty', 'json', ''])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /**
   * Which proxies may set X-Forwarded-For: 'false' (default: the socket address is the client),
   * 'true' (any: only when nothing else can reach the server), or addresses/CIDRs separated by commas. Per-IP limits trust whatever this allows, so keep it as narrow as possible.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' || v === '' ? false : v)),
  /**
   * Origins besides the app's own (its Host with its scheme, read through the proxy when TRUST_PROXY
   * allows) from which admin pages may make changes and open the admin socket, comma-separated: e.g.
   * `https://admin.example.com` behind a proxy that does not pass X-Forwarded-Proto/Host. See
   * plugins/origin-check.ts.
   */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const entry of value.split(',').map((e) => e.trim())) {
        if (entry === '') continue;
        const origin = bareOrigin(entry);
        if (origin) origins.push(origin);
        else ctx.addIssue(`${entry} is not an origin like https://admin.example.com`);
      }
      return origins;
    }),
  /**
   * `GET /metrics` (Prometheus text) asks for `Authorization: Bearer <this>` when set; unset, only
   * loopback clients may read it (see server/operations/metrics.routes.ts).
   */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** 'false' records no metrics at all and /metrics answers 404 (the loader benchmark's "without" run). */
  METRICS_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * On SIGTERM/SIGINT the server stops taking work and finishes what it has (server/operations/shutdown.ts)
   * within this many milliseconds; past it, it logs what was still running and exits with code 1.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (one second)')
    .max(600_000, 'must be at most 600000 (ten minutes)')
    .default(10_000),
  /**
   * The site's address as buyers reach it (e.g. https://scanline.example.com), for BTCPay's redirect
   * back to /order/{id}. Unset: the address the buyer's request came to (through the proxy when
   * TRUST_PROXY allows).
   */
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return undefined;
      const origin = bareOrigin(v.trim().replace(/\/+$/, '/'));
      if (origin) return origin;
      ctx.addIssue(`${v} is not an origin like https://scanline.example.com`);
      return z.NEVER;
    }),
  /** Set when the server sits behind a TLS-terminating proxy, so cookies get the Secure flag. */
  COOKIE_SECURE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  ...LIMIT_SETTINGS,
  ...OUTSIDE_SERVICE_SETTINGS,
  ...DISCORD_SETTINGS,
  ...ALERT_SETTINGS,
});

/** The settings, and the rules that tie several of them together. */
const ConfigSchema = ConfigFields.superRefine(checkOutsideServiceSettings);

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
