import type { RemoveBotResponse } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { FLEET_TEXTS } from './fleet.service.ts';
import { deleteScanner, scannerRowExists } from './fleet.store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Why a bot leaves: the administrator removed it, or it was silent past FLEET_FORGET_AFTER_DAYS. */
export type RemovalCause = { by: 'admin'; ip: string } | { by: 'silence'; days: number };

/**
 * Removes a bot from the fleet with its configuration and pool leases; its hops and discoveries
 * stay. Every instance forgets it and closes its socket (an `error` frame, then 4403) before its rows
 * go, so nothing still queued for writing brings it back. Audited as `bot_removed`. 404 for a bot
 * the fleet does not hold.
 */
export async function removeBot(
  ctx: AppContext,
  ghostId: string,
  cause: RemovalCause,
): Promise<RemoveBotResponse> {
  const { fleet } = ctx.services;
  if (!fleet.holds(ghostId) && !(await scannerRowExists(ctx.db, ghostId))) {
    throw notFound(FLEET_TEXTS.unknownBot(ghostId));
  }
  const held = await fleet.forget(ghostId);
  const { releaseBotServers, deleteBotConfiguration } = ctx.services;
  const now = ctx.now();
  const releasedServers = await ctx.db.transaction().execute(async (trx) => {
    const deleted = await deleteScanner(trx, ghostId);
    // Removed meanwhile by another call (or another instance's sweep): nothing is left to remove.
    if (!held && !deleted) throw notFound(FLEET_TEXTS.unknownBot(ghostId));
    const released = await releaseBotServers(trx, ghostId, now);
    await deleteBotConfiguration(trx, ghostId);
    await insertAuditLog(
      trx,
      {
        eventType: 'bot_removed',
        success: true,
        ipAddress: cause.by === 'admin' ? cause.ip : null,
        details: {
          ghostId,
          releasedServers: released,
          reason: cause.by === 'admin' ? 'removed by the administrator' : `silent for ${cause.days} days`,
        },
      },
      now,
    );
    return released;
  });
  return { success: true, ghostId, releasedServers };
}

/**
 * The fleet's sweep: forgets every bot silent for FLEET_FORGET_AFTER_DAYS, through removeBot. Every
 * instance sweeps; a bot another instance forgot first is skipped. Returns how many it forgot.
 */
export async function forgetSilentBots(
  ctx: AppContext,
  stopped: () => boolean = () => false,
): Promise<number> {
  const { fleet } = ctx.services;
  const days = ctx.config.FLEET_FORGET_AFTER_DAYS;
  const silentSince = () => ctx.now() - days * DAY_MS;
  const silent = [...fleet.state.scanners.values()]
    .filter((s) => s.lastActivity < silentSince())
    .map((s) => s.ghostId);
  let forgotten = 0;
  for (const ghostId of silent) {
    if (stopped()) break;
    // It may have spoken since the list was made.
    const lastActivity = fleet.lastActivityOf(ghostId);
    if (lastActivity === null || lastActivity >= silentSince()) continue;
    try {
      await removeBot(ctx, ghostId, { by: 'silence', days });
      forgotten++;
    } catch (error) {
      if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
    }
  }
  return forgotten;
}

/*
 * What the features above the fleet keep of a bot, deleted in the removal's transaction. The fleet
 * cannot import them (features import downwards), so their entries add these steps to the services.
 */
declare module '../../context.ts' {
  interface AppServices {
    /** Puts the servers a removed bot holds back as available; returns how many (the server pool's). */
    releaseBotServers: (trx: Db, ghostId: string, now: number) => Promise<number>;
    /** Deletes a removed bot's configuration (the configuration feature's). */
    deleteBotConfiguration: (trx: Db, ghostId: string) => Promise<void>;
  }
}
