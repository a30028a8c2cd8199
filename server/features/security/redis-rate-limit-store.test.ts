import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type PausableProxy, startPausableProxy } from '../../test/pausable-proxy.ts';
import { createLimitsConnection, RedisRateLimitStore } from './redis-rate-limit-store.ts';

/*
 * The shared rate-limit counters against a real Redis (TEST_REDIS_URL; vitest.config.ts leaves this
 * file out without it), each test under its own key prefix. A Redis that stops answering is a
 * loopback proxy in front of the real one, paused.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? '';
const WINDOW_MS = 60_000;

const connections: Redis[] = [];
const proxies: PausableProxy[] = [];

afterEach(async () => {
  for (const redis of connections.splice(0)) redis.disconnect();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

/** A log that keeps its lines, to count the warnings an operator would read. */
function capturedLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return {
    log,
    warnings: () => lines.filter((l) => l.level === 40),
    infos: () => lines.filter((l) => l.level === 30),
  };
}

/** An instance's store: its own connection, as each server process has. */
async function instanceStore(url: string, prefix: string, log = capturedLog().log) {
  const redis = createLimitsConnection(url);
  connections.push(redis);
  const store = new RedisRateLimitStore(redis, { prefix, log, probeEveryMs: 50 });
  await redis.connect().catch((error: unknown) => store.fellBack(error));
  return store;
}

const newPrefix = () => `scanline-test:${randomBytes(6).toString('hex')}:`;

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the Redis rate-limit store', () => {
  it('lets two instances together count one limit: the 121st hit of a window is over 120', async () => {
    const prefix = newPrefix();
    const stores = [await instanceStore(REDIS_URL, prefix), await instanceStore(REDIS_URL, prefix)];
    const counts: number[] = [];
    for (let i = 0; i < 121; i++)
      counts.push((await stores[i % 2]!.hit('feed:ip:10.0.0.1', 120, WINDOW_MS)).count);
    expect(counts).toEqual(Array.from({ length: 121 }, (_, i) => i + 1));
    expect((await stores[1]!.peek('feed:ip:10.0.0.1'))?.count).toBe(121);
    expect(await stores[0]!.peek('feed:ip:10.0.0.2')).toBeNull();
  });

  it('counts atomically: 400 concurrent hits from two instances get each count exactly once', async () => {
    const prefix = newPrefix();
    const stores = [await instanceStore(REDIS_URL, prefix), await instanceStore(REDIS_URL, prefix)];
    const hits = await Promise.all(
      Array.from({ length: 400 }, (_, i) => stores[i % 2]!.hit('loader:key:k', 120, WINDOW_MS)),
    );
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 400 }, (_, i) => i + 1),
    );
    // One window: every hit saw the same end, give or take the round trip.
    const ends = hits.map((h) => h.resetAt);
    expect(Math.max(...ends) - Math.min(...ends)).toBeLessThan(WINDOW_MS / 2);
  });

  it('starts a new window at the first hit after the last one ended', async () => {
    const store = await instanceStore(REDIS_URL, newPrefix());
    for (let i = 0; i < 3; i++) await store.hit('login:ip:a', 2, 200);
    await until(async () => (await store.peek('login:ip:a')) === null, 'the window to end');
    expect((await store.hit('login:ip:a', 2, 200)).count).toBe(1);
  });

  it('tells the status screen the live windows under its prefix, and those over their limit', async () => {
    const prefix = newPrefix();
    const store = await instanceStore(REDIS_URL, prefix);
    const other = store.withPrefix(`${prefix}other:`);
    for (let i = 0; i < 3; i++) await store.hit('redeem:ip:a', 2, WINDOW_MS);
    await store.hit('redeem:ip:b', 2, WINDOW_MS);
    await other.hit('x', 1, WINDOW_MS);
    await other.hit('x', 1, WINDOW_MS);
    expect(await store.withPrefix(`${prefix}redeem:`).stats()).toEqual({ totalLimits: 2, activeLimits: 1 });
    expect(await other.stats()).toEqual({ totalLimits: 1, activeLimits: 1 });
  });

  it('counts per instance with one warning while Redis hangs, and shares again once it answers', async () => {
    const proxy = await startPausableProxy(REDIS_URL);
    proxies.push(proxy);
    const prefix = newPrefix();
    const captured = capturedLog();
    const store = await instanceStore(proxy.url, prefix, captured.log);
    const peer = await instanceStore(REDIS_URL, prefix);
    await store.hit('feed:ip:a', 5, WINDOW_MS);
    expect(store.usingFallback).toBe(false);

    proxy.pause();
    // Every call answers (in memory), none fails; Redis is left out of the count meanwhile.
    const during = [];
    for (let i = 0; i < 20; i++) during.push((await store.hit('feed:ip:a', 5, WINDOW_MS)).count);
    expect(during).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(store.usingFallback).toBe(true);
    expect(store.fallbackHits).toBe(20);
    expect(await store.stats()).toEqual({ totalLimits: 1, activeLimits: 1 });
    expect(captured.warnings().map((l) => l.msg)).toEqual([
      'rate limits: Redis is not answering; each instance counts on its own until it does',
    ]);

    proxy.resume();
    await until(async () => {
      await store.hit('feed:ip:b', 5, WINDOW_MS);
      return !store.usingFallback;
    }, 'the store to count in Redis again');
    expect(captured.infos().map((l) => l.msg)).toEqual([
      'rate limits: Redis answers again; counting is shared across instances again',
    ]);
    // Shared again: the peer sees this instance's hits from now on.
    const before = (await peer.peek('feed:ip:a'))?.count ?? 0;
    await store.hit('feed:ip:a', 5, WINDOW_MS);
    expect((await peer.peek('feed:ip:a'))?.count).toBe(before + 1);
    expect(captured.warnings()).toHaveLength(1);
  });

  it('warns of no outage when the app closes it, calls in flight included', async () => {
    const captured = capturedLog();
    const store = await instanceStore(REDIS_URL, newPrefix(), captured.log);
    const inFlight = store.hit('loader:ip:a', 5, WINDOW_MS);
    store.close();
    expect((await inFlight).count).toBe(1);
    expect((await store.hit('loader:ip:a', 5, WINDOW_MS)).count).toBeGreaterThan(0);
    expect(captured.warnings()).toEqual([]);
  });

  it('counts in memory from the start when Redis cannot be reached, without failing a call', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const captured = capturedLog();
    const store = await instanceStore(`redis://127.0.0.1:${closed}`, newPrefix(), captured.log);
    expect(store.usingFallback).toBe(true);
    expect((await store.hit('login:ip:a', 1, WINDOW_MS)).count).toBe(1);
    expect((await store.hit('login:ip:a', 1, WINDOW_MS)).count).toBe(2);
    expect((await store.peek('login:ip:a'))?.count).toBe(2);
    expect(store.fallbackHits).toBe(2);
    expect(captured.warnings()).toHaveLength(1);
  });
});
