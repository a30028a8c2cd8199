import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { hopEvent } from '../features/fleet/fleet.fixtures.ts';
import { buildTestApp, TEST_BOT_TOKEN, type TestApp } from '../test/helper.ts';

/*
 * A PostgreSQL restart, failover or pg_terminate_backend ends every connection the server holds.
 * The process must stay up, keep every write it acknowledged, and answer again within seconds.
 */
const url = process.env.TEST_DATABASE_URL;

/** Adds `count` game servers to the pool for the simulated bots to claim. */
async function addPoolServers(t: TestApp, count: number): Promise<void> {
  const servers = Array.from({ length: count }, (_, i) => ({
    placeId: DEFAULT_OPTIONS.placeIds[0],
    jobId: `pool-${i}`,
  }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/server-pool/servers',
    headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
    payload: { servers },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Ends every connection of the app named `applicationName` (the test app's database). */
async function terminateConnections(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const res = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [applicationName],
    );
    return res.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe.runIf(url)('postgres: the database going away', () => {
  let t: TestApp | undefined;
  let simulator: Simulator | undefined;
  afterEach(async () => {
    await simulator?.stop();
    simulator = undefined;
    await t?.close();
    t = undefined;
  });

  it('survives its connections being terminated under load: no acknowledged hop is lost, and it answers again at once', async () => {
    t = await buildTestApp('postgres');
    const app = t;
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    // The simulator's fleet on sockets (hops, finds, pool claims, configuration), as in production.
    await addPoolServers(app, 100);
    simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: 20,
        hopIntervalMs: 500,
        discoveryRate: 60,
        url: base,
        token: TEST_BOT_TOKEN,
        statusIntervalMs: 0,
      },
      Math.random,
      () => {},
    );
    await simulator.start();
    const acknowledged = new Set<number>();
    const statuses = new Map<number, number>();
    let stop = false;
    let n = 0;
    // Five bots posting a batch of ten hops every 250 ms.
    const bot = async (ghostId: string) => {
      while (!stop) {
        const events = Array.from({ length: 10 }, () => hopEvent(n++));
        const res = await fetch(`${base}/api/bot/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ghostId, events }),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) {
          for (const r of ((await res.json()) as { results: Array<{ seq?: number }> }).results) {
            if (r.seq !== undefined) acknowledged.add(r.seq);
          }
        } else await res.arrayBuffer();
        // 40 events a second: within a bot's budget (RATE_LIMIT_BOT_EVENTS, 50/s).
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    // Ids of their own: the simulator enrolls ghost-01…20, and an enrolled id refuses the shared token.
    const bots = ['ghost-91', 'ghost-92', 'ghost-93', 'ghost-94', 'ghost-95'].map(bot);
    await new Promise((r) => setTimeout(r, 500));
    const before = acknowledged.size;
    let terminated = 0;
    for (let i = 0; i < 3; i++) {
      terminated += await terminateConnections(app.database ?? '');
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(terminated).toBeGreaterThan(0);
    const simulatedHopsBefore = simulator.counters.hops;
    // The server is still up and answers a call that needs the database right after.
    const started = Date.now();
    let answered = 0;
    while (answered !== 200 && Date.now() - started < 5000) {
      answered = (await fetch(`${base}/api/public/purchase-info`)).status;
      if (answered !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(answered).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(bots);
    // The simulated fleet kept its sockets and goes on hopping (each bot every 5 s, the server's
    // configured hop frequency, so this may take a few seconds).
    const waitedFrom = Date.now();
    while (simulator.counters.hops <= simulatedHopsBefore && Date.now() - waitedFrom < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const stored = await app.ctx.db.selectFrom('fleet_hops').select('seq').execute();
    const storedSeqs = new Set(stored.map((r) => r.seq));
    // One picture, so a failure shows all of it.
    expect({
      simulatedBotsConnected: simulator.connectedBots,
      simulatorHoppedAfter: simulator.counters.hops > simulatedHopsBefore,
      acknowledgedAfter: acknowledged.size > before,
      // Nothing but answers of success or of a database that is away: never a 500.
      statuses: [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
      missing: [...acknowledged].filter((seq) => !storedSeqs.has(seq)),
    }).toEqual({
      simulatedBotsConnected: 20,
      simulatorHoppedAfter: true,
      acknowledgedAfter: true,
      statuses: [],
      missing: [],
    });
  });

  it('answers 503 with a reason, not 500, while a query fails for want of a connection', async () => {
    t = await buildTestApp('postgres');
    const cookie = await t.adminCookie();
    // Terminate mid-request: the admin reads race the termination; every answer is 200 or 503.
    const reads = Array.from({ length: 20 }, () =>
      t!.app.inject({ method: 'GET', url: '/api/admin/security/audit-logs', headers: { cookie } }),
    );
    await terminateConnections(t.database ?? '');
    const answers = await Promise.all(reads);
    for (const res of answers) {
      expect([200, 503]).toContain(res.statusCode);
      if (res.statusCode === 503) expect(res.json().error).toMatch(/database is unavailable/);
    }
    // Within seconds: the pool drops the ended connections as it hears of them and opens new ones.
    const started = Date.now();
    let after = 0;
    while (after !== 200 && Date.now() - started < 3000) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/security/audit-logs',
        headers: { cookie },
      });
      after = res.statusCode;
      if (after !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toBe(200);
  });
});
