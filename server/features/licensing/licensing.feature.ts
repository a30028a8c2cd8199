import type { Feature } from '../../feature.ts';
import { licensingRoutes } from './licensing.routes.ts';

/** License keys. */
export const licensingFeature = {
  name: 'licensing',
  routes: [licensingRoutes],
} satisfies Feature;
