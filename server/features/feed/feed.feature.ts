import type { Feature } from '../../feature.ts';
import { feedRoutes } from './feed.routes.ts';

/**
 * The discovery feed: GET /api/script/feed, and the socket /ws/feed, whose protocol its routes
 * register (they share one feed and one set of sockets).
 */
export const feedFeature = {
  name: 'feed',
  routes: [feedRoutes],
} satisfies Feature;
