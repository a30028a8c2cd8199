import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis, type RedisOptions } from 'ioredis';
import type { Bus, BusLog } from './bus.ts';

/** A Redis command that has not answered by then has failed: nothing waits on Redis longer. */
export const BUS_COMMAND_TIMEOUT_MS = 1000;
/** Reconnection attempts come this often at most, so the bus is back within about a second of Redis. */
const RECONNECT_EVERY_MS = 1000;
/** Told to every instance when one comes back: what it published meanwhile was lost. */
const RESYNC_CHANNEL = 'bus:resync';
const RESYNC = 'resync';

const connectionOptions: RedisOptions = {
  lazyConnect: false,
  connectTimeout: 2000,
  retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_EVERY_MS),
};

/** What travels through Redis: the message and the instance that published it (which has it already). */
interface Envelope {
  o: string;
  m: unknown;
}

const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && typeof (value as Envelope).o === 'string' && 'm' in value;

/**
 * The bus through Redis pub/sub. Every channel carries `prefix` (REDIS_KEY_PREFIX), as every key does,
 * so two deployments on one Redis hear nothing of each other.
 *
 * Redis may vanish at any time, and nothing waits for it: a message is delivered on this instance at
 * once (the change applies here even while Redis is away), then offered to Redis, which either takes
 * it within BUS_COMMAND_TIMEOUT_MS or loses it. Lost messages are made good by a resync: whenever a
 * connection comes back, every instance (this one through its subscriber, the others through
 * RESYNC_CHANNEL) runs its `onResync` handlers, which drop the caches a missed message could have
 * left stale. A change made during an outage so reaches every instance within about a second of
 * Redis answering again.
 */
export function createRedisBus(url: string, prefix: string): Bus {
  const instance = randomUUID();
  // Commands fail at once while disconnected and within a second when Redis hangs: no offline queue.
  const publisher = new Redis(url, {
    ...connectionOptions,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: BUS_COMMAND_TIMEOUT_MS,
  });
  // The subscriber queues its (un)subscribe commands until connected (however long Redis is away),
  // and resubscribes on reconnect.
  const subscriber = new Redis(url, { ...connectionOptions, maxRetriesPerRequest: null });
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let log: BusLog | undefined;
  let outage = false;

  const reportOutage = (err: Error) => {
    if (outage) return;
    outage = true;
    log?.warn({ err }, 'Redis is unreachable: the bus reaches this instance only until it is back');
  };
  publisher.on('error', reportOutage);
  subscriber.on('error', reportOutage);

  subscriber.on('message', (channel: string, raw: string) => {
    if (!channel.startsWith(prefix)) return;
    let envelope: unknown;
    try {
      envelope = JSON.parse(raw);
    } catch {
      return; // Not from Scanline.
    }
    if (!isEnvelope(envelope) || envelope.o === instance) return;
    const name = channel.slice(prefix.length);
    if (name === RESYNC_CHANNEL) local.emit(RESYNC);
    else local.emit(name, envelope.m);
  });

  const offer = async (channel: string, message: unknown) => {
    try {
      await publisher.publish(
        prefix + channel,
        JSON.stringify({ o: instance, m: message } satisfies Envelope),
      );
    } catch (err) {
      reportOutage(err as Error);
    }
  };

  // Back after a disconnect: the subscriber may have missed what others published, and what this
  // instance published meanwhile never left it. The subscriber's 'ready' comes before ioredis sends
  // the resubscriptions, so a PING (answered after them) says when the channels are heard again.
  onReconnect(subscriber, async () => {
    await subscriber.ping();
    if (outage) log?.info('Redis is back: the bus reaches every instance again');
    outage = false;
    local.emit(RESYNC);
  });
  onReconnect(publisher, () => offer(RESYNC_CHANNEL, {}));

  return {
    commands: publisher,
    async publish(channel, message) {
      local.emit(channel, message);
      await offer(channel, message);
    },
    subscribe(channel, handler) {
      if (local.listenerCount(channel) === 0) void subscriber.subscribe(prefix + channel).catch(() => {});
      local.on(channel, handler);
      return () => {
        local.off(channel, handler);
        if (local.listenerCount(channel) === 0) void subscriber.unsubscribe(prefix + channel).catch(() => {});
      };
    },
    onResync(handler) {
      local.on(RESYNC, handler);
      return () => local.off(RESYNC, handler);
    },
    reportTo(next) {
      log = next;
    },
    async ping() {
      for (const [name, redis] of [
        ['publishing', publisher],
        ['subscribed', subscriber],
      ] as const) {
        if (redis.status !== 'ready') throw new Error(`the ${name} Redis connection is ${redis.status}`);
      }
      await Promise.all([publisher.ping(), subscriber.ping()]);
    },
    async close() {
      local.removeAllListeners();
      await Promise.all([publisher.quit(), subscriber.quit()].map((quit) => quit.catch(() => {})));
    },
  };
}

/** Runs `handler` each time `redis` is ready again after having lost its connection (not the first time). */
function onReconnect(redis: Redis, handler: () => Promise<unknown>): void {
  let lost = false;
  redis.on('close', () => {
    lost = true;
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    handler().catch(() => {});
  });
}
