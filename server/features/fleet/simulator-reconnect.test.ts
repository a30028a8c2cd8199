import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../../bots/options.ts';
import { Simulator } from '../../../bots/simulator.ts';
import { TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';

/** More than the 120 upgrades a minute one address may make without a bot token. */
const BOTS = Number(process.env.SIM_RECONNECT_BOTS ?? 200);

async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/*
 * A fleet behind one address (every simulated bot connects from 127.0.0.1): its upgrades carry the
 * bot token and ?ghostId=, so they count against each bot, and all of them connect, and reconnect
 * after the server drops every socket as a restart does.
 */
describe(`sqlite: ${BOTS} simulated bots behind one address`, () => {
  // They all enroll at the start, from one address: more than RATE_LIMIT_BOT_ENROLL's default.
  const t = useTestApp('sqlite', { listen: true, env: { RATE_LIMIT_BOT_ENROLL: String(BOTS) } });
  let simulator: Simulator | undefined;
  afterEach(async () => {
    await simulator?.stop();
    simulator = undefined;
  });

  it('all connect, and all reconnect after the server drops them', { timeout: 90_000 }, async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const lines: string[] = [];
    simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: BOTS,
        hopIntervalMs: 3_600_000,
        discoveryRate: 0,
        url: `http://127.0.0.1:${port}`,
        token: TEST_BOT_TOKEN,
        statusIntervalMs: 0,
      },
      Math.random,
      (line) => lines.push(line),
    );
    await simulator.start();
    // Generous waits: a loaded CI machine is slow, and what matters is that every bot gets in.
    await until(() => simulator?.connectedBots === BOTS, `${BOTS} bots to connect`, 30_000);

    // What a restart does to every socket: 1012, service restart (app.ts, preClose).
    for (const socket of t.app.websocketServer.clients) socket.close(1012, 'Server restarting');
    await until(() => simulator?.connectedBots === 0, 'the bots to see the drop', 5_000).catch(() => {});
    await until(() => simulator?.connectedBots === BOTS, `${BOTS} bots to reconnect`, 30_000);
    expect(t.ctx.services.fleet.state.scanners.size).toBe(BOTS);
    // No upgrade was refused.
    expect(simulator.counters.lastError ?? '').not.toMatch(/answered 429/);
  });
});
