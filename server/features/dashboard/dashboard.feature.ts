import type { Feature } from '../../feature.ts';
import { dashboardRoutes } from './dashboard.routes.ts';

/** The admin dashboard's figures. */
export const dashboardFeature = {
  name: 'dashboard',
  routes: [dashboardRoutes],
} satisfies Feature;
