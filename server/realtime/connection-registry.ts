import type { FastifyBaseLogger } from 'fastify';
import { CLOSE_CODES, type ClientKind, type RealtimeConnection } from './connection.ts';
import type { EncodedFrame } from './frames.ts';

/**
 * The sockets open on this server instance. With the Redis bus every instance has its own registry
 * and the bus carries messages between them, so counts here are per instance.
 */
export class ConnectionRegistry {
  private readonly connections = new Set<RealtimeConnection>();

  add(connection: RealtimeConnection): void {
    this.connections.add(connection);
  }

  remove(connection: RealtimeConnection): void {
    this.connections.delete(connection);
  }

  count(kind?: ClientKind): number {
    if (!kind) return this.connections.size;
    let n = 0;
    for (const c of this.connections) if (c.kind === kind) n++;
    return n;
  }

  /** Open sockets per kind, in one pass (the metrics' scrape). */
  countByKind(): Map<ClientKind, number> {
    const counts = new Map<ClientKind, number>();
    for (const c of this.connections) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
    return counts;
  }

  *ofKind(kind: ClientKind): Iterable<RealtimeConnection> {
    for (const c of this.connections) if (c.kind === kind) yield c;
  }

  /** Delivers one encoded frame to every socket of a kind (coalescing replaceable types per socket). */
  broadcast(kind: ClientKind, frame: EncodedFrame, except?: RealtimeConnection): void {
    for (const c of this.ofKind(kind)) if (c !== except) c.deliver(frame);
  }

  /**
   * One liveness round: a socket that did not answer the previous ping is terminated (its peer is
   * gone without a close), the rest are pinged; and a socket whose session has ended is closed.
   */
  async sweep(log: FastifyBaseLogger): Promise<void> {
    for (const c of this.connections) {
      if (!c.isAlive) {
        c.terminate();
        this.connections.delete(c);
        continue;
      }
      c.isAlive = false;
      if (c.isOpen) c.socket.ping();
    }
    await this.recheck(log);
  }

  /** Checks every socket's session or credential again now; those that ended are closed. */
  async recheck(log: FastifyBaseLogger): Promise<void> {
    const checks: Promise<void>[] = [];
    for (const c of this.connections) {
      checks.push(
        c.identity.stillValid().then(
          (valid) => {
            if (!valid) c.close(CLOSE_CODES.sessionEnded, 'Session expired');
          },
          (err: unknown) => log.warn({ err }, 'could not re-check a socket session'),
        ),
      );
    }
    await Promise.all(checks);
  }

  /** Starts the periodic sweep; returns the function that stops it. */
  startSweeping(intervalMs: number, log: FastifyBaseLogger): () => void {
    const timer = setInterval(() => void this.sweep(log), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Closes the sockets opened with one admin session (it logged out); returns how many. */
  closeSession(sessionId: string, code: number, reason: string): number {
    let closed = 0;
    for (const c of this.connections) {
      if (c.identity.sessionId !== sessionId) continue;
      c.close(code, reason);
      this.connections.delete(c);
      closed++;
    }
    return closed;
  }

  closeAll(code: number, reason: string): void {
    for (const c of this.connections) c.close(code, reason);
    this.connections.clear();
  }
}
