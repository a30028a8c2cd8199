import { type Bus, createLocalBus } from './bus.ts';
import { createRedisBus } from './redis-bus.ts';

/** The deployment's bus: through Redis, under its REDIS_KEY_PREFIX, when REDIS_URL is set. */
export function createBus(config: { REDIS_URL?: string | undefined; REDIS_KEY_PREFIX: string }): Bus {
  return config.REDIS_URL ? createRedisBus(config.REDIS_URL, config.REDIS_KEY_PREFIX) : createLocalBus();
}
