import type { Feature } from '../../feature.ts';
import { keyStatusRoutes } from './key-status.routes.ts';

/** My key: a buyer's key status and device reset. */
export const keyStatusFeature = {
  name: 'key-status',
  routes: [keyStatusRoutes],
} satisfies Feature;
