import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { RateLimitedCall } from '../../../common/security.ts';
import type { AppContext } from '../../context.ts';
import { limitedClientOf } from './client-address.ts';
import { RATE_LIMIT_HIT } from './rate-limit-hits.store.ts';
import { MemoryRateLimitStore, type RateLimitCount, type RateLimitStore } from './rate-limit-store.ts';
import { createLimitsConnection, RedisRateLimitStore } from './redis-rate-limit-store.ts';
import { routeRateLimitStore } from './route-rate-limit-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The preHandler hooks that rate-limit one call per client IP and, where the route says the
     * call carries one (`keyOf`), per key. Refused requests get 429 (`refuse` writes the body;
     * JSON `{error}` by default) and are audited as `rate_limit_hit`: one row per caller and
     * window, `details.count` saying how many.
     */
    rateLimitHooks(call: RateLimitedCall, options?: RateLimitOptions): preHandlerHookHandler[];
    /**
     * The counters behind `rateLimitHooks`, for the rate-limit status screen. With REDIS_URL a
     * RedisRateLimitStore, whose `usingFallback` and `fallbackHits` say whether it counts in memory.
     */
    rateLimitStore: RateLimitStore;
  }
}

type LimitScope = 'ip' | 'key';

/** What a route tells its limit: where the call's key is, and how a refusal reads. */
export interface RateLimitOptions {
  /** The key the call counts against besides its IP (a code, a script key), or undefined for none. */
  keyOf?: (request: FastifyRequest) => string | undefined;
  /** Sends the refusal (status 429 and headers are set); JSON `{error: message}` when absent. */
  refuse?: (request: FastifyRequest, reply: FastifyReply, message: string) => void;
  /** A second limit of the call (the feed's premium one): this many per window, on counters named `counters`. */
  limit?: { max: number; counters: string };
}

const refuseWithJson = (_request: FastifyRequest, reply: FastifyReply, message: string) => {
  reply.send({ error: message });
};

