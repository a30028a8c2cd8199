import { setImmediate } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { KEY_SHARING_USES_SHOWN, type KeySharingResponse } from '../../../common/script-keys.ts';
import type { AppContext } from '../../context.ts';
import { schedulePeriodicSweep } from '../../plugins/periodic-sweep.ts';
import { keySharingLimits } from './key-sharing.service.ts';
import { deleteKeyAddressesBefore, listKeysOverThresholds, listKeyUses } from './key-sharing.store.ts';

/** Flagged keys listed at most (most addresses first): each one costs a query for its uses. */
const MAX_KEYS_LISTED = 100;

/**
 * GET /api/admin/script-keys/sharing: the keys used from more addresses or networks than the
 * thresholds allow within the window, with their latest uses. Sightings still queued are written
 * first, so a use a moment ago is counted.
 */
export async function listSharedScriptKeys(ctx: AppContext): Promise<KeySharingResponse> {
  await ctx.services.keySharing.flush();
  const now = ctx.now();
  const limits = keySharingLimits(ctx, now);
  const rows = await listKeysOverThresholds(
    ctx.db,
    limits.since,
    limits.addressThreshold,
    limits.networkThreshold,
  );
  const keys = await Promise.all(
    rows.slice(0, MAX_KEYS_LISTED).map(async (row) => ({
      id: row.id,
      scriptKey: row.scriptKey,
      scriptType: row.scriptType,
      isActive: row.isActive === 1 ? (1 as const) : (0 as const),
      disabledReason: row.disabledReason,
      addresses: row.addresses,
      networks: row.networks,
      lastSeen: new Date(row.lastSeen).toISOString(),
      uses: await listKeyUses(ctx.db, row.id, limits.since, KEY_SHARING_USES_SHOWN),
    })),
  );
  return {
    keys,
    windowHours: limits.windowHours,
    addressThreshold: limits.addressThreshold,
    networkThreshold: limits.networkThreshold,
    autoDisable: ctx.config.KEY_SHARING_AUTO_DISABLE,
    timestamp: new Date(now).toISOString(),
  };
}

/** How often sightings past the window are deleted (and once at start). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const DELETE_BATCH = 1000;

/** Deletes sightings older than the window, batch by batch; returns how many. */
export async function pruneKeyAddresses(
  ctx: AppContext,
  stopped: () => boolean = () => false,
): Promise<number> {
  const { since } = keySharingLimits(ctx, ctx.now());
  let deleted = 0;
  for (;;) {
    const batch = await deleteKeyAddressesBefore(ctx.db, since, DELETE_BATCH);
    deleted += batch;
    if (batch < DELETE_BATCH || stopped()) return deleted;
    await setImmediate();
  }
}

/** Prunes the sightings when the app is ready and every ten minutes after, until it closes. */
export function scheduleKeySharingSweep(app: FastifyInstance, ctx: AppContext): void {
  schedulePeriodicSweep(app, {
    name: 'key-sharing sightings past the window',
    everyMs: SWEEP_EVERY_MS,
    run: (stopped) => pruneKeyAddresses(ctx, stopped),
  });
}
