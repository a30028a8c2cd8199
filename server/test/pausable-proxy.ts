import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a real service (Redis) that a test can pause: paused, it stops
 * passing bytes either way, so the service looks hung (connected, never answering), as a Redis
 * stuck in a long command or behind a dead link does. Resumed, the held bytes flow again.
 */
export interface PausableProxy {
  /** `redis://127.0.0.1:port`-style URL of the proxy, with the target's scheme. */
  url: string;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startPausableProxy(targetUrl: string): Promise<PausableProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  /** Bytes held while paused, with the socket they are for, in arrival order. */
  let held: [Socket, Buffer][] = [];
  let paused = false;
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (paused) held.push([to, chunk]);
      else to.write(chunk);
    });
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 6379) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const [to, chunk] of held) if (!to.destroyed) to.write(chunk);
      held = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
