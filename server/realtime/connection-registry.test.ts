import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { type ClientKind, RealtimeConnection } from './connection.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { encodeFrame } from './frames.ts';

const log = pino({ level: 'silent' }) as FastifyBaseLogger;

/** Just enough of a ws socket to watch what the registry does to it. */
function fakeSocket() {
  return {
    OPEN: 1,
    CONNECTING: 0,
    readyState: 1,
    bufferedAmount: 0,
    sent: [] as string[],
    send(text: string) {
      this.sent.push(text);
    },
    ping: vi.fn(),
    close: vi.fn(function (this: { readyState: number }) {
      this.readyState = 2;
    }),
    terminate: vi.fn(function (this: { readyState: number }) {
      this.readyState = 3;
    }),
  };
}

function connection(kind: ClientKind = 'admin', stillValid = async () => true) {
  const socket = fakeSocket();
  const c = new RealtimeConnection(
    socket as unknown as WebSocket,
    { kind, stillValid },
    {
      now: () => 0,
      replaceable: new Set(['system_health']),
      coalesceWindowMs: 100,
      maxMessagesPerSecond: 50,
      maxBufferedBytes: 1024,
      log,
    },
  );
  return { c, socket };
}

describe('ConnectionRegistry', () => {
  it('counts sockets per kind and broadcasts to one kind only', () => {
    const registry = new ConnectionRegistry();
    const a = connection('admin');
    const b = connection('admin');
    const bot = connection('bot');
    for (const x of [a, b, bot]) registry.add(x.c);
    expect(registry.count('admin')).toBe(2);
    expect(registry.count('bot')).toBe(1);
    registry.broadcast('admin', encodeFrame('server_hop', { n: 1 }, 0), b.c);
    expect(a.socket.sent).toHaveLength(1);
    expect(b.socket.sent).toHaveLength(0);
    expect(bot.socket.sent).toHaveLength(0);
    expect(JSON.parse(a.socket.sent[0]!)).toMatchObject({ type: 'server_hop', payload: { n: 1 } });
  });

  it('pings live sockets and terminates one that missed the previous ping', async () => {
    const registry = new ConnectionRegistry();
    const live = connection();
    const dead = connection();
    registry.add(live.c);
    registry.add(dead.c);
    await registry.sweep(log);
    expect(live.socket.ping).toHaveBeenCalledTimes(1);
    live.c.isAlive = true; // its pong arrived; the dead one's never does
    await registry.sweep(log);
    expect(dead.socket.terminate).toHaveBeenCalled();
    expect(live.socket.terminate).not.toHaveBeenCalled();
    expect(registry.count('admin')).toBe(1);
  });

  it('closes a socket whose session has ended with 4401', async () => {
    const registry = new ConnectionRegistry();
    const ended = connection('admin', async () => false);
    registry.add(ended.c);
    await registry.sweep(log);
    expect(ended.socket.close).toHaveBeenCalledWith(4401, 'Session expired');
  });

  it('drops a socket that lets too much output pile up unread', () => {
    const slow = connection();
    slow.socket.bufferedAmount = 4096;
    slow.c.send('server_hop', {});
    expect(slow.socket.sent).toHaveLength(0);
    expect(slow.socket.terminate).toHaveBeenCalled();
  });
});
