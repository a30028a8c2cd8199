import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Fan-out between server instances. Everything that must reach every connected dashboard or bot
 * (a hop, a discovery, a configuration push) is published here, and each instance delivers it to
 * its own sockets. In-process by default; Redis pub/sub when REDIS_URL is set.
 */
export interface Bus {
  /**
   * Delivers `message` to this instance's handlers at once, then to the other instances'. Never
   * rejects: with Redis away the others miss it, and their `onResync` handlers make up for it.
   */
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: (message: unknown) => void): () => void;
  /**
   * Runs `handler` when messages may have been missed (Redis came back after an outage, here or on
   * another instance): whatever a bus message keeps current must be read again. Returns unsubscribe.
   */
  onResync(handler: () => void): () => void;
  /** Where outages of the bus are reported (the app's logger, once it exists). */
  reportTo(log: BusLog): void;
  close(): Promise<void>;
  /**
   * Resolves when the bus can carry messages: Redis answers PING on both connections (publishing
   * and subscribed). The in-process bus always can. Used by the readiness probe (/readyz).
   */
  ping(): Promise<void>;
  /**
   * The Redis connection that publishes, for shared counters too (the fleet's stream positions):
   * one connection pair for the whole app. Undefined for the in-process bus.
   */
  readonly commands?: Redis;
}

export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    onResync: () => () => {},
    reportTo() {},
    async close() {
      emitter.removeAllListeners();
    },
    async ping() {},
  };
}

/** The bus's share of a pino logger. */
export interface BusLog {
  warn(details: object, message: string): void;
  info(message: string): void;
}
