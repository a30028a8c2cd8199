import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { freePort, type ServerProcess, startServer, stopServer } from '../reliability/server-process.ts';

/*
 * The log an operator gets from `npm start` at the default level: the built server on a fresh SQLite
 * file (so it generates the admin secret), 20 simulated bots hopping through the pool for a few
 * seconds, then SIGTERM. It holds when the secret is printed once, framed, and in no log line; when
 * the bots' claims, releases, hops and finds wrote no line; and when start and stop did.
 */

const BOT_TOKEN = 'operations-log-token';
const BOTS = 20;

describe('sqlite: the default log of a first start under simulator load', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('prints the generated admin secret once, framed, and logs start and stop but no bot request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-log-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: join(dir, 'scanline.db'),
      BOT_TOKEN,
      BOT_TOKEN_FILE: join(dir, 'bot-token'),
      LOG_LEVEL: 'info',
    };
    const server: ServerProcess = await startServer(env, await freePort());
    cleanups.push(() => stopServer(server));

    const simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: BOTS,
        hopIntervalMs: 300,
        discoveryRate: 60,
        url: server.url,
        token: BOT_TOKEN,
        statusIntervalMs: 0,
      },
      Math.random,
      () => {},
    );
    cleanups.push(() => simulator.stop());
    await simulator.start();
    // The fleet's enrollments, hellos and pool stocking, then claims and releases round after round.
    await vi.waitFor(() => expect(simulator.counters.hops).toBeGreaterThanOrEqual(3 * BOTS), {
      timeout: 60_000,
      interval: 50,
    });
    await simulator.stop();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe('0');

    const output = server.output();
    const jsonLines = output.split('\n').filter((line) => line.startsWith('{'));
    const logged = jsonLines.map((line) => JSON.parse(line) as { level: number; msg: string; req?: unknown });
    const secret = /Admin secret: (\S+)/.exec(output)?.[1] ?? '';
    console.log(
      `default log of ${simulator.counters.hops} hops by ${BOTS} bots: ${jsonLines.length} JSON lines, ` +
        `${Buffer.byteLength(jsonLines.join('\n'))} bytes`,
    );

    // The first few, should there be any.
    expect(logged.filter((l) => l.req !== undefined).slice(0, 3)).toEqual([]);
    expect(jsonLines.join('\n')).not.toMatch(/server-pool|bot\/events|bot\/enroll/);
    expect(Buffer.byteLength(jsonLines.join('\n'))).toBeLessThan(5_000);
    expect(secret).toMatch(/^\S{20,}$/);
    // Once: in the framed block, and in no log line.
    expect(output.split(secret)).toHaveLength(2);
    expect(output).toMatch(new RegExp(`={40,}\\n[^=]*Admin secret: ${secret}[^=]*\\n={40,}`));
    expect(logged.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'Scanline started',
        'No ADMIN_SECRET was set: one was generated and printed once on stdout, in a framed block (only its hash is stored)',
        'shutting down',
        'shut down cleanly',
      ]),
    );
  });
});
