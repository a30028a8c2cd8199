/*
 * The realtime benchmark's baseline: a bare `ws` server doing the same fan-out as the real one and
 * nothing else. Bots and dashboards connect to /ws (a `?role=dashboard` query says which; no
 * authentication); every server_hop and pet_discovered a bot sends is parsed, wrapped in a frame
 * like the real server's (server_hop, live_data) and sent to every dashboard; a heartbeat is
 * answered. No validation, no state, no persistence: the upper bound for the real server.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { answerUsageQueries } from './realtime-usage.ts';

const dashboards = new Set<WebSocket>();
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });

function frame(type: string, payload: unknown): string {
  return JSON.stringify({ type, payload, id: randomUUID(), timestamp: new Date().toISOString() });
}

server.on('connection', (socket, request) => {
  if (request.url?.includes('role=dashboard')) {
    dashboards.add(socket);
    socket.on('close', () => dashboards.delete(socket));
    return;
  }
  socket.on('message', (data) => {
    let message: { type?: string; payload?: Record<string, unknown> };
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    let text: string | null = null;
    if (message.type === 'server_hop') text = frame('server_hop', { ...message.payload, id: randomUUID() });
    else if (message.type === 'pet_discovered')
      text = frame('live_data', { eventType: 'pet_discovered', petData: message.payload });
    else if (message.type === 'heartbeat') socket.send(frame('heartbeat', { serverTime: Date.now() }));
    if (text === null) return;
    for (const dashboard of dashboards) if (dashboard.readyState === WebSocket.OPEN) dashboard.send(text);
  });
});

server.on('listening', () => {
  answerUsageQueries();
  process.send?.({ port: (server.address() as AddressInfo).port });
});

function shutdown(): void {
  for (const client of server.clients) client.terminate();
  server.close(() => process.exit(0));
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
process.once('disconnect', shutdown);
