import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { type BotParameters, DEFAULT_BOT_PARAMETERS } from '../common/configuration.ts';
import { parseOptions } from './options.ts';
import { seededRandom } from './pets.ts';
import { SIMULATED_CONFIG_FAILURE, Simulator } from './simulator.ts';

/*
 * The simulator against a stand-in server: a bare ws endpoint and a server pool that hands out
 * numbered servers, recording what the bot sends, so its reactions to the server's frames show.
 */
interface Received {
  type: string;
  payload: Record<string, unknown>;
  /** The bot that sent it (from the hello on its socket). */
  ghostId?: string;
  /** When the stand-in received it (ms). */
  at: number;
}

interface StandInOptions {
  /** How long the pool takes to answer a claim. */
  claimDelayMs?: number;
  /** Called as the pool receives claim number `n` (from 1), before it answers. */
  onClaim?: (n: number) => void;
  /** Frames the server sends a bot 200 ms after its hello (as the real one sends emergency_stop while stopped). */
  afterHello?: () => Array<{ type: string; payload: unknown }>;
}

async function standIn({ claimDelayMs = 0, onClaim, afterHello = () => [] }: StandInOptions = {}) {
  const frames: Received[] = [];
  const calls: Array<{ path: string; body: Record<string, unknown>; auth: string | undefined }> = [];
  let next = 0;
  const http: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      calls.push({ path: request.url ?? '', body, auth: request.headers.authorization });
      response.setHeader('content-type', 'application/json');
      if (request.url === '/api/bot/enroll') {
        // Each bot its own credential, as the real server hands it out.
        response.statusCode = 201;
        response.end(JSON.stringify({ ghostId: body.ghostId, botToken: `bot_${String(body.ghostId)}` }));
      } else if (request.url === '/api/server-pool/claim') {
        next += 1;
        onClaim?.(next);
        const answer = JSON.stringify({ server: { jobId: `job-${next}`, placeId: '42' }, leaseSeconds: 120 });
        setTimeout(() => response.end(answer), claimDelayMs);
      } else if (request.url === '/api/server-pool/servers' && (body.servers as unknown[]).length > 500) {
        // As the real server refuses a batch past MAX_POOL_SERVERS_PER_CALL.
        response.statusCode = 400;
        response.end(JSON.stringify({ error: 'servers must hold at most 500 servers' }));
      } else {
        response.end(JSON.stringify({ ok: true }));
      }
    });
  });
  const sockets = new WebSocketServer({ server: http, path: '/ws' });
  const bots = new Map<string, WebSocket>();
  let closeCode: number | undefined;
  let upgradeAuth: string | undefined;
  const frame = (type: string, payload: unknown) => JSON.stringify({ type, payload });
  sockets.on('connection', (socket, request) => {
    upgradeAuth = request.headers.authorization;
    let ghostId: string | undefined;
    socket.on('message', (data) => {
      const received = JSON.parse(String(data)) as Received;
      if (received.type === 'hello') {
        ghostId = String(received.payload.ghostId);
        bots.set(ghostId, socket);
        // A moment later, as a real server's answer comes after its database work: longer than a hop.
        const answer = afterHello();
        setTimeout(() => {
          for (const { type, payload } of answer) socket.send(frame(type, payload));
        }, 200);
      }
      frames.push({ ...received, ghostId, at: Date.now() });
    });
    socket.on('close', (code) => {
      closeCode = code;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    frames,
    calls,
    /** Sends a frame to one bot (ghost-01 by default). */
    send: (type: string, payload: unknown, ghostId = 'ghost-01') =>
      bots.get(ghostId)?.send(frame(type, payload)),
    /** Drops the bot's socket, as a server restart does. */
    drop: (ghostId = 'ghost-01') => bots.get(ghostId)?.terminate(),
    closeCode: () => closeCode,
    upgradeAuth: () => upgradeAuth,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const noFile = () => {
  throw new Error('no token file in tests');
};

/** A whole, valid parameter set, as the server's `config` frame carries it. */
const parameters = (changes: Partial<BotParameters> = {}): BotParameters => ({
  ...DEFAULT_BOT_PARAMETERS,
  ...changes,
});

describe('the simulated bot', () => {
  let server: Awaited<ReturnType<typeof standIn>> | undefined;
  let simulator: Simulator | undefined;
  afterEach(async () => {
    await simulator?.stop();
    await server?.close();
    simulator = undefined;
    server = undefined;
  });

  /** A fleet from the simulator's own flags (`--hop-interval` and more) against a fresh stand-in. */
  async function startFleet(flags: string[], standInOptions: StandInOptions = {}) {
    server = await standIn(standInOptions);
    const options = parseOptions(
      [...flags, '--url', server.url, '--token', 'sim-token', '--places', '42', '--discovery-rate', '0'],
      {},
      noFile,
    );
    simulator = new Simulator(
      { ...options!, failureRate: 0, statusIntervalMs: 0 },
      seededRandom(1),
      () => {},
    );
    await simulator.start();
    return server;
  }
  const startOne = (hopIntervalMs: number, standInOptions?: StandInOptions) =>
    startFleet(['--bots', '1', '--hop-interval', String(hopIntervalMs)], standInOptions);

  const framesOf = (type: string, ghostId = 'ghost-01') =>
    server?.frames.filter((f) => f.type === type && f.ghostId === ghostId) ?? [];
  const hops = () => framesOf('server_hop').length;
  const acks = (ghostId?: string) => framesOf('config_ack', ghostId).map((f) => f.payload);
  const claims = () => server?.calls.filter((c) => c.path === '/api/server-pool/claim').length ?? 0;
  const saidInactive = () => framesOf('scanner_status').some((f) => f.payload.status === 'inactive');
  const hello = (ghostId?: string) => framesOf('hello', ghostId).length > 0;

  it("stocks a large pool in calls within the server's limit, so a big fleet is not left with an empty pool", async () => {
    const s = await startOne(3_600_000);
    await simulator?.stockPool(1_200);
    const stocked = s.calls
      .filter((c) => c.path === '/api/server-pool/servers')
      .map((c) => (c.body.servers as unknown[]).length);
    // The start's own stock (20) first, then 1,200 as 500 + 500 + 200.
    expect(stocked).toEqual([20, 500, 500, 200]);
    expect(simulator?.counters.errors).toBe(0);
  });

  it('spreads its connects over --ramp-s', async () => {
    const s = await startFleet(['--bots', '4', '--hop-interval', '3600000', '--ramp-s', '0.6']);
    await until(() => ['ghost-01', 'ghost-04'].every((id) => hello(id)), 'every hello');
    const at = (id: string) => framesOf('hello', id)[0]?.at ?? 0;
    // Bot i starts i × 150 ms after the first.
    expect(at('ghost-04') - at('ghost-01')).toBeGreaterThanOrEqual(400);
    expect(s.frames.length).toBeGreaterThan(0);
  });

  it('enrolls with the shared token, then says hello first, with its own botToken on the socket and the pool calls', async () => {
    const s = await startOne(100);
    await until(() => hops() >= 2, 'two hops');
    expect(s.calls[0]).toEqual({
      path: '/api/bot/enroll',
      body: { ghostId: 'ghost-01' },
      auth: 'Bearer sim-token',
    });
    expect(s.frames[0]).toMatchObject({ type: 'hello', payload: { ghostId: 'ghost-01' } });
    expect(s.upgradeAuth()).toBe('Bearer bot_ghost-01');
    expect(s.calls.slice(1).every((c) => c.auth === 'Bearer bot_ghost-01')).toBe(true);
    const [first, second] = framesOf('server_hop');
    expect(first?.payload).toMatchObject({
      fromJobId: null,
      toJobId: 'job-1',
      toPlaceId: '42',
      success: true,
    });
    // The second hop leaves the first server, which goes back to the pool.
    expect(second?.payload).toMatchObject({ fromJobId: 'job-1', toJobId: 'job-2' });
    await until(
      () => s.calls.some((c) => c.path === '/api/server-pool/release' && c.body.jobId === 'job-1'),
      'the release of job-1',
    );
    expect(s.calls).toContainEqual(
      expect.objectContaining({
        path: '/api/server-pool/release',
        body: { ghostId: 'ghost-01', jobId: 'job-1', outcome: 'ok' },
      }),
    );
  });

  it('hops at the interval a config frame sets, and acknowledges its version', async () => {
    const s = await startOne(60_000);
    await until(() => hello(), 'hello');
    s.send('config', { version: 3, parameters: parameters({ hopFrequencyMs: 1000 }) });
    await until(() => acks().length === 1, 'config_ack');
    expect(acks()[0]).toEqual({ version: 3, ok: true });
    // At the start's 60 s interval not one hop would come in this time; at 1 s (±20%) three do.
    await until(() => hops() >= 3, 'hops at the new interval', 6_000);
    const [, second, third] = framesOf('server_hop').map((f) => f.at);
    expect(third! - second!).toBeGreaterThanOrEqual(700);

    // Slower again: after the acknowledgement the next hop is one new interval (24–36 s) away.
    s.send('config', { version: 4, parameters: parameters({ hopFrequencyMs: 30_000 }) });
    await until(() => acks().length === 2, 'second config_ack');
    expect(acks()[1]).toEqual({ version: 4, ok: true });
    const hopsThen = hops();
    await sleep(1_500);
    expect(hops()).toBe(hopsThen);
    expect(simulator?.bots[0]).toMatchObject({ configVersion: 4, hopIntervalMs: 30_000 });
  });

  it('refuses a config whose parameters are out of range or incomplete, naming the field, and keeps its own', async () => {
    const s = await startOne(60_000);
    await until(() => hello(), 'hello');
    s.send('config', { version: 2, parameters: parameters({ hopFrequencyMs: 2000 }) });
    s.send('config', { version: 3, parameters: parameters({ hopFrequencyMs: 100 }) });
    s.send('config', { version: 4, parameters: { hopFrequencyMs: 1000 } });
    // The shape before the contract: bare fields beside the version.
    s.send('config', { version: 5, hopFrequencyMs: 1000 });
    await until(() => acks().length === 4, 'four acknowledgements');
    const [applied, outOfRange, incomplete, bare] = acks();
    expect(applied).toEqual({ version: 2, ok: true });
    expect(outOfRange).toEqual({
      version: 3,
      ok: false,
      error: 'invalid parameters: hopFrequencyMs must be from 1000 to 30000',
    });
    expect(incomplete).toMatchObject({ version: 4, ok: false, error: expect.stringMatching(/hopDelayMs/) });
    expect(bare).toMatchObject({
      version: 5,
      ok: false,
      error: expect.stringMatching(/^invalid parameters: /),
    });
    expect(simulator?.bots[0]).toMatchObject({ configVersion: 2, hopIntervalMs: 2000 });
    expect(simulator?.counters).toMatchObject({ configsApplied: 1, configsRefused: 3 });
  });

  it('with --silent-bots and --failing-bots, the last bots leave configs unanswered or refuse them', async () => {
    const s = await startFleet([
      '--bots',
      '4',
      '--hop-interval',
      '60000',
      '--silent-bots',
      '1',
      '--failing-bots',
      '2',
    ]);
    const fleet = ['ghost-01', 'ghost-02', 'ghost-03', 'ghost-04'];
    await until(() => fleet.every((id) => hello(id)), 'four hellos');
    for (const id of fleet)
      s.send('config', { version: 7, parameters: parameters({ hopFrequencyMs: 1000 }) }, id);
    await until(
      () => acks('ghost-01').length + acks('ghost-02').length + acks('ghost-03').length === 3,
      'acks',
    );
    expect(acks('ghost-01')).toEqual([{ version: 7, ok: true }]);
    for (const failing of ['ghost-02', 'ghost-03']) {
      expect(acks(failing)).toEqual([{ version: 7, ok: false, error: SIMULATED_CONFIG_FAILURE }]);
    }
    await sleep(300);
    expect(acks('ghost-04')).toEqual([]);
    // Neither kind applied the values.
    expect(simulator?.bots.map((bot) => bot.hopIntervalMs)).toEqual([1000, 60_000, 60_000, 60_000]);
    expect(simulator?.counters).toMatchObject({ configsApplied: 1, configsRefused: 2, configsIgnored: 1 });
    // Emergency frames still reach them: only configuration is broken.
    s.send('emergency_stop', { reason: 'drill' }, 'ghost-04');
    await until(() => simulator?.bots[3]?.paused === true, 'the silent bot to stop');
  });

  it('stops hopping on emergency_stop, even with a claim under way, and resumes on emergency_resume', async () => {
    let s: Awaited<ReturnType<typeof standIn>> | undefined;
    // The stop lands while the bot waits for its second server: that hop must not happen.
    s = await startOne(100, {
      claimDelayMs: 100,
      onClaim: (n) => n === 2 && s?.send('emergency_stop', { reason: 'drill' }),
    });
    await until(() => saidInactive(), 'inactive status');
    expect(hops()).toBe(1);
    await until(
      () => s.calls.some((c) => c.path === '/api/server-pool/release' && c.body.jobId === 'job-2'),
      'the claimed server to go back unjoined',
    );
    await sleep(600);
    expect(hops()).toBe(1);
    expect(claims()).toBe(2);

    s.send('emergency_resume', { reason: 'drill over' });
    await until(() => hops() >= 3, 'hops again');
    expect(framesOf('scanner_status').at(-1)?.payload.status).not.toBe('inactive');
  });

  it('stays stopped when told to stop right after hello: no claim, no hop', async () => {
    const stop = { type: 'emergency_stop', payload: { reason: 'network stopped' } };
    const s = await startOne(100, { afterHello: () => [stop] });
    await until(() => saidInactive(), 'inactive status');
    await sleep(1_500);
    expect(hops()).toBe(0);
    expect(claims()).toBe(0);
    s.send('emergency_resume', { reason: 'go' });
    await until(() => hops() >= 1, 'a hop after resume');
  });

  it('after a reconnect stays stopped while the server repeats the stop, and resumes when it does not', async () => {
    let stopped = true;
    const s = await startOne(100, {
      afterHello: () => (stopped ? [{ type: 'emergency_stop', payload: { reason: 'network stopped' } }] : []),
    });
    await until(() => simulator?.bots[0]?.paused === true, 'the stop');
    s.drop();
    await until(() => framesOf('hello').length === 2, 'a second hello', 5_000);
    await sleep(1_500);
    expect(hops()).toBe(0);

    // Resumed while the bot was away: the server says nothing after its next hello.
    stopped = false;
    s.drop();
    await until(() => framesOf('hello').length === 3, 'a third hello', 5_000);
    await until(() => hops() >= 1, 'hops after the silent reconnect');
    expect(simulator?.bots[0]?.paused).toBe(false);
  });

  it('reconnects after the server drops it, and says hello again', async () => {
    const s = await startOne(60_000);
    await until(() => hello(), 'hello');
    s.drop();
    await until(() => framesOf('hello').length === 2, 'a second hello', 5_000);
    expect(simulator?.connectedBots).toBe(1);
  });

  it('on stop releases its server and closes its socket with 1000', async () => {
    const s = await startOne(100);
    await until(() => hops() >= 1, 'a hop');
    await simulator?.stop();
    const released = s.calls.filter((c) => c.path === '/api/server-pool/release').length;
    expect(released).toBe(claims());
    await until(() => s.closeCode() !== undefined, 'the socket to close');
    expect(s.closeCode()).toBe(1000);
  });
});
