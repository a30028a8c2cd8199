import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { DEFAULT_OPTIONS } from './options.ts';
import { seededRandom } from './pets.ts';
import { Simulator } from './simulator.ts';

/*
 * The simulator against a stand-in server: a bare ws endpoint and a server pool that hands out
 * numbered servers, recording what the bot sends, so its reactions to the server's frames show.
 */
interface Received {
  type: string;
  payload: Record<string, unknown>;
}

async function standIn() {
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
      if (request.url === '/api/server-pool/claim') {
        next += 1;
        response.end(JSON.stringify({ server: { jobId: `job-${next}`, placeId: '42' }, leaseSeconds: 120 }));
      } else {
        response.end(JSON.stringify({ ok: true }));
      }
    });
  });
  const sockets = new WebSocketServer({ server: http, path: '/ws' });
  let bot: WebSocket | undefined;
  let closeCode: number | undefined;
  let upgradeAuth: string | undefined;
  sockets.on('connection', (socket, request) => {
    bot = socket;
    upgradeAuth = request.headers.authorization;
    socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Received));
    socket.on('close', (code) => {
      closeCode = code;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    frames,
    calls,
    send: (type: string, payload: unknown) => bot?.send(JSON.stringify({ type, payload })),
    /** Drops the bot's socket, as a server restart does. */
    drop: () => bot?.terminate(),
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

describe('the simulated bot', () => {
  let server: Awaited<ReturnType<typeof standIn>> | undefined;
  let simulator: Simulator | undefined;
  afterEach(async () => {
    await simulator?.stop();
    await server?.close();
  });

  async function startOne(hopIntervalMs: number) {
    server = await standIn();
    simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: ['42'],
        bots: 1,
        hopIntervalMs,
        discoveryRate: 0,
        failureRate: 0,
        url: server.url,
        token: 'sim-token',
        statusIntervalMs: 0,
      },
      seededRandom(1),
      () => {},
    );
    await simulator.start();
    return server;
  }
  const hops = () => server?.frames.filter((f) => f.type === 'server_hop').length ?? 0;

  it('says hello with its ghost id first, with its bearer token on the socket and the pool calls', async () => {
    const s = await startOne(100);
    await until(() => hops() >= 2, 'two hops');
    expect(s.frames[0]).toMatchObject({ type: 'hello', payload: { ghostId: 'ghost-01' } });
    expect(s.upgradeAuth()).toBe('Bearer sim-token');
    expect(s.calls.every((c) => c.auth === 'Bearer sim-token')).toBe(true);
    const [first, second] = s.frames.filter((f) => f.type === 'server_hop');
    expect(first?.payload).toMatchObject({
      fromJobId: null,
      toJobId: 'job-1',
      toPlaceId: '42',
      success: true,
    });
    // The second hop leaves the first server, which goes back to the pool.
    expect(second?.payload).toMatchObject({ fromJobId: 'job-1', toJobId: 'job-2' });
    expect(s.calls).toContainEqual(
      expect.objectContaining({
        path: '/api/server-pool/release',
        body: { ghostId: 'ghost-01', jobId: 'job-1', outcome: 'ok' },
      }),
    );
  });

  it('hops at the interval a config frame sets, and acknowledges it', async () => {
    const s = await startOne(60_000);
    await until(() => s.frames.some((f) => f.type === 'hello'), 'hello');
    s.send('config', { version: 3, hopFrequencyMs: 100 });
    await until(() => s.frames.some((f) => f.type === 'config_ack'), 'config_ack');
    expect(s.frames.find((f) => f.type === 'config_ack')?.payload).toEqual({ version: 3, ok: true });
    await until(() => hops() >= 3, 'hops at the new interval');

    s.send('config', { version: 4, hopFrequencyMs: 'fast' });
    await until(() => s.frames.filter((f) => f.type === 'config_ack').length === 2, 'second config_ack');
    expect(s.frames.filter((f) => f.type === 'config_ack')[1]?.payload).toMatchObject({
      version: 4,
      ok: false,
    });
  });

  it('stops hopping on emergency_stop, reporting inactive, and resumes on emergency_resume', async () => {
    const s = await startOne(100);
    await until(() => hops() >= 1, 'a hop');
    s.send('emergency_stop', {});
    await until(
      () => s.frames.some((f) => f.type === 'scanner_status' && f.payload.status === 'inactive'),
      'inactive status',
    );
    await sleep(150);
    const stoppedAt = hops();
    await sleep(500);
    expect(hops()).toBe(stoppedAt);
    s.send('emergency_resume', {});
    await until(() => hops() > stoppedAt, 'hops again');
  });

  it('reconnects after the server drops it, and says hello again', async () => {
    const s = await startOne(60_000);
    await until(() => s.frames.some((f) => f.type === 'hello'), 'hello');
    s.drop();
    await until(() => s.frames.filter((f) => f.type === 'hello').length === 2, 'a second hello', 5_000);
    expect(simulator?.connectedBots).toBe(1);
  });

  it('on stop releases its server and closes its socket with 1000', async () => {
    const s = await startOne(100);
    await until(() => hops() >= 1, 'a hop');
    await simulator?.stop();
    const claimed = s.calls.filter((c) => c.path === '/api/server-pool/claim').length;
    const released = s.calls.filter((c) => c.path === '/api/server-pool/release').length;
    expect(released).toBe(claimed);
    await until(() => s.closeCode() !== undefined, 'the socket to close');
    expect(s.closeCode()).toBe(1000);
  });
});
