// @vitest-environment node
// The client runs against real sockets here: the `ws` package's WebSocket, injected, talking to a
// real server on loopback. Node's event loop is needed for that, so this file runs outside jsdom.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { ServerHopEvent } from '../../common/fleet.ts';
import { serverHop, systemHealth } from '../test/server-frames.ts';
import {
  connectionQuality,
  RealtimeClient,
  type RealtimeClientOptions,
  type RealtimeMessage,
  reconnectDelay,
  socketUrl,
  type WebSocketConstructor,
} from './realtime-client.ts';

/** Real I/O keeps running under fake timers: wait for it with setImmediate, which is not faked. */
async function until(condition: () => boolean, what: string, limitMs = 3000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function fakeTimers() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** The `ws` WebSocket, recording when each connection attempt was made. */
function countingWebSocket() {
  const attempts: number[] = [];
  class CountingWebSocket extends WebSocket {
    constructor(url: string) {
      super(url);
      attempts.push(Date.now());
    }
  }
  return { attempts, WebSocket: CountingWebSocket as unknown as WebSocketConstructor };
}

interface TestServer {
  url: string;
  wss: WebSocketServer;
  sockets: WebSocket[];
  received: Array<{ type: string; payload: unknown; id?: string; timestamp?: string }>;
  closeCodes: number[];
}

/** A socket server that answers heartbeats (unless told not to) and records what it gets. */
async function startSocketServer({ answerHeartbeats = true } = {}): Promise<TestServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const server: TestServer = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`,
    wss,
    sockets: [],
    received: [],
    closeCodes: [],
  };
  wss.on('connection', (ws) => {
    server.sockets.push(ws);
    ws.on('close', (code) => server.closeCodes.push(code));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      server.received.push(frame);
      if (frame.type === 'heartbeat' && answerHeartbeats) {
        ws.send(JSON.stringify({ type: 'heartbeat', payload: { serverTime: 1 }, id: 'h', timestamp: 'x' }));
      }
    });
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  );
  return server;
}

/** An HTTP server that refuses every upgrade with 401, like /ws for a stranger. */
async function startRefusingServer(): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
}

/** A TCP server that accepts connections and never answers the handshake. */
async function startSilentServer(): Promise<string> {
  const held: Socket[] = [];
  const server = createTcpServer((socket) => held.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of held) s.destroy();
        server.close(() => resolve());
      }),
  );
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
}

const cleanups: Array<() => Promise<void> | void> = [];

function client(options: RealtimeClientOptions): RealtimeClient {
  const c = new RealtimeClient({ WebSocket: WebSocket as unknown as WebSocketConstructor, ...options });
  cleanups.push(() => c.stop());
  return c;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('reconnectDelay', () => {
  it('starts at 2 s, grows 1.5x per attempt and caps at 30 s', () => {
    expect(Array.from({ length: 10 }, (_, i) => reconnectDelay(i))).toEqual([
      2000, 3000, 4500, 6750, 10125, 15188, 22781, 30000, 30000, 30000,
    ]);
  });
});

describe('socketUrl', () => {
  const at = (href: string) => {
    const u = new URL(href);
    return socketUrl({ protocol: u.protocol, hostname: u.hostname, port: u.port, host: u.host });
  };

  it('uses the page host and path /ws, wss: behind https', () => {
    expect(at('http://scanline.example.com/admin')).toBe('ws://scanline.example.com/ws');
    expect(at('https://scanline.example.com/admin')).toBe('wss://scanline.example.com/ws');
    expect(at('http://10.0.0.5:8080/admin')).toBe('ws://10.0.0.5:8080/ws');
  });

  it('uses port 5000 for a local host without a port', () => {
    expect(at('http://localhost/admin')).toBe('ws://localhost:5000/ws');
    expect(at('http://127.0.0.1/')).toBe('ws://127.0.0.1:5000/ws');
    expect(at('http://[::1]/')).toBe('ws://[::1]:5000/ws');
    expect(at('http://localhost:5173/admin')).toBe('ws://localhost:5173/ws');
  });
});

describe('connectionQuality', () => {
  const base = {
    status: 'connected' as const,
    now: 100_000,
    heartbeatIntervalMs: 30_000,
    hasReconnected: false,
  };

  it('is critical when not connected', () => {
    for (const status of ['disconnected', 'connecting', 'error'] as const) {
      expect(connectionQuality({ ...base, status, lastSignOfLife: base.now })).toBe('critical');
    }
  });

  it('is critical past 2x the heartbeat interval and poor past 1.5x', () => {
    expect(connectionQuality({ ...base, lastSignOfLife: base.now - 60_001 })).toBe('critical');
    expect(connectionQuality({ ...base, lastSignOfLife: base.now - 60_000 })).toBe('poor');
    expect(connectionQuality({ ...base, lastSignOfLife: base.now - 45_001 })).toBe('poor');
    expect(connectionQuality({ ...base, lastSignOfLife: base.now - 45_000 })).toBe('excellent');
  });

  it('is good after a reconnect, excellent otherwise', () => {
    expect(connectionQuality({ ...base, lastSignOfLife: base.now })).toBe('excellent');
    expect(connectionQuality({ ...base, lastSignOfLife: base.now, hasReconnected: true })).toBe('good');
  });
});

describe('RealtimeClient against a real socket server', () => {
  it('connects, sends a heartbeat frame at once and records the answer', async () => {
    const server = await startSocketServer();
    const c = client({ url: server.url });
    c.start();
    expect(c.getState().status).toBe('connecting');
    await until(() => c.getState().lastHeartbeat !== null, 'the heartbeat answer');
    const state = c.getState();
    expect(state).toMatchObject({
      status: 'connected',
      quality: 'excellent',
      reconnectAttempts: 0,
      error: null,
    });
    const beat = server.received[0]!;
    expect(beat.type).toBe('heartbeat');
    expect(typeof beat.id).toBe('string');
    expect(new Date(beat.timestamp!).toISOString()).toBe(beat.timestamp);
  });

  it('keeps the latest system_health', async () => {
    const server = await startSocketServer();
    const c = client({ url: server.url });
    c.start();
    await until(() => server.sockets.length === 1, 'the connection');
    const health = systemHealth({ networkHealth: 0 });
    server.sockets[0]!.send(JSON.stringify({ type: 'system_health', payload: health }));
    server.sockets[0]!.send(
      JSON.stringify({ type: 'system_health', payload: { ...health, connectedClients: 2 } }),
    );
    await until(() => c.getState().systemHealth?.connectedClients === 2, 'the second update');
    expect(c.getState().systemHealth).toEqual({ ...health, connectedClients: 2 });
  });

  it('delivers every message in order, in batches at least 100 ms apart', async () => {
    const server = await startSocketServer();
    const c = client({ url: server.url });
    const seen: number[] = [];
    // One flush calls its listeners synchronously, so a microtask marks where a batch ends.
    const batchStarts: number[] = [];
    let inBatch = false;
    c.subscribe('server_hop', (m) => {
      seen.push((m as RealtimeMessage<ServerHopEvent>).payload.seq);
      if (inBatch) return;
      inBatch = true;
      batchStarts.push(performance.now());
      queueMicrotask(() => {
        inBatch = false;
      });
    });
    let anyCount = 0;
    c.subscribe('*', () => anyCount++);
    c.start();
    await until(() => server.sockets.length === 1, 'the connection');
    const ws = server.sockets[0]!;
    for (let n = 0; n < 30; n++) ws.send(JSON.stringify({ type: 'server_hop', payload: serverHop(n) }));
    await new Promise((r) => setTimeout(r, 30));
    for (let n = 30; n < 60; n++) ws.send(JSON.stringify({ type: 'server_hop', payload: serverHop(n) }));
    ws.send('not json');
    await until(() => seen.length === 60, 'all 60 messages');
    expect(seen).toEqual(Array.from({ length: 60 }, (_, n) => n));
    expect(batchStarts.length).toBeGreaterThanOrEqual(2);
    expect(batchStarts.length).toBeLessThan(60);
    // 100 ms apart, give or take the millisecond rounding between Date.now and the timer clock.
    for (let i = 1; i < batchStarts.length; i++) {
      expect(batchStarts[i]! - batchStarts[i - 1]!).toBeGreaterThanOrEqual(97);
    }
    expect(anyCount).toBeGreaterThanOrEqual(60);
  });

  it('drops a frame whose payload does not fit its kind, or of an unknown kind, with a console warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    cleanups.push(() => warn.mockRestore());
    const server = await startSocketServer();
    const c = client({ url: server.url });
    const hops: RealtimeMessage[] = [];
    const every: string[] = [];
    c.subscribe('server_hop', (m) => hops.push(m));
    c.subscribe('*', (m) => every.push(m.type));
    c.start();
    await until(() => server.sockets.length === 1, 'the connection');
    const ws = server.sockets[0]!;
    ws.send(JSON.stringify({ type: 'server_hop', payload: { ...serverHop(1), latencyMs: 'fast' } }));
    ws.send(JSON.stringify({ type: 'bot_gossip', payload: {} }));
    ws.send(JSON.stringify({ type: 'server_hop', payload: serverHop(2) }));
    await until(() => hops.length > 0, 'the good hop');
    expect(hops.map((m) => (m.payload as ServerHopEvent).seq)).toEqual([2]);
    expect(every).not.toContain('bot_gossip');
    const warnings = warn.mock.calls.map((call) => String(call[0]));
    expect(warnings).toContainEqual(expect.stringMatching(/dropped a server_hop frame: .*latencyMs/s));
    expect(warnings).toContainEqual(
      expect.stringMatching(/dropped a bot_gossip frame: unknown message type/),
    );
  });

  it('sends frames while connected and refuses when not', async () => {
    const server = await startSocketServer();
    const c = client({ url: server.url });
    expect(c.send('system_health')).toBe(false);
    c.start();
    await until(() => c.getState().status === 'connected', 'the connection');
    c.requestSystemHealth();
    await until(() => server.received.some((f) => f.type === 'system_health'), 'the request');
    expect(server.received.find((f) => f.type === 'system_health')?.payload).toEqual({});
  });

  it('closes with 1000 on stop and does not come back', async () => {
    const server = await startSocketServer();
    const c = client({ url: server.url });
    c.start();
    await until(() => c.getState().status === 'connected', 'the connection');
    c.stop();
    await until(() => server.closeCodes.length === 1, 'the close');
    expect(server.closeCodes).toEqual([1000]);
    expect(c.getState().status).toBe('disconnected');
    expect(server.sockets).toHaveLength(1);
  });
});

describe('RealtimeClient reconnection (fake timers, real sockets)', () => {
  it('retries 10 times at 2 s x 1.5^n capped at 30 s, then gives up with the spec error', async () => {
    const url = await startRefusingServer();
    fakeTimers();
    const { attempts, WebSocket: Counting } = countingWebSocket();
    const c = client({ url, WebSocket: Counting });
    c.start();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      await until(() => c.getState().reconnectAttempts === attempt, `failure ${attempt}`);
      expect(c.getState().status).toBe('disconnected');
      const failedAt = Date.now();
      const before = attempts.length;
      const delay = reconnectDelay(attempt - 1);
      vi.advanceTimersByTime(delay - 1);
      expect(attempts.length).toBe(before);
      vi.advanceTimersByTime(1);
      expect(attempts.length).toBe(before + 1);
      delays.push(attempts.at(-1)! - failedAt);
    }
    expect(delays).toEqual([2000, 3000, 4500, 6750, 10125, 15188, 22781, 30000, 30000, 30000]);
    await until(() => c.getState().status === 'error', 'giving up');
    expect(c.getState().error).toBe('reconnection failed after 10 attempts');
    expect(c.getState().quality).toBe('critical');
    vi.advanceTimersByTime(120_000);
    expect(attempts).toHaveLength(11); // the first connection and 10 retries

    // The reconnect button starts over.
    c.reconnect();
    expect(attempts).toHaveLength(12);
    expect(c.getState()).toMatchObject({ status: 'connecting', reconnectAttempts: 0, error: null });
  });

  it('does not reconnect after a normal close (1000) from the server', async () => {
    const server = await startSocketServer();
    fakeTimers();
    const { attempts, WebSocket: Counting } = countingWebSocket();
    const c = client({ url: server.url, WebSocket: Counting });
    c.start();
    await until(() => server.sockets.length === 1, 'the connection');
    server.sockets[0]!.close(1000, 'bye');
    await until(() => c.getState().status === 'disconnected', 'the close');
    vi.advanceTimersByTime(120_000);
    expect(attempts).toHaveLength(1);
    expect(c.getState().reconnectAttempts).toBe(0);
  });

  it('reconnects after the server restarts (1012, as on every graceful stop)', async () => {
    const server = await startSocketServer();
    fakeTimers();
    const c = client({ url: server.url });
    c.start();
    await until(() => c.getState().status === 'connected', 'the connection');
    server.sockets[0]!.close(1012, 'Server restarting');
    await until(() => c.getState().status === 'disconnected', 'the close');
    expect(c.getState().reconnectAttempts).toBe(1);
    vi.advanceTimersByTime(2000);
    await until(() => c.getState().status === 'connected', 'the reconnection');
    expect(server.sockets).toHaveLength(2);
  });

  it('reconnects after an abnormal drop, and then rates the connection good', async () => {
    const server = await startSocketServer();
    fakeTimers();
    const c = client({ url: server.url });
    c.start();
    await until(() => c.getState().status === 'connected', 'the connection');
    expect(c.getState().quality).toBe('excellent');
    server.sockets[0]!.terminate();
    await until(() => c.getState().status === 'disconnected', 'the drop');
    expect(c.getState()).toMatchObject({ reconnectAttempts: 1, quality: 'critical' });
    vi.advanceTimersByTime(2000);
    await until(() => c.getState().status === 'connected', 'the reconnection');
    expect(c.getState()).toMatchObject({ reconnectAttempts: 0, quality: 'good' });
    expect(server.sockets).toHaveLength(2);
  });

  it('resumes from the cursor on a reconnection (?since=SEQ), never on the first connection', async () => {
    const server = await startSocketServer();
    const urls: string[] = [];
    server.wss.on('connection', (_ws, request) => urls.push(request.url ?? ''));
    fakeTimers();
    const c = client({ url: server.url });
    let cursor: number | null = 41;
    c.setResumeCursor(() => cursor);
    c.start();
    await until(() => c.getState().status === 'connected', 'the connection');
    cursor = 42;
    server.sockets[0]!.terminate();
    await until(() => c.getState().status === 'disconnected', 'the drop');
    vi.advanceTimersByTime(2000);
    await until(() => urls.length === 2, 'the reconnection');
    expect(urls).toEqual(['/ws', '/ws?since=42']);
    c.setResumeCursor(null);
    c.reconnect();
    await until(() => urls.length === 3, 'the manual reconnection');
    expect(urls[2]).toBe('/ws');
  });

  it('gives up on a socket not open within 10 s as a connection timeout', async () => {
    const url = await startSilentServer();
    fakeTimers();
    const { attempts, WebSocket: Counting } = countingWebSocket();
    const c = client({ url, WebSocket: Counting });
    c.start();
    vi.advanceTimersByTime(9999);
    expect(c.getState().status).toBe('connecting');
    vi.advanceTimersByTime(1);
    expect(c.getState()).toMatchObject({
      status: 'disconnected',
      error: 'connection timeout',
      reconnectAttempts: 1,
    });
    vi.advanceTimersByTime(2000);
    expect(attempts).toHaveLength(2);
    expect(c.getState().status).toBe('connecting');
  });

  it('rates a silent connection poor, then critical, and replaces it', async () => {
    const server = await startSocketServer({ answerHeartbeats: false });
    fakeTimers();
    const c = client({ url: server.url });
    c.start();
    await until(() => c.getState().status === 'connected', 'the connection');
    vi.advanceTimersByTime(40_000);
    expect(c.getState().quality).toBe('excellent');
    vi.advanceTimersByTime(10_000); // 50 s without an answer: past 1.5x the 30 s interval
    expect(c.getState().quality).toBe('poor');
    expect(server.sockets).toHaveLength(1);
    vi.advanceTimersByTime(20_000); // 70 s: past 2x, so the check forces a reconnection
    await until(() => server.sockets.length === 2, 'the forced reconnection');
    await until(() => c.getState().status === 'connected', 'the new connection');
    expect(c.getState().quality).toBe('good');
  });

  it('sends a heartbeat every 30 s while connected', async () => {
    const server = await startSocketServer();
    fakeTimers();
    const c = client({ url: server.url });
    c.start();
    await until(() => server.received.length === 1, 'the first heartbeat');
    vi.advanceTimersByTime(90_000);
    await until(() => server.received.length === 4, 'three more heartbeats');
    expect(server.received.every((f) => f.type === 'heartbeat')).toBe(true);
  });
});
