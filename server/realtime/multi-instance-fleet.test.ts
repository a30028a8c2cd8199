import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FleetBackfillPayload, HopStats, ServerHopEvent } from '../../common/fleet.ts';
import { hopPayload } from '../features/fleet/fleet.fixtures.ts';
import { FLEET_CHANNEL } from '../features/fleet/fleet-bus.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';

/**
 * Two instances divide the fleet's work (docs/scale-out.md, "What crosses between instances"): each
 * applies its own bots' messages, and hears the other's hops one by one only while it has dashboards.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;

// vitest.config.ts leaves this file out of runs without both services, so it always has its tests.
if (DIALECTS.includes('postgres') && REDIS_URL) {
  describe('postgres + redis: two instances dividing the fleet', () => {
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

    const post = (app: TestApp, ghostId: string, events: unknown[]) =>
      app.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
        payload: { ghostId, events },
      });
    /** A hop between two status reports, as a bot sends them. */
    const hopping = (i: number) => [
      { type: 'scanner_status', payload: { status: 'hopping' } },
      { type: 'server_hop', payload: hopPayload({ toJobId: `job-${i}` }) },
      { type: 'scanner_status', payload: { status: 'scanning', petsFound: i } },
    ];
    const dashboardOn = async (app: TestApp, cookie: string) => {
      const port = (app.app.server.address() as AddressInfo).port;
      const dashboard = await connectTestClient(`ws://127.0.0.1:${port}/ws`, cookie);
      sockets.push(dashboard);
      return dashboard;
    };

    it('an instance without dashboards hears of the other’s hops counted, in a few messages, not one by one', async () => {
      const heard: unknown[] = [];
      const off = second.ctx.bus.subscribe(FLEET_CHANNEL, (m) => heard.push(m));
      const joined = await post(first, 'far-bot', [
        { type: 'hello', payload: { ghostId: 'far-bot', version: '1.0' } },
      ]);
      expect(joined.statusCode, joined.body).toBe(200);
      const hops = 20;
      const res = await post(first, 'far-bot', Array.from({ length: hops }, (_, i) => hopping(i + 1)).flat());
      expect(res.statusCode, res.body).toBe(200);
      const lastSeq = res.json().results.at(-2).seq as number;

      // The bot as it stands and every hop counted...
      await vi.waitFor(() => {
        const bot = second.ctx.services.fleet.state.scanners.get('far-bot');
        expect([bot?.status, bot?.petsFound, bot?.currentJobId]).toEqual(['scanning', hops, `job-${hops}`]);
        expect(second.ctx.services.fleet.state.hopStats(second.clock.now()).totalHops).toBe(hops);
      });
      off();
      // ...in a few coalesced messages, not three per hop; the hops themselves never came.
      expect(heard.length).toBeLessThan(5);
      expect(second.ctx.services.fleet.state.hops.latest(1000)).toEqual([]);
      expect(first.ctx.services.fleet.state.hops.latest(1).map((h) => h.seq)).toEqual([lastSeq]);
      // A position the first handed out is never handed out again by the second.
      const find = await post(second, 'near-bot', [
        { type: 'pet_discovered', payload: { name: 'Pet', value: '$1M', placeid: '1', jobid: 'j' } },
      ]);
      expect(find.json().results[0].seq).toBeGreaterThan(lastSeq);
    });

    it('a dashboard that connects later gets the other instance’s bots and recent hops, then its hops live', async () => {
      const before = await post(first, 'far-bot', hopping(1));
      expect(before.statusCode, before.body).toBe(200);
      const firstSeq = before.json().results[1].seq as number;

      const dashboard = await dashboardOn(second, await first.adminCookie());
      const backfill = (await dashboard.next((f) => f.type === 'fleet_backfill'))
        .payload as FleetBackfillPayload;
      expect(backfill.scanners.map((s) => s.id)).toEqual(['far-bot']);
      expect(backfill.hops.map((h) => h.seq)).toEqual([firstSeq]);
      expect(backfill.hopStats.totalHops).toBe(1);
      expect(backfill.cursor).toBeGreaterThanOrEqual(firstSeq);

      // From now on the second hears each hop of the first, and counts it once.
      const after = await post(first, 'far-bot', hopping(2));
      const nextSeq = after.json().results[1].seq as number;
      await dashboard.next((f) => f.type === 'server_hop' && (f.payload as ServerHopEvent).seq === nextSeq);
      await dashboard.next((f) => f.type === 'hop_stats' && (f.payload as HopStats).totalHops === 2);
      expect(second.ctx.services.fleet.state.hops.latest(10).map((h) => h.seq)).toEqual([firstSeq, nextSeq]);
    });
  });
}
