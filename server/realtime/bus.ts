import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/**
 * Fan-out between server instances. Everything that must reach every connected dashboard or bot
 * (a hop, a discovery, a configuration push) is published here, and each instance delivers it to
 * its own sockets. In-process by default; Redis pub/sub when REDIS_URL is set.
 */
export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: (message: unknown) => void): () => void;
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
    async close() {
      emitter.removeAllListeners();
    },
    async ping() {},
  };
}

/**
 * The bus through Redis pub/sub. Every channel carries `prefix` (REDIS_KEY_PREFIX), as every key does,
 * so two deployments on one Redis hear nothing of each other.
 */
export function createRedisBus(url: string, prefix: string): Bus {
  const publisher = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const local = new EventEmitter();
  local.setMaxListeners(0);
  subscriber.on('message', (channel: string, raw: string) => {
    if (!channel.startsWith(prefix)) return;
    try {
      local.emit(channel.slice(prefix.length), JSON.parse(raw));
    } catch {
      // A frame that is not JSON came from something other than Scanline: ignore it.
    }
  });
  return {
    commands: publisher,
    async publish(channel, message) {
      await publisher.publish(prefix + channel, JSON.stringify(message));
    },
    subscribe(channel, handler) {
      if (local.listenerCount(channel) === 0) void subscriber.subscribe(prefix + channel);
      local.on(channel, handler);
      return () => {
        local.off(channel, handler);
        if (local.listenerCount(channel) === 0) void subscriber.unsubscribe(prefix + channel);
      };
    },
    async ping() {
      await Promise.all([publisher.ping(), subscriber.ping()]);
    },
    async close() {
      local.removeAllListeners();
      await Promise.all([publisher.quit(), subscriber.quit()]);
    },
  };
}

/** The deployment's bus: through Redis, under its REDIS_KEY_PREFIX, when REDIS_URL is set. */
export function createBus(config: { REDIS_URL?: string | undefined; REDIS_KEY_PREFIX: string }): Bus {
  return config.REDIS_URL ? createRedisBus(config.REDIS_URL, config.REDIS_KEY_PREFIX) : createLocalBus();
}
