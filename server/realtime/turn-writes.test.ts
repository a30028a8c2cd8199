import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { encodeFrame } from './frames.ts';
import { sendInTurn } from './turn-writes.ts';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((done) => server.close(done));
  }
});

/** A real ws server and `count` clients; resolves with the server's side of each, in order. */
async function connected(count: number) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(server);
  await new Promise((done) => server.once('listening', done));
  const { port } = server.address() as AddressInfo;
  const sides: WebSocket[] = [];
  const clients: Array<{ socket: WebSocket; received: Array<{ text: string; isBinary: boolean }> }> = [];
  for (let i = 0; i < count; i++) {
    const accepted = new Promise<WebSocket>((done) => server.once('connection', done));
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    const received: Array<{ text: string; isBinary: boolean }> = [];
    socket.on('message', (data, isBinary) => received.push({ text: String(data), isBinary }));
    await new Promise((done) => socket.once('open', done));
    sides.push(await accepted);
    clients.push({ socket, received });
  }
  return { sides, clients };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

describe('sendInTurn', () => {
  it('delivers frames written in one turn to each socket as separate text messages, in order', async () => {
    const { sides, clients } = await connected(2);
    const frames = ['server_hop', 'live_data', 'server_hop'].map((type, i) =>
      encodeFrame(type, { n: i, name: 'Tralalero Tralala ✓' }, 0),
    );
    for (const frame of frames) for (const side of sides) sendInTurn(side, frame.bytes);

    for (const client of clients) {
      await until(() => client.received.length === 3);
      expect(client.received.map((m) => m.isBinary)).toEqual([false, false, false]);
      expect(client.received.map((m) => JSON.parse(m.text).payload)).toEqual([
        { n: 0, name: 'Tralalero Tralala ✓' },
        { n: 1, name: 'Tralalero Tralala ✓' },
        { n: 2, name: 'Tralalero Tralala ✓' },
      ]);
    }
  });

  it('sends what was written before a close ahead of the close', async () => {
    const { sides, clients } = await connected(1);
    const [side] = sides;
    const [client] = clients;
    sendInTurn(side!, encodeFrame('error', { error: 'The fleet is full' }, 0).bytes);
    side!.close(4409, 'The fleet is full');
    const code = await new Promise<number>((done) => client!.socket.once('close', done));
    expect(code).toBe(4409);
    expect(client!.received.map((m) => JSON.parse(m.text).payload)).toEqual([{ error: 'The fleet is full' }]);
  });
});
