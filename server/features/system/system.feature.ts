import type { Feature } from '../../feature.ts';
import { systemRoutes } from './system.routes.ts';

/** Slots and payment wallets. */
export const systemFeature = {
  name: 'system',
  routes: [systemRoutes],
} satisfies Feature;
