import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertTestScriptKey } from '../features/loader/script-access.fixtures.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../test/helper.ts';

/**
 * Rate limits with two instances on one PostgreSQL and one Redis (docs/scale-out.md): the instances
 * count together, so a client alternating between them gets exactly the configured limit, and the
 * call past it is refused whichever instance it lands on. Runs where both services are available
 * (vitest.config.ts leaves it out otherwise; CI sets TEST_DATABASE_URL and TEST_REDIS_URL).
 */
const REDIS_URL = process.env.TEST_REDIS_URL;

if (DIALECTS.includes('postgres') && REDIS_URL) {
  describe('postgres + redis: rate limits shared by two instances', () => {
    let first: TestApp;
    let second: TestApp;

    beforeEach(async () => {
      // Keys of their own, so parallel runs on the same Redis do not count each other's calls.
      // Ten-minute windows (Redis ends them by the real clock): a slow machine still makes its 121 calls inside one.
      const env = {
        REDIS_URL,
        REDIS_KEY_PREFIX: `scanline-test:${randomBytes(6).toString('hex')}:`,
        RATE_LIMIT_WINDOW_MS: '600000',
      };
      first = await buildTestApp('postgres', env);
      second = await buildTestApp('postgres', env, { joinSchemaOf: first });
    });
    afterEach(async () => {
      await second.close();
      await first.close();
    });

    /** Calls 1, 2, 3… made in turn on each instance, `startOn` taking the first call. */
    async function alternate(
      calls: number,
      startOn: 0 | 1,
      call: (app: TestApp) => Promise<LightMyRequestResponse>,
    ): Promise<{ statuses: number[]; last: LightMyRequestResponse }> {
      const apps = startOn === 0 ? [first, second] : [second, first];
      const statuses: number[] = [];
      let last: LightMyRequestResponse | undefined;
      for (let i = 0; i < calls; i++) {
        last = await call(apps[i % 2]!);
        statuses.push(last.statusCode);
      }
      return { statuses, last: last! };
    }

    const feedCall =
      (address: string, query = 'since=0') =>
      (app: TestApp) =>
        app.injectBare({ method: 'GET', url: `/api/script/feed?${query}`, remoteAddress: address });

    it('refuses the 121st feed call of a window from one IP, whichever instance gets it', async () => {
      expect(first.ctx.config.RATE_LIMIT_FEED).toBe(120);
      // 121 calls starting on the first instance: the 121st lands on the first.
      const onFirst = await alternate(121, 0, feedCall('10.9.0.1'));
      expect(onFirst.statuses.slice(0, 120)).toEqual(Array(120).fill(200));
      expect(onFirst.statuses[120]).toBe(429);
      expect((onFirst.last.json() as { error: string }).error).toMatch(
        /^Too many requests: try again in \d+ seconds?$/,
      );
      expect(onFirst.last.headers['x-ratelimit-limit']).toBe('120');
      // Starting on the second: the 121st lands on the second.
      const onSecond = await alternate(121, 1, feedCall('10.9.0.2'));
      expect(onSecond.statuses.slice(0, 120)).toEqual(Array(120).fill(200));
      expect(onSecond.statuses[120]).toBe(429);
      // Another address still has its own whole limit on either instance.
      expect((await feedCall('10.9.0.3')(first)).statusCode).toBe(200);
      expect((await feedCall('10.9.0.3')(second)).statusCode).toBe(200);
    });

    it("counts a script key's feed calls across instances and addresses", async () => {
      // A FREE key: a PREMIUM key's polls from its bound device count against RATE_LIMIT_FEED_PREMIUM
      // on counters of their own (feed.test.ts).
      const key = await insertTestScriptKey(first, { scriptType: 'FREE' });
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) {
        const app = i % 2 === 0 ? second : first;
        const res = await feedCall(
          `10.8.${Math.floor(i / 100)}.${i % 100}`,
          `since=0&key=${key.scriptKey}&hwid=d`,
        )(app);
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 120)).toEqual(Array(120).fill(200));
      expect(statuses[120]).toBe(429);
    });

    it('counts wrong bot tokens and socket upgrades across instances', async () => {
      const limit = first.ctx.config.RATE_LIMIT_BOT_AUTH_FAILURES;
      const wrongToken = await alternate(limit + 1, 1, (app) =>
        app.injectBare({
          method: 'POST',
          url: '/api/bot/events',
          headers: { authorization: 'Bearer not-the-token' },
          payload: { ghostId: 'ghost-1', events: [] },
          remoteAddress: '10.7.0.1',
        }),
      );
      expect(wrongToken.statuses).toEqual([...Array(limit).fill(401), 429]);

      // The socket upgrade's per-route limit (120 a minute per address), counted by @fastify/rate-limit.
      const upgrades = await alternate(121, 0, (app) =>
        app.injectBare({ method: 'GET', url: '/ws/feed', remoteAddress: '10.7.0.2' }),
      );
      expect(upgrades.statuses.slice(0, 120)).not.toContain(429);
      expect(upgrades.statuses[120]).toBe(429);
    });

    it("shows either instance's status screen the limits counted on both", async () => {
      for (let i = 0; i < 121; i++) await feedCall('10.6.0.1')(i % 2 === 0 ? first : second);
      await feedCall('10.6.0.2')(second);
      const cookie = await first.adminCookie();
      for (const app of [first, second]) {
        const res = await app.app.inject({
          method: 'GET',
          url: '/api/admin/security/rate-limits',
          headers: { cookie },
        });
        expect(res.statusCode, res.body).toBe(200);
        const { rateLimits } = res.json() as { rateLimits: { activeLimits: number; totalLimits: number } };
        // The admin's own login counted too (the login limit), on the first instance.
        expect(rateLimits).toMatchObject({ activeLimits: 1, totalLimits: 3 });
      }
    });
  });
}
