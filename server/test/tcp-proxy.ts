import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real service (PostgreSQL, Redis): the world's edge where a test makes
 * the service hang (`pause`: connections stay open, nothing passes) or go away (`stop`: every
 * connection is cut and new ones are refused), then come back.
 */
export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1); stays the same across stop/start. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** Nothing passes either way and new connections wait; as a hung server or a dead network. */
  pause(): void;
  resume(): void;
  /** Cuts every connection and refuses new ones, as a stopped server. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let paused = false;
  let port = 0;

  const link = ({ client, upstream }: Pair) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const unlink = ({ client, upstream }: Pair) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  const onConnection = (client: Socket) => {
    const upstream = createConnection(target);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (paused) unlink(pair);
    else link(pair);
  };

  let server: Server | undefined;
  const listen = async () => {
    const next = createServer(onConnection);
    server = next;
    next.listen(port, '127.0.0.1');
    await once(next, 'listening');
    port = (next.address() as { port: number }).port;
  };
  const stopListening = async () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    const listening = server;
    if (listening?.listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
  };
  await listen();

  return {
    get port() {
      return port;
    },
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    pause() {
      if (paused) return;
      paused = true;
      for (const pair of pairs) unlink(pair);
    },
    resume() {
      // Linking twice would pipe every byte twice.
      if (!paused) return;
      paused = false;
      for (const pair of pairs) {
        link(pair);
        pair.client.resume();
        pair.upstream.resume();
      }
    },
    stop: stopListening,
    start: listen,
    close: stopListening,
  };
}

/** Host and port of a `postgres://` or `redis://` URL (with the protocol's default port). */
export function endpointOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : defaultPort };
}
