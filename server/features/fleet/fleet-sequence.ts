import type { Redis } from 'ioredis';

const MINUTE_MS = 60_000;

/** Spec-free choice: the same pet (name + value + job id) reported again within this long is one discovery. */
export const DISCOVERY_DEDUPE_MS = MINUTE_MS;

/** Positions in the stream: in memory (seeded from the database), or shared through Redis INCR. */
export interface SeqCounter {
  next(): Promise<number>;
  /** The last position handed out, on any instance. */
  current: number;
  close(): Promise<void>;
}

/** Remembers which pets were reported lately, here or (through Redis) on any instance. */
export interface RecentPets {
  /** True when this is the first report of `key` in the window (and claims it). */
  claim(key: string, now: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The stream counter's key and the recent pets' key prefix, after the deployment's REDIS_KEY_PREFIX. */
const SEQ_KEY = 'fleet:seq';
const PET_KEY_PREFIX = 'fleet:pet:';

export function createSeqCounter(
  redis: Redis | undefined,
  seed: number,
  prefix: string,
): Promise<SeqCounter> | SeqCounter {
  if (!redis) {
    const counter = { current: seed, next: async () => ++counter.current, close: async () => {} };
    return counter;
  }
  // Raise the shared counter to at least what this database holds (a fresh Redis after a restart).
  return redis
    .eval(
      "local c = tonumber(redis.call('GET', KEYS[1]) or '0') if c < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) c = tonumber(ARGV[1]) end return c",
      1,
      prefix + SEQ_KEY,
      String(seed),
    )
    .then((current) => ({
      current: Number(current),
      next: () => redis.incr(prefix + SEQ_KEY),
      close: async () => {},
    }));
}

export function createRecentPets(redis: Redis | undefined, prefix: string): RecentPets {
  if (redis) {
    return {
      claim: async (key) =>
        (await redis.set(prefix + PET_KEY_PREFIX + key, '1', 'PX', DISCOVERY_DEDUPE_MS, 'NX')) === 'OK',
      close: async () => {},
    };
  }
  // Insertion order is claim order, so expired entries are at the front.
  const seen = new Map<string, number>();
  return {
    claim: async (key, now) => {
      for (const [k, expires] of seen) {
        if (expires > now) break;
        seen.delete(k);
      }
      if ((seen.get(key) ?? 0) > now) return false;
      seen.delete(key);
      seen.set(key, now + DISCOVERY_DEDUPE_MS);
      return true;
    },
    close: async () => {},
  };
}
