import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import type { ScriptVersionsResponse } from '../../common/scripts.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';

/**
 * The scale-out mode of the README: two server instances on one PostgreSQL database and one Redis
 * act as one system. Runs where both are available (CI sets TEST_DATABASE_URL and TEST_REDIS_URL).
 */
const REDIS_URL = process.env.TEST_REDIS_URL;

// vitest.config.ts leaves this file out of runs without both services, so it always has its tests.
if (DIALECTS.includes('postgres') && REDIS_URL) {
  describe('postgres + redis: two instances behind one load balancer', () => {
    let first: TestApp;
    let second: TestApp;
    const sockets: TestClient[] = [];

    beforeEach(async () => {
      first = await buildTestApp('postgres', { REDIS_URL });
      second = await buildTestApp('postgres', { REDIS_URL }, { joinSchemaOf: first });
      await second.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterEach(async () => {
      for (const s of sockets.splice(0)) s.ws.terminate();
      await second.close();
      await first.close();
    });

    const secondSocketUrl = () => `ws://127.0.0.1:${(second.app.server.address() as AddressInfo).port}/ws`;

    it('accepts on one instance the session opened on the other', async () => {
      const cookie = await first.adminCookie();
      const res = await second.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie },
      });
      expect(res.statusCode).toBe(200);
    });

    it('tells a dashboard on one instance about a configuration saved on the other', async () => {
      const cookie = await first.adminCookie();
      const dashboard = await connectTestClient(secondSocketUrl(), cookie);
      sockets.push(dashboard);
      await dashboard.next((f) => f.type === 'system_health');

      const saved = await first.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie },
        payload: { totalSlots: 12, paymentWallets: { BTC: 'bc1qexampleaddress000000000000000' } },
      });
      expect(saved.statusCode).toBe(200);

      const update = await dashboard.next((f) => f.type === 'system_config_update');
      expect(update.payload).toEqual({ message: 'Configuration has been updated' });
      const info = await second.app.inject({ method: 'GET', url: '/api/public/purchase-info' });
      expect(info.json().slots).toEqual({ available: 12, total: 12, utilizationPercentage: 0 });
    });

    it('closes a dashboard on one instance the moment its session logs out on the other', async () => {
      const cookie = await first.adminCookie();
      const dashboard = await connectTestClient(secondSocketUrl(), cookie);
      sockets.push(dashboard);
      await dashboard.next((f) => f.type === 'system_health');
      const res = await first.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(await dashboard.waitClosed(2000)).toEqual({ code: 4401, reason: 'Logged out' });
    });

    it('serves from either loader the script saved on the other, the shipped ones seeded once', async () => {
      const cookie = await first.adminCookie();
      const history = await second.app.inject({
        method: 'GET',
        url: `/api/admin/scripts/${FREE_SCRIPT_FILE}/versions`,
        headers: { cookie },
      });
      expect((history.json() as ScriptVersionsResponse).versions.map((v) => v.version)).toEqual([1]);

      const saved = await first.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie },
        payload: { filename: 'shared.lua', content: 'print("saved on the first instance")\n' },
      });
      expect(saved.statusCode).toBe(201);
      const loaded = await second.app.inject({ method: 'GET', url: '/api/script/loader?script=shared.lua' });
      expect(loaded.statusCode).toBe(200);
      expect(loaded.body).toBe('print("saved on the first instance")\n');
    });
  });
}
