import { z } from 'zod';
import { DEFAULT_FLEET_DEGRADED_BELOW_PERCENT } from '../common/fleet-condition.ts';

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
  /**
   * Feed calls per IP and per script key per window from a device a usable PREMIUM key is bound to:
   * counted apart from RATE_LIMIT_FEED. A premium script long-polls and asks again after every
   * answer, so on a busy fleet (1,000 bots: about 100 finds a second) it calls up to ~25 times a second.
   */
  RATE_LIMIT_FEED_PREMIUM: rateLimit(3000),
  /**
   * /ws/feed sockets one client address (IPv6: its /64) may hold open at once on an instance: an
   * address may be a household or a NAT, each PC running a script or two. Past it an upgrade gets 429.
   */
  FEED_SOCKETS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(10),
  /**
   * /ws/feed sockets one script key may hold open at once on an instance (a buyer's PC runs one or
   * two scripts); a newer one closes the oldest with 4410.
   */
  FEED_SOCKETS_PER_KEY: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(2),
  /** My key calls (POST /api/script/key-status and reset-hwid) per IP and per script key per window. */
  RATE_LIMIT_KEY: rateLimit(20),
  /** Orders placed (POST /api/public/orders) per IP per window (one address holds one pending order at a time anyway). */
  RATE_LIMIT_ORDER: rateLimit(5),
  /**
   * Minutes a new order holds its slot before its buyer opens the checkout; opening it (the app's
   * /api/public/orders/{id}/checkout, which sends the buyer on to BTCPay) holds the slot for the
   * invoice's life. An order nobody takes to its checkout gives its slot back this soon.
   */
  ORDER_HOLD_MINUTES: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1 minute')
    .max(60, 'must be at most 60 minutes')
    .default(3),
  /**
   * The share (percent) of the unsold slots that pending orders may hold together, rounded up. Past
   * it a pending order keeps no slot from the next buyer: whoever pays first gets the slot. 100 lets
   * pending orders hold every free slot (no order beyond them is taken).
   */
  PENDING_ORDERS_MAX_SHARE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of percent')
    .min(1, 'must be at least 1 (percent)')
    .max(100, 'must be at most 100 (percent)')
    .default(50),
  /** Device resets each script key may make over a rolling 7 days: the default of System Configuration's setting. */
  HWID_RESETS_PER_WEEK: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .default(1),
  /**
   * Minutes a device removed by a device reset may not bind that key again, so a script still running
   * on the old PC cannot take back the place the reset freed for the new one (0: no cool-down).
   */
  DEVICE_RESET_COOLDOWN_MINUTES: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of minutes')
    .min(0, 'must be 0 or more')
    .max(10_080, 'must be at most 10080 (7 days)')
    .default(1440),
  /**
   * Auto-join in the premium script acts only on finds younger than this many seconds, judged by the
   * server's time (each feed answer's serverTime); the loader hands it to the script it serves.
   */
  AUTO_JOIN_MAX_AGE_S: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .default(15),
  /*
   * Key-sharing signals (features/script-keys/key-sharing.service.ts): the addresses each script key
   * is used from, counted over a rolling window; a key over either threshold is flagged on Script Keys.
   */
  /** The window, in hours, over which each key's addresses and networks are counted. */
  KEY_SHARING_WINDOW_HOURS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of hours')
    .min(1, 'must be at least 1')
    .max(720, 'must be at most 720 (30 days)')
    .default(24),
  /** A key used from more than this many addresses in the window is flagged (IPv6 counted by /64). */
  KEY_SHARING_ADDRESS_THRESHOLD: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(5),
  /** A key used from more than this many networks (IPv4 /24s, IPv6 /48s) in the window is flagged. */
  KEY_SHARING_NETWORK_THRESHOLD: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(3),
  /** 'true': a flagged key is switched off at once, with a reason its buyer sees (loader, My key). */
  KEY_SHARING_AUTO_DISABLE: z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .default('false')
    .transform((v) => v === 'true'),
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
  /**
   * Bot enrollments (POST /api/bot/enroll) per IP per window, successful or not: enough for a fleet
   * of 70 behind one address to enroll at once; a flood of made-up ids gets 429 after it.
   */
  RATE_LIMIT_BOT_ENROLL: rateLimit(100),
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
  /** Below this share (percent) of its known bots heard from, the fleet is `degraded` (common/fleet-condition.ts). */
  FLEET_DEGRADED_BELOW_PERCENT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(DEFAULT_FLEET_DEGRADED_BELOW_PERCENT),
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
