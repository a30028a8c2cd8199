import { setTimeout as sleep } from 'node:timers/promises';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '../test/helper.ts';
import { RequestTimings, registerRequestTimings } from './request-timings.ts';

describe('request timings', () => {
  it('gives the mean, median and 95th percentile of the window', () => {
    const clock = fakeClock();
    const timings = new RequestTimings(clock.now);
    expect(timings.stats()).toEqual({ count: 0, mean: 0, p50: 0, p95: 0 });
    for (let ms = 1; ms <= 100; ms++) timings.record(ms);
    expect(timings.stats()).toEqual({ count: 100, mean: 50.5, p50: 50, p95: 95 });
  });

  it('keeps only the newest requests when full, and forgets those older than the window', () => {
    const clock = fakeClock();
    const timings = new RequestTimings(clock.now, 4, 60_000);
    for (const ms of [1000, 1000, 10, 20, 30, 40]) timings.record(ms);
    expect(timings.stats()).toEqual({ count: 4, mean: 25, p50: 20, p95: 40 });
    clock.advance(30_000);
    timings.record(100);
    clock.advance(30_001);
    expect(timings.stats()).toEqual({ count: 1, mean: 100, p50: 100, p95: 100 });
  });

  it("records each request's duration, except socket upgrades and routes that opt out", async () => {
    const clock = fakeClock();
    const app = Fastify();
    registerRequestTimings(app, clock.now);
    await app.register(websocket);
    app.get('/slow', async () => {
      await sleep(60);
      return { ok: true };
    });
    app.get('/fast', async () => ({ ok: true }));
    app.get('/long-poll', { config: { skipRequestTiming: true } }, async () => ({ ok: true }));
    app.get('/ws', { websocket: true }, (socket) => socket.close());
    await app.ready();
    try {
      for (let i = 0; i < 3; i++) await app.inject('/slow');
      await app.inject('/fast');
      await app.inject('/long-poll');
      const ws = await app.injectWS('/ws');
      ws.terminate();
      const stats = app.requestTimings.stats();
      expect(stats.count).toBe(4);
      expect(stats.p50).toBeGreaterThanOrEqual(55);
      expect(stats.p95).toBeGreaterThanOrEqual(stats.p50);
      expect(stats.mean).toBeGreaterThanOrEqual((3 * 55) / 4);
      expect(stats.mean).toBeLessThan(stats.p50);
    } finally {
      await app.close();
    }
  });
});
