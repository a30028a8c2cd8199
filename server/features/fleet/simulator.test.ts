import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processCredentials } from '../../../bots/credentials.ts';
import { DEFAULT_OPTIONS, ghostIds } from '../../../bots/options.ts';
import { Simulator } from '../../../bots/simulator.ts';
import type { LiveDataPayload, Scanner, ServerHopEvent } from '../../../common/fleet.ts';
import type { ServerPoolStatsResponse } from '../../../common/server-pool.ts';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';

/*
 * End to end: the simulator (bots/, speaking only the public protocol) against the real app on a
 * loopback port. What an operator sees after `npm start` and `npm run simulate`: the dashboard
 * socket fills with hops, finds and all 70 scanners, and the server pool's figures move.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: the bot simulator against the server`, () => {
    // With the shared token good for enrolling only: every bot speaks with its own credential.
    const t = useTestApp(dialect, { listen: true, signIn: true, env: { BOT_TOKEN_LEGACY: 'false' } });
    let simulator: Simulator | undefined;
    let dashboard: TestClient | undefined;
    // Registered after useTestApp's hooks, so it runs before the app closes.
    afterEach(async () => {
      await simulator?.stop();
      simulator = undefined;
      dashboard?.ws.terminate();
    });

    const poolStats = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/server-pool/stats',
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as ServerPoolStatsResponse).stats;
    };

    it('makes the dashboard socket and the server pool move: hops, finds and 70 scanners arrive', async () => {
      expect((await poolStats()).total).toBe(0);
      dashboard = await connectTestClient(t.socketUrl, t.cookie);
      const port = (t.app.server.address() as AddressInfo).port;
      simulator = new Simulator(
        {
          ...DEFAULT_OPTIONS,
          placeIds: [...DEFAULT_OPTIONS.placeIds],
          bots: 70,
          hopIntervalMs: 1_000,
          discoveryRate: 60,
          failureRate: 0.2,
          url: `http://127.0.0.1:${port}`,
          token: TEST_BOT_TOKEN,
          statusIntervalMs: 0,
        },
        Math.random,
        () => {},
      );
      await simulator.start();

      const hop = await dashboard.next((f) => f.type === 'server_hop', { timeoutMs: 15_000 });
      const event = hop.payload as ServerHopEvent;
      expect(event.botId).toMatch(/^ghost-\d\d$/);
      expect(event.seq).toBeGreaterThan(0);

      const find = await dashboard.next((f) => f.type === 'live_data', { timeoutMs: 15_000 });
      const discovery = find.payload as LiveDataPayload;
      expect(discovery.eventType).toBe('pet_discovered');
      expect(discovery.petData.value).toMatch(/^\$[\d.]+[KMBT]?\/s$/);
      expect(discovery.numericValue).toBeGreaterThan(0);

      const everyone = await dashboard.next(
        (f) =>
          f.type === 'scanner_status' && ((f.payload as { scanners: Scanner[] }).scanners?.length ?? 0) >= 70,
        { timeoutMs: 15_000 },
      );
      const scanners = (everyone.payload as { scanners: Scanner[] }).scanners;
      expect(new Set(scanners.map((s) => s.botId))).toEqual(new Set(ghostIds(70)));
      const enrollments = await t.app.inject({
        method: 'GET',
        url: '/api/admin/fleet/enrollments',
        headers: { cookie: t.cookie },
      });
      expect(enrollments.json().enrolledBots.map((b: { ghostId: string }) => b.ghostId)).toEqual(
        ghostIds(70),
      );

      const during = await poolStats();
      // Every server the simulator added is in the pool or deleted (full, failed: history, not in the total).
      expect(during.total + during.byStatus.deleted).toBeGreaterThanOrEqual(140);
      expect(during.byStatus.assigned).toBeGreaterThan(0);
      expect(during.activeBots).toBeGreaterThan(0);
      expect(simulator.counters.errors).toBe(0);

      // Ctrl-C: every claimed server goes back to the pool and every socket closes normally.
      await simulator.stop();
      const after = await poolStats();
      expect(after.byStatus.assigned).toBe(0);
      expect(after.activeBots).toBe(0);
      expect(simulator.connectedBots).toBe(0);
    }, 60_000);
  });
}

/** A small simulated fleet against the test app on `port`, keeping its bots' credentials as a Simulator does by default. */
function smallFleet(port: number, bots: number): Simulator {
  return new Simulator(
    {
      ...DEFAULT_OPTIONS,
      placeIds: [...DEFAULT_OPTIONS.placeIds],
      bots,
      hopIntervalMs: 60_000,
      url: `http://127.0.0.1:${port}`,
      token: TEST_BOT_TOKEN,
      statusIntervalMs: 0,
    },
    Math.random,
    () => {},
  );
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the simulator against a full fleet`, () => {
    const t = useTestApp(dialect, { listen: true, env: { FLEET_MAX_BOTS: '2' } });
    let simulator: Simulator | undefined;
    afterEach(async () => {
      await simulator?.stop();
      simulator = undefined;
    });

    it('does not start a bot the server will not enroll, and says why', async () => {
      simulator = smallFleet((t.app.server.address() as AddressInfo).port, 3);
      await simulator.start();
      await vi.waitFor(() => expect(simulator?.connectedBots).toBe(2), { timeout: 10_000 });
      // The bots enroll at once: whichever comes third finds no place.
      expect(simulator.counters.lastError).toMatch(
        /^ghost-0\d: enrollment refused \(409 The fleet is full: at most 2 scanners\), not starting$/,
      );
      expect(simulator.counters.errors).toBe(1);
      const errors = simulator.counters.errors;
      // Past the first reconnect delay (at most 1 s, bots/simulator.ts reconnectDelayMs): a bot that
      // tried anyway would be refused by then. Nothing to wait for but time: it must not happen.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(simulator.counters.errors).toBe(errors);
      expect(simulator.connectedBots).toBe(2);
      expect(t.ctx.services.fleet.backfill(false).scanners).toHaveLength(2);
    }, 30_000);
  });

  describe(`${dialect}: the simulator's own credentials`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    let simulator: Simulator | undefined;
    afterEach(async () => {
      await simulator?.stop();
      simulator = undefined;
    });

    it("renews its bots' credentials when started again, and stops a bot whose credential is revoked", async () => {
      const port = (t.app.server.address() as AddressInfo).port;
      // What two Simulators in one process share by default (a file, from the command line).
      const credentials = processCredentials(`http://127.0.0.1:${port}`);
      simulator = smallFleet(port, 2);
      await simulator.start();
      await vi.waitFor(() => expect(simulator?.connectedBots).toBe(2), { timeout: 10_000 });
      const first = credentials.get('ghost-01');
      await simulator.stop();

      // The server keeps only hashes: a second run enrolls its bots again with their stored botTokens.
      simulator = smallFleet(port, 2);
      await simulator.start();
      await vi.waitFor(() => expect(simulator?.connectedBots).toBe(2), { timeout: 10_000 });
      expect(simulator.counters.errors).toBe(0);
      expect(credentials.get('ghost-01')).not.toBe(first);

      const revoked = await t.app.inject({
        method: 'DELETE',
        url: '/api/admin/fleet/enrollments/ghost-01',
        headers: { cookie: t.cookie },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      // A socket stops counting as connected when the close frame arrives, before its close event.
      await vi.waitFor(
        () => {
          expect(simulator?.connectedBots).toBe(1);
          expect(simulator?.counters.lastError).toBe(
            'ghost-01: refused (4401 Bot credential refused), not reconnecting',
          );
        },
        { timeout: 5_000 },
      );
      const errors = simulator.counters.errors;
      await new Promise((r) => setTimeout(r, 1_500));
      expect(simulator.counters.errors).toBe(errors);
      expect(simulator.connectedBots).toBe(1);
    }, 30_000);
  });
}
