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
  /** Gives a claim back (its find could not be taken after all), so the bot's retry is no repeat. */
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The stream counter's key and the recent pets' key prefix, after the deployment's REDIS_KEY_PREFIX. */
const SEQ_KEY = 'fleet:seq';
const PET_KEY_PREFIX = 'fleet:pet:';

/**
 * The next position, never at or below what this instance already knows (ARGV[1]): a Redis that
 * restarted empty, or was away while positions were handed out, cannot hand one out twice. With
 * ARGV[2] = 'check', a counter Redis does not hold (it restarted empty) is not started: -1 says so,
 * and the caller asks again with the database's highest position in ARGV[1].
 */
const NEXT_SEQ_SCRIPT = `if ARGV[2] == 'check' and redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local c = redis.call('INCR', KEYS[1])
local floor = tonumber(ARGV[1])
if c <= floor then c = floor + 1 redis.call('SET', KEYS[1], c) end
return c`;

/** The shared counter could not be reached: the event is refused (503) and the bot sends it again. */
export class SequenceUnavailable extends Error {}

/** How long the start waits for the Redis connection before counting from the database's position. */
const START_WAIT_MS = 1000;

/**
 * Positions in the stream. Without Redis, counted here from the database's last position. With it,
 * shared through Redis (`known` is the highest position this instance has heard of, `written` the
 * database's highest, read when Redis has lost the counter): while Redis is away no position is
 * handed out, since two instances would hand out the same one.
 */
export async function createSeqCounter(
  redis: Redis | undefined,
  seed: number,
  prefix: string,
  floors: { known: () => number; written: () => Promise<number> },
): Promise<SeqCounter> {
  if (!redis) {
    const counter = { current: seed, next: async () => ++counter.current, close: async () => {} };
    return counter;
  }
  const key = prefix + SEQ_KEY;
  const counter: SeqCounter = {
    current: seed,
    next: async () => {
      const floor = Math.max(counter.current, floors.known());
      let next: number;
      try {
        next = Number(await redis.eval(NEXT_SEQ_SCRIPT, 1, key, String(floor), 'check'));
        if (next === -1) {
          const written = Math.max(floor, await floors.written());
          next = Number(await redis.eval(NEXT_SEQ_SCRIPT, 1, key, String(written), 'start'));
        }
      } catch (err) {
        throw new SequenceUnavailable(
          `the fleet's shared counter (Redis) did not answer: ${(err as Error).message}`,
        );
      }
      counter.current = Math.max(counter.current, next);
      return next;
    },
    close: async () => {},
  };
  // What other instances handed out already: the stream starts after it (0 when Redis is away now).
  if (await whenReady(redis, START_WAIT_MS)) {
    const shared = await redis.get(key).catch(() => null);
    counter.current = Math.max(seed, Number(shared ?? 0));
  }
  return counter;
}

function whenReady(redis: Redis, withinMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), withinMs);
    redis.once('ready', onReady);
  });
}

/**
 * Which pets were reported lately: through Redis, on every instance. While Redis is away, on this
 * instance only (two instances may then each keep one report of a pet: a repeat, never a loss).
 */
export function createRecentPets(redis: Redis | undefined, prefix: string): RecentPets {
  const here = localRecentPets();
  if (!redis) return here;
  return {
    claim: async (key, now) => {
      try {
        const claimed = await redis.set(prefix + PET_KEY_PREFIX + key, '1', 'PX', DISCOVERY_DEDUPE_MS, 'NX');
        return claimed === 'OK';
      } catch {
        return here.claim(key, now);
      }
    },
    release: async (key) => {
      await here.release(key);
      await redis.del(prefix + PET_KEY_PREFIX + key).catch(() => {});
    },
    close: async () => {},
  };
}

function localRecentPets(): RecentPets {
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
    release: async (key) => {
      seen.delete(key);
    },
    close: async () => {},
  };
}
