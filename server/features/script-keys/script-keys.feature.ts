import type { Feature } from '../../feature.ts';
import { scriptKeysRoutes } from './script-keys.routes.ts';

/** Script keys. */
export const scriptKeysFeature: Feature = {
  name: 'script-keys',
  routes: [scriptKeysRoutes],
};
