import { z } from 'zod';

/** A requests-per-window limit: a whole number, at least 1. */
const rateLimit = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(fallback);

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

/** Empty or blank text is no value: `BTCPAY_API_KEY=` leaves the setting to System Configuration. */
const blankAsUnset = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/** Every setting the server reads from the environment, with defaults that run out of the box. */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  /** `postgres://…` selects PostgreSQL; anything else is a SQLite file path. */
  DATABASE_URL: z.string().default('./data/scanline.db'),
  /** When set, the fan-out bus and shared counters go through Redis so several instances act as one. */
  REDIS_URL: z.string().optional(),
  /** Prefix of the keys the shared rate limits write in Redis (several deployments on one Redis). */
  REDIS_KEY_PREFIX: z.string().default('scanline:'),
  /** The administrator's secret. When unset, one is generated on first start, stored hashed and printed once. */
  ADMIN_SECRET: z.string().min(1).optional(),
  /** Token scanner bots present on the socket and bot endpoints. Unset: one is generated on first start. */
  BOT_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** Where a generated bot token is written once (mode 0600), for the simulator on the same machine. */
  BOT_TOKEN_FILE: z.string().default('./data/bot-token'),
  /** Directory with the Lua scripts shipped with the app (location 'project'); a missing one means none. */
  SCRIPTS_DIR: z.string().default('./scripts'),
  /** Directory with the built web app; served when present. */
  WEB_DIST: z.string().default('./dist/web'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which proxies may set X-Forwarded-For: 'false' (default: the socket address is the client),
   * 'true' (any: only when nothing else can reach the server), or addresses/CIDRs separated by commas. Per-IP limits trust whatever this allows, so keep it as narrow as possible.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' || v === '' ? false : v)),
  /*
   * Request limits per client IP and, where the call carries one, per key (redeem: the code;
   * challenge and loader: the script key), counted in fixed windows of RATE_LIMIT_WINDOW_MS. The
   * same number applies to each scope: with RATE_LIMIT_LOADER=120 one IP may make 120 loader calls
   * a minute, and so may one key across all IPs. The N+1th call in a window gets 429. With
   * REDIS_URL the instances count together in Redis, each on its own while Redis does not answer
   * (see server/features/security/redis-rate-limit-store.ts).
   */
  /** Admin login attempts per IP per window (the 5-failures lockout in the auth service applies as well). */
  RATE_LIMIT_LOGIN: rateLimit(10),
  /** Code redemptions per IP and per code per window. */
  RATE_LIMIT_REDEEM: rateLimit(10),
  /** Challenge nonces per IP and per script key per window. */
  RATE_LIMIT_CHALLENGE: rateLimit(30),
  /** Loader calls per IP and per script key per window: a user's executor calls it at each script start. */
  RATE_LIMIT_LOADER: rateLimit(120),
  /**
   * Discovery feed calls (GET /api/script/feed, /ws/feed upgrades) per IP and per script key per
   * window: a long-polling script calls about twice a minute, one polling every second 60 times.
   */
  RATE_LIMIT_FEED: rateLimit(120),
  /** My key calls (POST /api/script/key-status and reset-hwid) per IP and per script key per window. */
  RATE_LIMIT_KEY: rateLimit(20),
  /** Orders placed (POST /api/public/orders) per IP per window: each one holds a slot until its invoice expires. */
  RATE_LIMIT_ORDER: rateLimit(5),
  /** Device resets each script key may make over a rolling 7 days: the default of System Configuration's setting. */
  HWID_RESETS_PER_WEEK: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .default(1),
  /**
   * Auto-join in the premium script acts only on finds younger than this many seconds, judged by the
   * server's time (each feed answer's serverTime); the loader hands it to the script it serves.
   */
  AUTO_JOIN_MAX_AGE_S: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .default(15),
  /** The window all the limits above count in, in milliseconds (one minute). */
  RATE_LIMIT_WINDOW_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (one second)')
    .default(60_000),
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
  /** Audit log rows older than this many days are deleted (hourly, and at start). */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .default(90),
  /** Fleet hops and discoveries older than this many days are deleted (hourly, and at start). */
  FLEET_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .default(7),
  /**
   * At most this many bots in the fleet at once; a new bot past it is refused (an `error` frame and
   * close code 4409). One instance on two shared cores served 700 bots with a trivial GET at p50 19 ms.
   */
  FLEET_MAX_BOTS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(1000),
  /** A bot silent for this many days is forgotten (its scanner row, configuration and leases; its history stays). */
  FLEET_FORGET_AFTER_DAYS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .default(7),
  /**
   * Each bot's budget of events (socket frames and POST /api/bot/events events together): a token
   * bucket refilled at this many events per second, holding RATE_LIMIT_BOT_EVENTS_BURST (default ten
   * times this). Over it, 429 with Retry-After (an `error` frame on the socket) and nothing is kept.
   */
  RATE_LIMIT_BOT_EVENTS: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be more than 0')
    .max(1_000_000, 'must be at most 1000000')
    .default(50),
  /** The bot event bucket's size (a burst a bot may send at once); unset: ten times RATE_LIMIT_BOT_EVENTS. */
  RATE_LIMIT_BOT_EVENTS_BURST: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .optional(),
  /** Wrong bot tokens per IP per RATE_LIMIT_WINDOW_MS before that IP is refused with 429 (like failed admin logins). */
  RATE_LIMIT_BOT_AUTH_FAILURES: rateLimit(20),
  /** Server pool servers one bot may hold claimed at once; a claim past it is refused with 409. */
  POOL_MAX_SERVERS_PER_BOT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(3),
  /**
   * Rows the batched writer holds unwritten at most (a database outage); past it, bot events are
   * refused with 429 and Retry-After so bots send them again later, rather than held in memory.
   */
  WRITER_MAX_PENDING_ROWS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(100, 'must be at least 100')
    .default(50_000),
  /** A bot that has sent nothing (any message counts) for this long is shown `inactive`. */
  FLEET_INACTIVE_AFTER_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (one second)')
    .default(30_000),
  /**
   * A server a bot claimed from the pool goes back to available when that bot neither releases it
   * nor heartbeats (a pool call or a fleet message) for this many seconds.
   */
  POOL_LEASE_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of seconds')
    .min(5, 'must be at least 5')
    .max(86_400, 'must be at most 86400 (a day)')
    .default(120),
  /**
   * A bot sent a `config` frame that has not answered `config_ack` within this many milliseconds
   * counts as failed ('no acknowledgement') for that change.
   */
  CONFIG_ACK_DEADLINE_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (one second)')
    .max(3_600_000, 'must be at most 3600000 (an hour)')
    .default(10_000),
  /*
   * The optional language-model summary of a health report (features/health/report/model-summary.ts):
   * with AI_BASE_URL and AI_MODEL set, Generate Report also asks an OpenAI-compatible endpoint
   * (`${AI_BASE_URL}/chat/completions`, e.g. Ollama's http://localhost:11434/v1) for a short summary.
   * Unset, the report is rule-based only.
   */
  /** Base URL of an OpenAI-compatible API, up to and without `/chat/completions`. */
  AI_BASE_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const url = URL.canParse(v) ? new URL(v) : null;
      if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return v.trim().replace(/\/+$/, '');
      ctx.addIssue(`${v} is not an http(s) URL like http://localhost:11434/v1`);
      return z.NEVER;
    }),
  /** The model name the endpoint knows (`llama3.2`, `qwen2.5:7b`). */
  AI_MODEL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  /** Sent as `Authorization: Bearer …` when set (hosted endpoints; a local Ollama needs none). */
  AI_API_KEY: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** How long Generate Report waits for the model before storing the rule-based report alone. */
  AI_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(100, 'must be at least 100')
    .max(600_000, 'must be at most 600000 (ten minutes)')
    .default(20_000),
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
  /*
   * Notifications (server/features/notifications): where finds may be posted. A 'discord'
   * destination takes only Discord's webhook hosts, and no destination may reach a private,
   * loopback or link-local address, unless these settings say otherwise.
   */
  /** Hosts a 'discord' destination may post to besides Discord's own, comma-separated (a relay, a test double). */
  NOTIFY_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    ),
  /**
   * 'true' lets destinations reach private, loopback and link-local addresses, and plain http to
   * them: for tests (a fake Discord on 127.0.0.1) and a bridge on the operator's own network.
   */
  NOTIFY_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * 'false': this instance writes finds' deliveries but never sends them (another instance does;
   * one sends for the whole cluster anyway, through a lease in the database).
   */
  NOTIFY_DISPATCH: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * A join link added to Discord posts that include join data, with `{placeId}` and `{jobId}`
   * filled in, e.g. `https://example.com/join?placeId={placeId}&gameInstanceId={jobId}`. It must be
   * https: Discord shows only http(s) links, and a join link should not travel in clear.
   */
  NOTIFY_JOIN_URL_TEMPLATE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const template = v.trim();
      const url = URL.canParse(template) ? new URL(template) : null;
      if (url?.protocol === 'https:') return template;
      ctx.addIssue(
        `${template} is not an https URL like https://example.com/join?placeId={placeId}&gameInstanceId={jobId}`,
      );
      return z.NEVER;
    }),
  /*
   * Payments (server/features/payments): BTCPay Server's Greenfield API. Each of the four, when set
   * here, wins over what System Configuration stores; with all four set (in either place) the buyer
   * page offers Pay now. Empty counts as unset.
   */
  /** The BTCPay Server's base URL, e.g. https://btcpay.example.com. */
  BTCPAY_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const url = v?.trim().replace(/\/+$/, '');
      if (!url) return undefined;
      if (/^https?:\/\/[^/]/.test(url) && URL.canParse(url)) return url;
      ctx.addIssue(`${url} is not an http(s) URL like https://btcpay.example.com`);
      return z.NEVER;
    }),
  /** The store whose invoices the orders are. */
  BTCPAY_STORE_ID: z.string().optional().transform(blankAsUnset),
  /** A Greenfield API key with the store's btcpay.store.cancreateinvoice and btcpay.store.canviewinvoices permissions. */
  BTCPAY_API_KEY: z.string().optional().transform(blankAsUnset),
  /** The secret of the store's webhook (BTCPay-Sig's HMAC key). */
  BTCPAY_WEBHOOK_SECRET: z.string().optional().transform(blankAsUnset),
  /** How often pending orders' invoices are read again (a webhook that never came), in milliseconds. */
  PAYMENTS_RECONCILE_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (one second)')
    .default(60_000),
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
});

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
