import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { RateLimitedCall } from '../../common/security.ts';
import type { AppContext } from '../context.ts';
import { loaderRefusalChunk } from '../features/scripts/loader-response.ts';
import { limitedClient } from '../features/security/client-address.ts';
import { RATE_LIMIT_HIT } from '../features/security/rate-limit-hits.store.ts';
import {
  MemoryRateLimitStore,
  type RateLimitCount,
  type RateLimitStore,
} from '../features/security/rate-limit-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The preHandler hooks that rate-limit one call per client IP and, where the call carries one,
     * per key (redeem: the code; challenge and loader: the script key). Refused requests are
     * audited as `rate_limit_hit`: one row per caller and window, `details.count` saying how many.
     */
    rateLimitHooks(call: RateLimitedCall): preHandlerHookHandler[];
    /** The counters behind `rateLimitHooks`, for the rate-limit status screen. */
    rateLimitStore: RateLimitStore;
  }
}

type LimitScope = 'ip' | 'key';

/** The text a refused call answers with (JSON `{error}`, or printed by the loader's Lua). */
export function tooManyRequestsText(seconds: number): string {
  return `Too many requests: try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** Longest key or hardware id worth counting or auditing; the routes refuse longer ones anyway. */
const MAX_FIELD_LENGTH = 200;

/** A non-empty string field of a parsed body or query, or undefined. */
function textField(source: unknown, field: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[field];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_LENGTH
    ? value
    : undefined;
}

/**
 * Where each call carries its key. The hooks run as preHandlers, after the route's schema, so
 * redeem and challenge bodies are validated (and trimmed) already; the loader validates its query
 * itself (its refusals must be Lua), so its key may be anything here.
 */
const KEY_OF: Record<RateLimitedCall, ((request: FastifyRequest) => string | undefined) | null> = {
  login: null,
  // Redemption upper-cases the code, so 'abc' and 'ABC' are one code and share one count.
  redeem: (request) => textField(request.body, 'code')?.toUpperCase(),
  challenge: (request) => textField(request.body, 'key'),
  loader: (request) => textField(request.query, 'key'),
};

/** The IP a per-IP limit counts: IPv4 as it is, IPv6 per /64 (limitedClient). */
function clientIdentifier(request: FastifyRequest): string {
  // `ip` is missing under inject for sockets; app.ts's keyGenerator uses the same stand-in.
  const ip: string | undefined = request.ip;
  return ip === undefined ? 'inject' : limitedClient(ip);
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
 * Registers the counters and `app.rateLimitHooks`. The hooks count straight in the store, in a
 * callback-style preHandler, rather than through @fastify/rate-limit's `createRateLimit`: that
 * wraps each check in an async function, an awaited key generator and a promise around the store,
 * which measured 16 µs per loader call here (a quarter of its cost, and the difference between
 * meeting the loader's throughput goal or not); and its `rateLimit` hook runs only once per request,
 * where each call here has two limits (its IP and its key). The plugin's `normalizeIP` groups IPv6
 * (through limitedClient).
 */
export function registerRateLimits(app: FastifyInstance, ctx: AppContext): void {
  const store = new MemoryRateLimitStore({ now: ctx.now });
  const limits: Record<RateLimitedCall, number> = {
    login: ctx.config.RATE_LIMIT_LOGIN,
    redeem: ctx.config.RATE_LIMIT_REDEEM,
    challenge: ctx.config.RATE_LIMIT_CHALLENGE,
    loader: ctx.config.RATE_LIMIT_LOADER,
  };
  app.decorate('rateLimitStore', store);
  app.decorate('rateLimitHooks', (call: RateLimitedCall) => [
    createLimitHook(app, ctx, store, call, limits[call]),
  ]);
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
): preHandlerHookHandler {
  const windowMs = ctx.config.RATE_LIMIT_WINDOW_MS;
  const ipPrefix = `${call}:ip:`;
  const keyPrefix = `${call}:key:`;
  const keyOf = KEY_OF[call];

  function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: LimitScope,
    identifier: string,
    resetAt: number,
  ): void {
    const now = ctx.now();
    const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
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
    const message = tooManyRequestsText(seconds);
    if (call === 'loader') {
      // An executor runs whatever comes back, so the loader's refusal is Lua that prints the reason.
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(loaderRefusalChunk(message));
      return;
    }
    reply.send({ error: message });
  }

  // Callback style: a reply sent here ends the request (done is not called then).
  return function rateLimit(request, reply, done) {
    const ip = clientIdentifier(request);
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
