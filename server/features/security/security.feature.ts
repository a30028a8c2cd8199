import type { Feature } from '../../feature.ts';
import { rateLimitsRoutes } from './rate-limits.routes.ts';
import { securityRoutes } from './security.routes.ts';

/*
 * The audit log and the rate limits. What every request passes through is set up by buildApp itself,
 * before any feature, so the entry hands it over by name: the limits' hooks and store, the queue of
 * audit rows, and the address a client is counted by.
 */
export { limitedClientOf } from './client-address.ts';
export { PendingWrites } from './pending-writes.ts';
export { registerRateLimits } from './rate-limit-hooks.ts';

/** The audit log and the rate-limit status screens. */
export const securityFeature = {
  name: 'security',
  routes: [securityRoutes, rateLimitsRoutes],
} satisfies Feature;
