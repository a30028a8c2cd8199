import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerHopEvent } from '../../common/fleet.ts';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import type { ScriptVersionsResponse } from '../../common/scripts.ts';
import { scriptOf } from '../features/loader/script-access.fixtures.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';

/**
 * The scale-out mode of docs/scale-out.md: two server instances on one PostgreSQL database and one Redis
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
        payload: { totalSlots: 12, paymentWallets: { BTC: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' } },
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
      expect(scriptOf(loaded)).toBe('print("saved on the first instance")\n');
    });

    it('runs one fleet: one seq stream, one scanner list, one dashboard stream, duplicates folded across instances', async () => {
      const cookie = await first.adminCookie();
      const dashboard = await connectTestClient(secondSocketUrl(), cookie);
      sockets.push(dashboard);
      await dashboard.next((f) => f.type === 'fleet_backfill');
      const job = randomUUID();
      const post = (app: TestApp, ghostId: string, events: unknown[]) =>
        app.injectBare({
          method: 'POST',
          url: '/api/bot/events',
          headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
          payload: { ghostId, events },
        });
      const hop = {
        fromJobId: null,
        toJobId: job,
        fromPlaceId: null,
        toPlaceId: '1',
        success: true,
        latencyMs: 5,
        hopReason: 'manual',
      };
      const pet = { name: 'Shared Find', value: '$1M', placeid: '1', jobid: job };
      const a = await post(first, 'multi-a', [
        { type: 'server_hop', payload: hop },
        { type: 'pet_discovered', payload: pet },
      ]);
      const b = await post(second, 'multi-b', [
        { type: 'server_hop', payload: hop },
        { type: 'pet_discovered', payload: pet },
      ]);
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      const [hopA, findA] = a.json().results;
      // A new bot's first batch: it joins and reports at once, though the bus copy comes back later.
      const joined = await post(first, `multi-${job.slice(0, 8)}`, [
        { type: 'scanner_status', payload: { status: 'scanning', petsFound: 2 } },
        { type: 'scanner_status', payload: { status: 'hopping' } },
      ]);
      expect(joined.statusCode, joined.body).toBe(200);
      // The other instance has the bot's latest state with the first one's next `changes`.
      for (const app of [first, second]) {
        await vi.waitFor(() => {
          const scanner = app.ctx.services.fleet.state.scanners.get(`multi-${job.slice(0, 8)}`);
          expect([scanner?.status, scanner?.petsFound]).toEqual(['hopping', 2]);
        });
      }
      const [hopB, findB] = b.json().results;
      expect(findA.seq).toBe(hopA.seq + 1);
      expect(hopB.seq).toBeGreaterThan(findA.seq);
      // The same pet reported on the other instance within the minute is the same discovery.
      expect(findB).toEqual({ index: 1, duplicate: true });

      // The dashboard on the second instance sees the hop the first accepted, and both know both bots.
      await dashboard.next((f) => f.type === 'server_hop' && (f.payload as ServerHopEvent).seq === hopA.seq);
      await dashboard.next((f) => f.type === 'server_hop' && (f.payload as ServerHopEvent).seq === hopB.seq);
      for (const app of [first, second]) {
        const ids = app.ctx.services.fleet.state.scannerList(app.clock.now()).map((s) => s.id);
        expect(ids).toEqual(expect.arrayContaining(['multi-a', 'multi-b']));
      }
      // Resuming on the other instance from before the first hop: exactly those events, in order.
      await first.app.listen({ port: 0, host: '127.0.0.1' });
      const firstPort = (first.app.server.address() as AddressInfo).port;
      const resumed = await connectTestClient(`ws://127.0.0.1:${firstPort}/ws?since=${hopA.seq - 1}`, cookie);
      sockets.push(resumed);
      await resumed.next((f) => f.type === 'hop_stats');
      const seqs = resumed.frames
        .filter((f) => f.type === 'server_hop' || f.type === 'live_data')
        .map((f) => (f.payload as { seq: number }).seq);
      expect(seqs).toEqual([hopA.seq, findA.seq, hopB.seq]);
      expect(resumed.ofType('fleet_backfill')).toEqual([]);
    });
  });
}
