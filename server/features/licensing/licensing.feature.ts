import type { Feature } from '../../feature.ts';
import { licensingRoutes } from './licensing.routes.ts';

/** License keys. */
export const licensingFeature: Feature = {
  name: 'licensing',
  routes: [licensingRoutes],
};
