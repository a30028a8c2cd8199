import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  callLoader,
  insertTestScriptKey,
  loaderStatus,
  savePremiumScript,
  scriptKeyBindings,
} from '../features/loader/script-access.fixtures.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';
import { canStartRedis, ThrowawayRedis } from '../test/throwaway-redis.ts';

/**
 * Redis is optional at run time (docs/scale-out.md): two instances on one PostgreSQL and a Redis of
 * the test's own, which is killed and started again empty. A change that decides access applies on
 * the instance that made it at once and on the other soon after Redis is back; nothing waits on a
 * Redis command timeout.
 */
const SCRIPT = 'outage-premium.lua';
/** Real time the other instance is given, after Redis is back, to apply a change it missed. */
const RESYNC_WITHIN_MS = 5000;

if (DIALECTS.includes('postgres') && canStartRedis) {
  describe('postgres + redis outage: two instances, Redis killed and restarted', () => {
    let redis: ThrowawayRedis;
    let first: TestApp;
    let second: TestApp;
    let cookie: string;
    const sockets: TestClient[] = [];

    beforeEach(async () => {
      redis = await ThrowawayRedis.start();
      first = await buildTestApp('postgres', { REDIS_URL: redis.url });
      second = await buildTestApp('postgres', { REDIS_URL: redis.url }, { joinSchemaOf: first });
      cookie = await first.adminCookie();
      await savePremiumScript(first, cookie, SCRIPT, 'print("premium")');
    });
    afterEach(async () => {
      for (const s of sockets.splice(0)) s.ws.terminate();
      await second.close();
      await first.close();
      await redis.kill();
    });

    const load = (app: TestApp, key: string, hwid = 'device-1') =>
      callLoader(app, { script: SCRIPT, key, hwid }).then(loaderStatus);
    const admin = (url: string, payload: object) =>
      first.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    /** Answers within `ms`: what waited on a Redis command timeout took 20 s. */
    const timed = async <T>(work: Promise<T>) => {
      const started = performance.now();
      const result = await work;
      return { result, ms: performance.now() - started };
    };

    it('refuses a key switched off during the outage: at once where it was switched off, soon after Redis is back on the other', async () => {
      const key = await insertTestScriptKey(first);
      expect([await load(first, key.scriptKey), await load(second, key.scriptKey)]).toEqual([200, 200]);

      await redis.kill();
      const { result: toggled, ms } = await timed(
        admin('/api/admin/script-keys/toggle-status', { keyId: key.id }),
      );
      expect(toggled.statusCode, toggled.body).toBe(200);
      expect(ms).toBeLessThan(2000);
      expect(await load(first, key.scriptKey)).toBe(403);

      await redis.restart();
      await expect.poll(() => load(second, key.scriptKey), { timeout: RESYNC_WITHIN_MS }).toBe(403);
    });

    it('refuses a device revoked during the outage on both instances once Redis is back', async () => {
      const key = await insertTestScriptKey(first);
      expect([await load(first, key.scriptKey), await load(second, key.scriptKey)]).toEqual([200, 200]);
      const [binding] = await scriptKeyBindings(first, key.id);

      await redis.kill();
      const revoked = await admin('/api/admin/license/revoke-binding', { bindingId: binding?.id });
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(await load(first, key.scriptKey)).toBe(403);

      await redis.restart();
      await expect.poll(() => load(second, key.scriptKey), { timeout: RESYNC_WITHIN_MS }).toBe(403);
    });

    it('closes, once Redis is back, a dashboard on the other instance whose session logged out meanwhile', async () => {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (second.app.server.address() as AddressInfo).port;
      const dashboard = await connectTestClient(`ws://127.0.0.1:${port}/ws`, cookie);
      sockets.push(dashboard);
      await dashboard.next((f) => f.type === 'system_health');

      await redis.kill();
      const { result: out, ms } = await timed(
        first.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } }),
      );
      expect(out.statusCode).toBe(200);
      expect(ms).toBeLessThan(2000);

      await redis.restart();
      expect(await dashboard.waitClosed(RESYNC_WITHIN_MS)).toMatchObject({ code: 4401 });
    });

    it('stops, once Redis is back, the bots on the other instance when the network was stopped meanwhile', async () => {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (second.app.server.address() as AddressInfo).port;
      const bot = await connectTestClient(`ws://127.0.0.1:${port}/ws?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(bot);
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-far', version: '1.0.0' } });
      await bot.next((f) => f.type === 'config');

      await redis.kill();
      const stopped = await admin('/api/admin/configurations/emergency-stop', { reason: 'Maintenance' });
      expect(stopped.statusCode, stopped.body).toBe(200);

      await redis.restart();
      const frame = await bot.next((f) => f.type === 'emergency_stop', { timeoutMs: RESYNC_WITHIN_MS });
      expect(frame.payload).toEqual({ reason: 'Maintenance' });
    });

    const report = (app: TestApp, events: object[]) =>
      app.app.inject({
        method: 'POST',
        url: '/api/bot/events',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
        payload: { ghostId: 'ghost-outage', events },
      });
    const find = {
      type: 'pet_discovered',
      payload: { name: 'Pet X', value: '$1.2B/s', placeid: '1', jobid: 'j-1' },
    };

    it('answers bot events within 2 s while Redis is away: reports go on, finds get 503 with Retry-After and count once Redis is back', async () => {
      const before = await report(first, [{ type: 'scanner_status', payload: { status: 'scanning' } }]);
      expect(before.statusCode, before.body).toBe(200);
      const hop = {
        type: 'server_hop',
        payload: {
          fromJobId: null,
          toJobId: 'j-0',
          fromPlaceId: null,
          toPlaceId: '1',
          success: true,
          latencyMs: 50,
          hopReason: 'auto_scan',
        },
      };
      const hopped = await report(first, [hop]);
      expect(hopped.statusCode, hopped.body).toBe(200);
      const lastSeq = hopped.json().results[0].seq as number;

      await redis.kill();
      const { result: status, ms: statusMs } = await timed(
        report(first, [{ type: 'scanner_status', payload: { status: 'scanning' } }]),
      );
      expect(status.statusCode, status.body).toBe(200);
      expect(statusMs).toBeLessThan(2000);
      const { result: refused, ms } = await timed(report(first, [find]));
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json().error).toMatch(/Redis/);
      expect(ms).toBeLessThan(2000);

      const ready = await first.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.redis).toMatchObject({ ok: false });
      expect(ready.json().checks.database).toMatchObject({ ok: true });

      // Back, and empty: the find the bot sends again is a find (no repeat), after the last position.
      await redis.restart();
      await expect
        .poll(async () => (await report(second, [find])).json().results?.[0], { timeout: RESYNC_WITHIN_MS })
        .toMatchObject({ seq: lastSeq + 1 });
    });
  });
}
