import type { Feature } from '../../feature.ts';
import { bindingsRoutes } from './bindings.routes.ts';

/** Hardware bindings of keys to devices. */
export const bindingsFeature = {
  name: 'bindings',
  routes: [bindingsRoutes],
} satisfies Feature;
