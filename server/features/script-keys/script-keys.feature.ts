import type { Feature } from '../../feature.ts';
import { keySharingRoutes } from './key-sharing.routes.ts';
import { KeySharing } from './key-sharing.service.ts';
import { scheduleKeySharingSweep } from './key-sharing-list.ts';
import { createScriptKeyOfLicense } from './license-resolution.ts';
import { scriptKeysRoutes } from './script-keys.routes.ts';

/** Script keys, and where each is used from (key-sharing signals). */
export const scriptKeysFeature = {
  name: 'script-keys',
  services: (ctx, app) => ({
    keySharing: new KeySharing(ctx, app.writer),
    licenseScriptKeys: { create: createScriptKeyOfLicense },
  }),
  jobs: scheduleKeySharingSweep,
  routes: [scriptKeysRoutes, keySharingRoutes],
} satisfies Feature;
