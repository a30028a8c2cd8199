import type { RateLimitCount, RateLimitStore } from './rate-limit-store.ts';

/*
 * @fastify/rate-limit's per-route limits (the socket upgrade, error reports: `config.rateLimit`)
 * counted in a RateLimitStore, so they are shared through Redis and fall back to memory exactly as
 * the licensing limits do. The plugin builds the class with `new Store(options)` and asks each route
 * for its `child`.
 */

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The `store` option of @fastify/rate-limit, counting in `store` (each route under its own prefix). */
export function routeRateLimitStore(store: RateLimitStore, now: () => number) {
  return class RouteRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, answer: Answer, timeWindow: number, max: number): void {
      const reply = ({ count, resetAt }: RateLimitCount) =>
        answer(null, { current: count, ttl: Math.max(0, resetAt - now()) });
      const counted = store.hit(this.prefix + key, max, timeWindow);
      if (counted instanceof Promise) counted.then(reply, (error: Error) => answer(error));
      else reply(counted);
    }

    /** The plugin passes the route's merged limit options, the route itself under `routeInfo`. */
    child(routeOptions: object): RouteRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo;
      return new RouteRateLimitStore(undefined, `${this.prefix}${String(route?.method)}${route?.url}:`);
    }
  };
}
