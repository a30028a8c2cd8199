import type { Feature } from '../../feature.ts';
import { scriptKeysRoutes } from './script-keys.routes.ts';

/** Script keys. */
export const scriptKeysFeature = {
  name: 'script-keys',
  routes: [scriptKeysRoutes],
} satisfies Feature;
