import { afterEach, describe, expect, it } from 'vitest';
import type { FleetCondition } from '../../../common/fleet-condition.ts';
import type { ScannerStatusPayload, ServerFrame, SystemHealthPayload } from '../../../common/realtime.ts';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

const fleetOf = (frame: ServerFrame) => (frame.payload as SystemHealthPayload).fleet;
const inState = (state: FleetCondition['state']) => (f: ServerFrame) =>
  f.type === 'system_health' && fleetOf(f)?.state === state;

/*
 * The fleet's one state on the admin socket's system_health (common/fleet-condition.ts): what the
 * sidebar badge and the Live Monitoring banner show, pushed when it changes, never asked for.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: the fleet's state in system_health`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    const sockets: TestClient[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.ws.terminate();
    });

    async function dashboard(): Promise<TestClient> {
      const client = await connectTestClient(t.socketUrl, t.cookie);
      sockets.push(client);
      return client;
    }

    /** A bot's batch through POST /api/bot/events. */
    async function report(ghostId: string, status: string) {
      const res = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: BOT,
        payload: { ghostId, events: [{ type: 'scanner_status', payload: { status } }] },
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    it('pushes down, naming the last bot heard, when the fleet falls silent, and live when it reports again', async () => {
      await report('ghost-01', 'scanning');
      t.clock.advance(1000);
      await report('ghost-07', 'scanning');
      const client = await dashboard();
      expect(fleetOf(await client.next((f) => f.type === 'system_health'))).toMatchObject({
        state: 'live',
        expectedBots: 2,
        heardBots: 2,
      });
      // The simulator stopped: each bot's last words are 'inactive', then nothing at all.
      const reported = client.frames.length;
      await report('ghost-01', 'inactive');
      t.clock.advance(1000);
      await report('ghost-07', 'inactive');
      const lastHeardAt = new Date(t.clock.now()).toISOString();
      // The dashboards are told of those reports (still live) before the silence begins.
      const told = await client.next(
        (f) =>
          f.type === 'scanner_status' && (f.payload as ScannerStatusPayload).networkStats.inactiveBots === 2,
        { from: reported },
      );
      await client.next(inState('live'), { from: client.frames.indexOf(told) });
      t.clock.advance(t.ctx.config.FLEET_INACTIVE_AFTER_MS + 1);

      // Nobody asks: the server notices the silence and tells the dashboard.
      const down = await client.next(inState('down'));
      expect(fleetOf(down)).toEqual({
        state: 'down',
        expectedBots: 2,
        heardBots: 0,
        heardPercent: 0,
        lastHeardAt,
        lastHeardFrom: 'ghost-07',
        stoppedBy: null,
        stoppedReason: null,
        stoppedAt: null,
      });

      // One of two back: below FLEET_DEGRADED_BELOW_PERCENT (80); both back: live.
      const from = client.frames.length;
      await report('ghost-01', 'scanning');
      expect(fleetOf(await client.next(inState('degraded'), { from }))).toMatchObject({
        heardBots: 1,
        heardPercent: 50,
        lastHeardFrom: 'ghost-01',
      });
      await report('ghost-07', 'scanning');
      await client.next(inState('live'), { from });
    });

    it('says stopped, by whom and why, under an emergency stop, however many bots report', async () => {
      await report('ghost-01', 'scanning');
      const client = await dashboard();
      await client.next(inState('live'));
      const stop = await t.app.inject({
        method: 'POST',
        url: '/api/admin/configurations/emergency-stop',
        headers: { cookie: t.cookie },
        payload: { reason: 'Game update' },
      });
      expect(stop.statusCode, stop.body).toBe(200);
      // What the console does when it hears emergency_control: ask again.
      const from = client.frames.length;
      client.send({ type: 'system_health', payload: {} });
      expect(fleetOf(await client.next((f) => f.type === 'system_health', { from }))).toMatchObject({
        state: 'stopped',
        heardBots: 1,
        stoppedBy: 'admin (127.0.0.1)',
        stoppedReason: 'Game update',
        stoppedAt: new Date(t.clock.now()).toISOString(),
      });
      expect(await t.ctx.services.fleetCondition()).toMatchObject({ state: 'stopped' });
    });
  });
}
