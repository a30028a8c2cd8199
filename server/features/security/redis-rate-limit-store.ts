import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import {
  MemoryRateLimitStore,
  type RateLimitCount,
  type RateLimitStore,
  type RateLimitStoreStats,
} from './rate-limit-store.ts';

/*
 * Rate-limit counters shared by every instance through Redis (REDIS_URL), so N instances together
 * allow exactly the configured limit. Each key is a hash {c: count, m: max} living one fixed window
 * (PEXPIRE on its first hit, as the memory store starts a window at the first request after the last
 * one ended); one Lua script counts and answers in one round trip.
 *
 * When Redis stops answering (each call is time-boxed by the connection's commandTimeout, and
 * nothing is queued while it is away) the limits count per instance in memory: one warning, then
 * `usingFallback` reads true and `fallbackHits` counts what memory counted. Redis is asked again
 * (a PING) at most every `probeEveryMs`; once it answers, counting is shared again (one info line).
 */

const HIT_SCRIPT = `
local count = redis.call('HINCRBY', KEYS[1], 'c', 1)
local ttl
if count == 1 then
  redis.call('HSET', KEYS[1], 'm', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
else
  ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
end
return {count, ttl}
`;

const PEEK_SCRIPT = `
local count = redis.call('HGET', KEYS[1], 'c')
if not count then return false end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

interface LimitCommands {
  rateLimitHit(key: string, windowMs: number, max: number): Promise<[number, number]>;
  rateLimitPeek(key: string): Promise<[number, number] | null>;
}

/** A connection for the limits: every call answers or fails within `commandTimeoutMs`, none waits offline. */
export function createLimitsConnection(url: string, commandTimeoutMs = 300): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
}

/** Whether the limits count in Redis now, shared by the stores on one connection. */
class SharedState {
  usingFallback = false;
  fallbackHits = 0;
  /** Times the limits went from Redis to memory. */
  fallbacks = 0;
  probing = false;
  nextProbeAt = 0;
  /** Closed with the app: calls cut off by the disconnect are no outage to warn about. */
  closed = false;
}

export interface RedisRateLimitStoreOptions {
  /** Prepended to every key (several deployments, or tests, on one Redis). */
  prefix: string;
  /** Epoch ms for windows' reset times; tests pass their fake clock. */
  now?: () => number;
  log?: FastifyBaseLogger;
  /** How often Redis is asked again while the limits count in memory (real time). */
  probeEveryMs?: number;
}

const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

export class RedisRateLimitStore implements RateLimitStore {
  private readonly commands: LimitCommands;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly log: FastifyBaseLogger | undefined;
  private readonly probeEveryMs: number;
  private memory: MemoryRateLimitStore;
  /** The fallback episode `memory` counts for: a new episode starts from empty counts. */
  private memoryEpisode = 0;

  constructor(
    private readonly redis: Redis,
    options: RedisRateLimitStoreOptions,
    private readonly state = new SharedState(),
  ) {
    this.prefix = options.prefix;
    this.now = options.now ?? Date.now;
    this.log = options.log;
    this.probeEveryMs = options.probeEveryMs ?? 1000;
    this.memory = new MemoryRateLimitStore({ now: this.now });
    if (!('rateLimitHit' in redis)) {
      redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
      redis.defineCommand('rateLimitPeek', { numberOfKeys: 1, lua: PEEK_SCRIPT });
      // Failures are reported once, by the store; ioredis would print every reconnection attempt.
      redis.on('error', () => {});
    }
    this.commands = redis as unknown as LimitCommands;
  }

  /** Another store on the same connection and fallback state, counting under its own prefix. */
  withPrefix(prefix: string, now = this.now): RedisRateLimitStore {
    return new RedisRateLimitStore(
      this.redis,
      { prefix, now, log: this.log, probeEveryMs: this.probeEveryMs },
      this.state,
    );
  }

  /** Disconnects; calls made after it count in memory without a warning. */
  close(): void {
    this.state.closed = true;
    this.state.usingFallback = true;
    this.redis.disconnect();
  }

  /** True while Redis does not answer and the limits count per instance (for a metric). */
  get usingFallback(): boolean {
    return this.state.usingFallback;
  }

  /** Requests counted in memory because Redis did not answer, since the start (for a metric). */
  get fallbackHits(): number {
    return this.state.fallbackHits;
  }

  /** Times the limits went from Redis to memory, since the start. */
  get fallbacks(): number {
    return this.state.fallbacks;
  }

  async hit(key: string, max: number, windowMs: number): Promise<RateLimitCount> {
    if (this.inFallback()) return this.countInMemory(key, max, windowMs);
    try {
      const [count, ttl] = await this.commands.rateLimitHit(this.prefix + key, windowMs, max);
      return { count, resetAt: this.now() + ttl };
    } catch (error) {
      this.fellBack(error);
      return this.countInMemory(key, max, windowMs);
    }
  }

  async peek(key: string): Promise<RateLimitCount | null> {
    if (this.inFallback()) return this.fallback().peek(key);
    try {
      const found = await this.commands.rateLimitPeek(this.prefix + key);
      if (found === null || found[1] < 0) return null;
      return { count: found[0], resetAt: this.now() + found[1] };
    } catch (error) {
      this.fellBack(error);
      return this.fallback().peek(key);
    }
  }

  /** Live windows under this store's prefix: a SCAN, for the status screen, never on a request's path. */
  async stats(): Promise<RateLimitStoreStats> {
    if (this.inFallback()) return this.fallback().stats();
    try {
      let totalLimits = 0;
      let activeLimits = 0;
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(
          cursor,
          'MATCH',
          `${escapeGlob(this.prefix)}*`,
          'COUNT',
          1000,
        );
        cursor = next;
        if (keys.length === 0) continue;
        const pipeline = this.redis.pipeline();
        for (const key of keys) pipeline.hmget(key, 'c', 'm');
        for (const [error, fields] of (await pipeline.exec()) ?? []) {
          const [count, max] = (fields as (string | null)[] | undefined) ?? [];
          if (error || count == null) continue; // expired between SCAN and HMGET
          totalLimits++;
          if (Number(count) > Number(max)) activeLimits++;
        }
      } while (cursor !== '0');
      return { totalLimits, activeLimits };
    } catch (error) {
      this.fellBack(error);
      return this.fallback().stats();
    }
  }

  /** In memory for now? Asks Redis again (without waiting for it) when a probe is due. */
  private inFallback(): boolean {
    const state = this.state;
    if (!state.usingFallback) return false;
    const now = Date.now();
    if (!state.closed && !state.probing && now >= state.nextProbeAt) {
      state.probing = true;
      state.nextProbeAt = now + this.probeEveryMs;
      this.redis.ping().then(
        () => {
          state.probing = false;
          if (!state.usingFallback) return;
          state.usingFallback = false;
          this.log?.info('rate limits: Redis answers again; counting is shared across instances again');
        },
        () => {
          state.probing = false;
        },
      );
    }
    return true;
  }

  /** Counts in memory from now on (Redis failed a call, or could not be reached at start). */
  fellBack(error: unknown): void {
    const state = this.state;
    if (state.usingFallback || state.closed) return;
    state.usingFallback = true;
    state.fallbacks++;
    state.nextProbeAt = Date.now() + this.probeEveryMs;
    this.log?.warn(
      { err: error },
      'rate limits: Redis is not answering; each instance counts on its own until it does',
    );
  }

  /** The memory counters of the current fallback episode (those of an earlier one are dropped). */
  private fallback(): MemoryRateLimitStore {
    if (this.memoryEpisode !== this.state.fallbacks) {
      this.memoryEpisode = this.state.fallbacks;
      this.memory = new MemoryRateLimitStore({ now: this.now });
    }
    return this.memory;
  }

  private countInMemory(key: string, max: number, windowMs: number): RateLimitCount {
    this.state.fallbackHits++;
    return this.fallback().hit(key, max, windowMs);
  }
}
