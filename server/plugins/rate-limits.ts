import rateLimitPlugin, { type FastifyRateLimitStoreCtor, normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { RateLimitedCall } from '../../common/security.ts';
import type { AppContext } from '../context.ts';
import { loaderRefusalChunk } from '../features/scripts/loader-response.ts';
import {
  MemoryRateLimitStore,
  type RateLimitCount,
  type RateLimitStore,
} from '../features/security/rate-limit-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The preHandler hooks that rate-limit one call per client IP and, where the call carries one,
     * per key (redeem: the code; challenge and loader: the script key). Each refused request is
     * audited as `rate_limit_hit`.
     */
    rateLimitHooks(call: RateLimitedCall): preHandlerAsyncHookHandler[];
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

/**
 * The IP a per-IP limit counts. IPv6 clients are counted per /64, the block one subscriber
 * usually holds, so rotating addresses inside it does not reset the count. IPv4 addresses go
 * through as they are (the cheap path: this runs on every loader call).
 */
function clientIdentifier(request: FastifyRequest): string {
  // `ip` is missing under inject for sockets; app.ts's keyGenerator uses the same stand-in.
  const ip: string | undefined = request.ip;
  if (ip === undefined) return 'inject';
  return ip.includes(':') ? normalizeIP(ip) : ip;
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
 * @fastify/rate-limit's store interface over our counters, so the plugin counts in a store that runs
 * on the app's clock (tests move it) and can tell the status screen how many identifiers are limited.
 */
function pluginStoreFor(store: RateLimitStore, now: () => number): FastifyRateLimitStoreCtor {
  return class {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      const settle = (counted: RateLimitCount) =>
        callback(null, { current: counted.count, ttl: counted.resetAt - now() });
      const counted = store.hit(key, max, timeWindow);
      if (counted instanceof Promise) counted.then(settle, (error: Error) => callback(error));
      else settle(counted);
    }

    child() {
      return this;
    }
  };
}

/**
 * Registers @fastify/rate-limit over our store, and `app.rateLimitHooks`. The limits are checked
 * with the plugin's `createRateLimit` rather than its `rateLimit` hook, because that hook runs once
 * per request and each call here has two limits (its IP and its key).
 */
export async function registerRateLimits(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const store = new MemoryRateLimitStore({ now: ctx.now });
  await app.register(rateLimitPlugin, { global: false, store: pluginStoreFor(store, ctx.now) });
  const limits: Record<RateLimitedCall, number> = {
    login: ctx.config.RATE_LIMIT_LOGIN,
    redeem: ctx.config.RATE_LIMIT_REDEEM,
    challenge: ctx.config.RATE_LIMIT_CHALLENGE,
    loader: ctx.config.RATE_LIMIT_LOADER,
  };
  app.decorate('rateLimitStore', store);
  app.decorate('rateLimitHooks', (call: RateLimitedCall) => [createLimitHook(app, ctx, call, limits[call])]);
}

/**
 * One preHandler for `call`: counts the request against its IP, then (if the IP is within its
 * limit) against its key. The allowed path is two counter increments and nothing else: no database.
 */
function createLimitHook(
  app: FastifyInstance,
  ctx: AppContext,
  call: RateLimitedCall,
  limit: number,
): preHandlerAsyncHookHandler {
  const timeWindow = ctx.config.RATE_LIMIT_WINDOW_MS;
  const ipPrefix = `${call}:ip:`;
  const keyPrefix = `${call}:key:`;
  const keyOf = KEY_OF[call];
  const countIp = app.createRateLimit({
    max: limit,
    timeWindow,
    keyGenerator: (request) => ipPrefix + clientIdentifier(request),
  });
  const countKey = app.createRateLimit({
    max: limit,
    timeWindow,
    keyGenerator: (request) => keyPrefix + (keyOf?.(request) ?? ''),
  });

  function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: LimitScope,
    identifier: string,
    ttl: number,
  ): FastifyReply {
    const now = ctx.now();
    const seconds = Math.max(1, Math.ceil(ttl / 1000));
    // Queued, not awaited: a flood of refusals must not turn into a flood of transactions.
    app.pendingWrites.audit(
      {
        eventType: 'rate_limit_hit',
        success: false,
        ipAddress: request.ip ?? null,
        licenseKey: scope === 'key' ? identifier : null,
        hardwareId: hardwareIdOf(request),
        details: { limitType: call, scope, identifier, limit },
      },
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
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(loaderRefusalChunk(message));
    }
    return reply.send({ error: message });
  }

  return async function rateLimit(request, reply) {
    const byIp = await countIp(request);
    if (!byIp.isAllowed && byIp.isExceeded) {
      return refuse(request, reply, 'ip', byIp.key.slice(ipPrefix.length), byIp.ttl);
    }
    if (keyOf?.(request) === undefined) return;
    const byKey = await countKey(request);
    if (!byKey.isAllowed && byKey.isExceeded) {
      return refuse(request, reply, 'key', byKey.key.slice(keyPrefix.length), byKey.ttl);
    }
  };
}
