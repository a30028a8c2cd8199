import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { type PausableProxy, startPausableProxy } from '../../test/pausable-proxy.ts';

/*
 * An app whose rate limits count in Redis (REDIS_URL; vitest.config.ts leaves this file out without
 * TEST_REDIS_URL), reaching it through a loopback proxy the test pauses: Redis stops answering, the
 * limits go on per instance, and nothing the caller sees fails.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? '';

describe('rate limits when Redis stops answering', () => {
  let proxy: PausableProxy | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.close();
  });

  it('keep limiting per instance, keep the status screen up, and count in Redis again once it answers', async () => {
    proxy = await startPausableProxy(REDIS_URL);
    t = await buildTestApp('sqlite', {
      REDIS_URL: proxy.url,
      REDIS_KEY_PREFIX: `scanline-test:${randomBytes(6).toString('hex')}:`,
      RATE_LIMIT_FEED: '3',
    });
    const app = t;
    const feed = (address: string) =>
      app.injectBare({ method: 'GET', url: '/api/script/feed?since=0', remoteAddress: address });
    const cookie = await app.adminCookie();
    expect((await feed('10.5.0.1')).statusCode).toBe(200);
    expect(app.app.rateLimitStore.usingFallback).toBe(false);

    proxy.pause();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await feed('10.5.0.2')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(app.app.rateLimitStore.usingFallback).toBe(true);
    expect(app.app.rateLimitStore.fallbackHits).toBeGreaterThanOrEqual(4);
    const status = await app.app.inject({
      method: 'GET',
      url: '/api/admin/security/rate-limits',
      headers: { cookie },
    });
    expect(status.statusCode).toBe(200);

    proxy.resume();
    const deadline = Date.now() + 15_000;
    while (app.app.rateLimitStore.usingFallback) {
      if (Date.now() > deadline) throw new Error('the limits never counted in Redis again');
      await feed('10.5.0.3');
      await new Promise((r) => setTimeout(r, 20));
    }
    // Counted in Redis again: a new address starts a shared window there.
    expect((await feed('10.5.0.4')).statusCode).toBe(200);
    expect(app.app.rateLimitStore.usingFallback).toBe(false);
  });
});
