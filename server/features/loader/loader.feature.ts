import type { Feature } from '../../feature.ts';
import { loaderRoutes } from './loader.routes.ts';
import { scriptAccessRoutes } from './script-access.routes.ts';

/** What executors call: redeem and challenge, and the loader. */
export const loaderFeature = {
  name: 'loader',
  routes: [scriptAccessRoutes, loaderRoutes],
} satisfies Feature;
