import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_BOT_TOKEN, type TestApp } from '../test/helper.ts';

/**
 * Two deployments on one Redis, told apart by REDIS_KEY_PREFIX (docs/scale-out.md): neither hears the
 * other's bus, counts in the other's stream or takes the other's finds for duplicates. Runs where a
 * Redis is available (vitest.config.ts lists it with the Redis tests).
 */
const REDIS_URL = process.env.TEST_REDIS_URL;

describe('redis: two deployments with their own REDIS_KEY_PREFIX on one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  const prefixes = [`test-a-${randomUUID()}:`, `test-b-${randomUUID()}:`] as const;

  beforeEach(async () => {
    a = await buildTestApp('sqlite', { REDIS_URL: REDIS_URL ?? '', REDIS_KEY_PREFIX: prefixes[0] });
    b = await buildTestApp('sqlite', { REDIS_URL: REDIS_URL ?? '', REDIS_KEY_PREFIX: prefixes[1] });
  });
  afterEach(async () => {
    const redis = a.ctx.bus.commands;
    for (const prefix of prefixes) {
      const keys = (await redis?.keys(`${prefix}*`)) ?? [];
      if (keys.length) await redis?.del(...keys);
    }
    await b.close();
    await a.close();
  });

  const reportFind = (app: TestApp) =>
    app.app.inject({
      method: 'POST',
      url: '/api/bot/events',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
      payload: {
        ghostId: 'ghost-01',
        events: [
          {
            type: 'pet_discovered',
            payload: { name: 'Shared', value: '$5M/s', placeid: '1', jobid: 'job-1' },
          },
        ],
      },
    });

  it("keeps each deployment's finds and stream positions to itself", async () => {
    const first = await reportFind(a);
    const second = await reportFind(b);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    // B's own report of the same pet is a find of its own, first in its own stream.
    expect(second.json().results[0]).toEqual(first.json().results[0]);
    expect(second.json().results[0]).toMatchObject({ seq: 1 });
  });

  it("hears nothing on the other deployment's bus (an emergency stop stops only its own bots)", async () => {
    // B's second instance: its messages reach B only through Redis (an instance hears its own at once).
    const b2 = await buildTestApp('sqlite', { REDIS_URL: REDIS_URL ?? '', REDIS_KEY_PREFIX: prefixes[1] });
    const heardByB: unknown[] = [];
    const stopB = b.ctx.bus.subscribe('admin', (m) => heardByB.push(m));
    try {
      // Subscriptions are made asynchronously: wait until B hears its other instance.
      await expect
        .poll(async () => {
          await b2.ctx.bus.publish('admin', { type: 'ready' });
          return heardByB.length > 0;
        })
        .toBe(true);
      heardByB.length = 0;
      await a.ctx.bus.publish('admin', { type: 'system_config_update', payload: {} });
      // Redis delivers in the order it took the publishes, so once B hears its other instance's
      // marker, anything of A's would have come before it.
      await b2.ctx.bus.publish('admin', { type: 'marker' });
      await expect.poll(() => heardByB).toContainEqual({ type: 'marker' });
      // ('ready' frames of the wait above may still be on their way.)
      expect(heardByB.filter((m) => (m as { type: string }).type !== 'ready')).toEqual([{ type: 'marker' }]);
    } finally {
      stopB();
      await b2.close();
    }
  });
});
