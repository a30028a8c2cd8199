import { z } from 'zod';

/** A requests-per-window limit: a whole number, at least 1. */
const rateLimit = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(fallback);

/**
 * The settings that bound what the server accepts and keeps (server/config.ts joins them with the
 * others): request limits, the fleet's and the pool's bounds, retention, deadlines.
 */
export const LIMIT_SETTINGS = {
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
  /**
   * Admin logins checked against the generated secret's scrypt hash at once, per instance (each is
   * 65–85 ms on libuv's 4-thread pool). Only the right secret and one wrong guess in 4 billion need
   * one once the secret has its check value (docs/rules-security.md, Admin session).
   */
  LOGIN_HASH_CONCURRENCY: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(4, 'must be at most 4 (the thread pool)')
    .default(2),
  /** Admin logins waiting for a scrypt check, per instance; past it a login is refused with 429. */
  LOGIN_QUEUE_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .default(16),
  /** Scrypt checks one IP (IPv6: /64) may have running or waiting at once; more are refused with 429. */
  LOGIN_QUEUE_PER_ADDRESS: rateLimit(1),
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
};
