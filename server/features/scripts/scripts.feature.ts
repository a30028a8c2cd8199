import type { Feature } from '../../feature.ts';
import { scriptsRoutes } from './scripts.routes.ts';

/** The script store: scripts, versions, files, the scripts page. */
export const scriptsFeature = {
  name: 'scripts',
  routes: [scriptsRoutes],
} satisfies Feature;
