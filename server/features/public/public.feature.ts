import type { Feature } from '../../feature.ts';
import { publicRoutes } from './public.routes.ts';

/** The public pages' reads: slots, wallets, the scripts page. */
export const publicFeature = {
  name: 'public',
  routes: [publicRoutes],
} satisfies Feature;
