import type { Feature } from '../../feature.ts';
import { EmptyPoolSweeps } from './empty-pool-sweeps.ts';
import { serverPoolRoutes } from './server-pool.routes.ts';
import { releaseServersOf } from './server-pool.store.ts';

/** Game servers handed out to bots; a bot removed from the fleet gives its servers back. */
export const serverPoolFeature = {
  name: 'server-pool',
  services: () => ({ releaseBotServers: releaseServersOf, emptyPoolSweeps: new EmptyPoolSweeps() }),
  routes: [serverPoolRoutes],
} satisfies Feature;
