import type { Feature } from '../../feature.ts';
import { redemptionRoutes } from './redemption.routes.ts';

/** Redemption codes. */
export const redemptionFeature = {
  name: 'redemption',
  routes: [redemptionRoutes],
} satisfies Feature;
