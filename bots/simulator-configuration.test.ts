import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotConfiguration, ConfigurationChange } from '../common/configuration.ts';
import type { ServerHopEvent } from '../common/fleet.ts';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../server/test/helper.ts';
import { connectTestClient, type TestClient } from '../server/test/socket-client.ts';
import { ghostIds, parseOptions } from './options.ts';
import { SIMULATED_CONFIG_FAILURE, Simulator } from './simulator.ts';

/*
 * The simulator against the real app (configuration service, bot sockets, dashboard socket): what an
 * operator sees on Live Configuration with `npm run simulate -- --silent-bots 1 --failing-bots 1`.
 * The app's clock is a fake one, so the acknowledgement deadline passes only when the test says.
 */
const TIMEOUT = { timeout: 30_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of DIALECTS) {
  describe(`${dialect}: simulated bots under live configuration`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    let simulator: Simulator | undefined;
    let dashboard: TestClient | undefined;
    // Registered after useTestApp's hooks, so it runs before the app closes.
    afterEach(async () => {
      await simulator?.stop();
      simulator = undefined;
      dashboard?.ws.terminate();
      dashboard = undefined;
    });

    async function startFleet(flags: string[]): Promise<Simulator> {
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const options = parseOptions([...flags, '--url', url, '--token', TEST_BOT_TOKEN], {}, () => '');
      simulator = new Simulator(
        { ...options!, discoveryRate: 0, failureRate: 0, statusIntervalMs: 0 },
        Math.random,
        () => {},
      );
      await simulator.start();
      return simulator;
    }

    async function call<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
      const res = await t.app.inject({ method, url, payload, headers: { cookie: t.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as T;
    }
    const deployStates = async () => {
      const { configurations } = await call<{ configurations: BotConfiguration[] }>(
        'GET',
        '/api/admin/configurations',
      );
      return Object.fromEntries(configurations.map((c) => [c.botId, c.deployState]));
    };
    const change = async (id: string) => {
      const { changes } = await call<{ changes: ConfigurationChange[] }>(
        'GET',
        '/api/admin/configurations/history',
      );
      return changes.find((c) => c.id === id);
    };

    it(
      'bots apply a push and acknowledge it; a failing bot refuses it, a silent one fails at the deadline',
      TIMEOUT,
      async () => {
        const fleet = await startFleet(['--bots', '6', '--silent-bots', '1', '--failing-bots', '1']);
        // At hello each bot is sent its configuration (the defaults): the last two do not apply it.
        await expect.poll(deployStates, { timeout: 10_000 }).toEqual({
          'ghost-01': 'applied',
          'ghost-02': 'applied',
          'ghost-03': 'applied',
          'ghost-04': 'applied',
          'ghost-05': 'failed',
          'ghost-06': 'pending',
        });

        const { result } = await call<{ result: { changeId: string; successful: number; sent: number } }>(
          'POST',
          '/api/admin/configurations/bulk-update',
          { targetBotIds: ghostIds(6), updates: { hopFrequencyMs: 1000 }, reason: 'faster scans' },
        );
        expect(result).toMatchObject({ successful: 6, sent: 6 });
        await expect
          .poll(async () => (await change(result.changeId))?.counts, { timeout: 10_000 })
          .toEqual({ pending: 1, applied: 4, failed: 1 });
        const refused = (await change(result.changeId))?.targets.find(
          (target) => target.botId === 'ghost-05',
        );
        expect(refused).toMatchObject({ state: 'failed', error: SIMULATED_CONFIG_FAILURE });
        expect(fleet.bots.map((bot) => bot.hopIntervalMs)).toEqual([1000, 1000, 1000, 1000, 5000, 5000]);

        t.clock.advance(t.ctx.config.CONFIG_ACK_DEADLINE_MS + 1);
        await expect
          .poll(async () => (await change(result.changeId))?.counts, { timeout: 10_000 })
          .toEqual({ pending: 0, applied: 4, failed: 2 });
        const silent = (await change(result.changeId))?.targets.find((target) => target.botId === 'ghost-06');
        expect(silent).toMatchObject({ state: 'failed', error: 'no acknowledgement' });
      },
    );

    it(
      'HTTP-only bots (--http-bots) take their configuration and emergency frames from their posts',
      TIMEOUT,
      async () => {
        const fleet = await startFleet(['--bots', '3', '--http-bots', '1']);
        const httpBot = fleet.bots[2]!;
        expect(httpBot).toMatchObject({ ghostId: 'ghost-03', http: true, socket: null });
        await expect.poll(deployStates, { timeout: 10_000 }).toEqual({
          'ghost-01': 'applied',
          'ghost-02': 'applied',
          'ghost-03': 'applied',
        });

        const { result } = await call<{ result: { changeId: string; sent: number } }>(
          'POST',
          '/api/admin/configurations/bulk-update',
          { targetBotIds: ghostIds(3), updates: { hopFrequencyMs: 1000 }, reason: 'faster scans' },
        );
        // Sent at once to the two sockets; the HTTP bot is handed it at its next post.
        expect(result.sent).toBe(2);
        await expect
          .poll(async () => (await change(result.changeId))?.counts, { timeout: 10_000 })
          .toEqual({ pending: 0, applied: 3, failed: 0 });
        expect(httpBot.hopIntervalMs).toBe(1000);

        await call('POST', '/api/admin/configurations/emergency-stop', { reason: 'drill' });
        await expect.poll(() => httpBot.paused, { timeout: 10_000 }).toBe(true);
        await call('POST', '/api/admin/configurations/emergency-resume', { reason: 'drill over' });
        await expect.poll(() => httpBot.paused, { timeout: 10_000 }).toBe(false);
      },
    );

    it(
      'emergency stop silences every bot on the dashboard socket, and resume sets them all hopping again',
      TIMEOUT,
      async () => {
        const fleet = await startFleet(['--bots', '5']);
        dashboard = await connectTestClient(t.socketUrl, t.cookie);
        await expect
          .poll(async () => Object.values(await deployStates()), { timeout: 10_000 })
          .toHaveLength(5);
        await call('POST', '/api/admin/configurations/bulk-update', {
          targetBotIds: ghostIds(5),
          updates: { hopFrequencyMs: 1000 },
        });
        const hoppers = (from: number) =>
          new Set(
            dashboard!.frames
              .slice(from)
              .filter((f) => f.type === 'server_hop')
              .map((f) => (f.payload as ServerHopEvent).botId),
          );
        await expect.poll(() => hoppers(0).size, { timeout: 10_000 }).toBe(5);

        const stopped = await call<{ affectedBots: number }>(
          'POST',
          '/api/admin/configurations/emergency-stop',
          {
            reason: 'drill',
          },
        );
        expect(stopped.affectedBots).toBe(5);
        await expect.poll(() => fleet.bots.every((bot) => bot.paused)).toBe(true);
        // A hop already on the wire when the stop went out may still land; then nothing for 2.5 s,
        // where each bot would otherwise hop twice.
        await sleep(300);
        const quietFrom = dashboard.frames.length;
        await sleep(2_500);
        expect(hoppers(quietFrom).size).toBe(0);

        const resumed = await call<{ affectedBots: number }>(
          'POST',
          '/api/admin/configurations/emergency-resume',
          { reason: 'drill over' },
        );
        expect(resumed.affectedBots).toBe(5);
        const resumedFrom = dashboard.frames.length;
        await expect.poll(() => hoppers(resumedFrom).size, { timeout: 5_000 }).toBe(5);
      },
    );
  });
}