/** The text a refused call answers with (JSON `{error}`, or printed by the loader's Lua). */
export function tooManyRequestsText(seconds: number): string {
  return `Too many requests: try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** Longest key or hardware id worth counting or auditing; the routes refuse longer ones anyway. */
const MAX_FIELD_LENGTH = 200;

/**
 * A non-empty string field of a parsed body or query, or undefined: how routes name their key for
 * `keyOf`. Hooks run as preHandlers, after the route's schema, but the loader validates its query
 * itself (its refusals must be Lua), so a field may be anything here: overlong ones are not counted.
 */
export function textField(source: unknown, field: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[field];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_LENGTH
    ? value
    : undefined;
}

function hardwareIdOf(request: FastifyRequest): string | null {
  const header = request.headers['x-hardware-id'];
  return (
    textField(request.body, 'hwid') ??
    textField(request.query, 'hwid') ??
    (typeof header === 'string' && header.length > 0 && header.length <= MAX_FIELD_LENGTH ? header : null)
  );
}

/**
 * Registers the counters and `app.rateLimitHooks`, and returns the store @fastify/rate-limit's
 * per-route limits count in (its `store` option). The counters are in memory, or in Redis with
 * REDIS_URL so every instance counts against the same limit (memory again while Redis does not
 * answer). The hooks count straight in the store, in a
 * callback-style preHandler, rather than through @fastify/rate-limit's `createRateLimit`: that
 * wraps each check in an async function, an awaited key generator and a promise around the store,
 * which measured 16 µs per loader call here (a quarter of its cost, and the difference between
 * meeting the loader's throughput goal or not); and its `rateLimit` hook runs only once per request,
 * where each call here has two limits (its IP and its key). The plugin's `normalizeIP` groups IPv6
 * (through limitedClient).
 */
export function registerRateLimits(app: FastifyInstance, ctx: AppContext) {
  const { store, routeStore } = createStores(app, ctx);
  const limits: Record<RateLimitedCall, number> = {
    login: ctx.config.RATE_LIMIT_LOGIN,
    redeem: ctx.config.RATE_LIMIT_REDEEM,
    challenge: ctx.config.RATE_LIMIT_CHALLENGE,
    loader: ctx.config.RATE_LIMIT_LOADER,
    feed: ctx.config.RATE_LIMIT_FEED,
    key: ctx.config.RATE_LIMIT_KEY,
    order: ctx.config.RATE_LIMIT_ORDER,
    bot_enroll: ctx.config.RATE_LIMIT_BOT_ENROLL,
  };
  app.decorate('rateLimitStore', store);
  app.decorate('rateLimitHooks', (call: RateLimitedCall, options: RateLimitOptions = {}) => [
    createLimitHook(app, ctx, store, call, options.limit?.max ?? limits[call], options),
  ]);
  return routeRateLimitStore(routeStore, ctx.now);
}

/** The licensing limits' store and the per-route limits' one: in memory, or in Redis under two prefixes. */
function createStores(
  app: FastifyInstance,
  ctx: AppContext,
): { store: RateLimitStore; routeStore: RateLimitStore } {
  const url = ctx.config.REDIS_URL;
  if (!url)
    return { store: new MemoryRateLimitStore({ now: ctx.now }), routeStore: new MemoryRateLimitStore() };
  // A connection of its own: time-boxed calls and no offline queue, unlike the bus's.
  const redis = createLimitsConnection(url);
  const prefix = `${ctx.config.REDIS_KEY_PREFIX}limits:`;
  const store = new RedisRateLimitStore(redis, { prefix: `${prefix}calls:`, now: ctx.now, log: app.log });
  // The per-route limits (@fastify/rate-limit) measure their windows by the real clock.
  const routeStore = store.withPrefix(`${prefix}routes:`, Date.now);
  app.addHook('onReady', async () => {
    // A Redis that is away at start: the limits count in memory until it answers (one warning).
    await redis.connect().catch((error: unknown) => store.fellBack(error));
  });
  app.addHook('onClose', async () => store.close());
  return { store, routeStore };
}

/** Runs `then` with the count, at once when the store answered synchronously (the in-memory one does). */
function whenCounted(
  counted: RateLimitCount | Promise<RateLimitCount>,
  then: (counted: RateLimitCount) => void,
  failed: (error: Error) => void,
): void {
  if (counted instanceof Promise) counted.then(then, failed);
  else then(counted);
}

/**
 * One preHandler for `call`: counts the request against its IP, then (if the IP is within its
 * limit) against its key. The allowed path is two counter increments and nothing else: no database,
 * no promise.
 */
function createLimitHook(
  app: FastifyInstance,
  ctx: AppContext,
  store: RateLimitStore,
  call: RateLimitedCall,
  limit: number,
  { keyOf, refuse: sendRefusal = refuseWithJson, limit: own }: RateLimitOptions,
): preHandlerHookHandler {
  const windowMs = ctx.config.RATE_LIMIT_WINDOW_MS;
  const counters = own?.counters ?? call;
  const ipPrefix = `${counters}:ip:`;
  const keyPrefix = `${counters}:key:`;

  function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: LimitScope,
    identifier: string,
    resetAt: number,
  ): void {
    const now = ctx.now();
    const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
    ctx.services.metrics.rateLimitRefused(call);
    // Queued, not awaited, and one row per caller and window (with a count): a flood of refusals
    // must turn into neither a flood of transactions nor a flood of rows.
    app.pendingWrites.rateLimitHit(
      `${scope === 'ip' ? ipPrefix : keyPrefix}${identifier}`,
      {
        eventType: RATE_LIMIT_HIT,
        success: false,
        ipAddress: request.ip ?? null,
        licenseKey: scope === 'key' ? identifier : null,
        hardwareId: hardwareIdOf(request),
        details: { limitType: call, scope, identifier, limit },
      },
      resetAt,
      now,
    );
    reply
      .status(429)
      .header('retry-after', String(seconds))
      .header('x-ratelimit-limit', String(limit))
      .header('x-ratelimit-remaining', '0')
      .header('x-ratelimit-reset', String(seconds));
    sendRefusal(request, reply, tooManyRequestsText(seconds));
  }

  // Callback style: a reply sent here ends the request (done is not called then).
  return function rateLimit(request, reply, done) {
    const ip = limitedClientOf(request);
    whenCounted(
      store.hit(ipPrefix + ip, limit, windowMs),
      (byIp) => {
        if (byIp.count > limit) return refuse(request, reply, 'ip', ip, byIp.resetAt);
        const key = keyOf?.(request);
        if (key === undefined) return done();
        whenCounted(
          store.hit(keyPrefix + key, limit, windowMs),
          (byKey) => (byKey.count > limit ? refuse(request, reply, 'key', key, byKey.resetAt) : done()),
          done,
        );
      },
      done,
    );
  };
}
