import type {
  AddPoolServersResponse,
  ClaimServerResponse,
  NewPoolServer,
  ReleaseOutcome,
  ReleaseServerResponse,
  ServerPoolStatsResponse,
} from '../../../common/server-pool.ts';
import { SERVER_POOL_TEXTS } from '../../../common/server-pool.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  botsFailedOnServerSince,
  countServersFailedByBotAfter,
  findPoolBot,
  insertPoolFailure,
  listFlaggedBots,
  lockPoolBot,
  recordBotFailureStreak,
  recordBotSuccess,
  touchPoolBot,
} from './pool-bots.store.ts';
import {
  claimAvailableServer,
  countPoolServers,
  countServersHeldBy,
  findLeasesIdleSince,
  findPoolServerByJobId,
  insertPoolServers,
  listQuarantinedServers,
  markServerQuarantined,
  type PoolServerRow,
  poolServerRowToPoolServer,
  prunePoolHistory,
  releaseAssignedServer,
  returnExpiredLeases,
} from './server-pool.store.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A server on which this many different bots fail within QUARANTINE_WINDOW_MS is quarantined. */
export const QUARANTINE_BOTS = 3;
export const QUARANTINE_WINDOW_MS = 10 * MINUTE_MS;
/** A bot that fails on this many different servers in a row (no good release between) is flagged. */
export const FLAG_BOT_AFTER_FAILED_SERVERS = 10;
/** Failures, and servers deleted for good, are kept this long (quarantined ones stay listed). */
export const POOL_HISTORY_MS = 7 * DAY_MS;
/** The stats list at most this many quarantined servers and flagged bots. */
const STATS_LIST_LIMIT = 100;
/** Leases one sweep looks at; more wait for the next one. */
const SWEEP_BATCH = 1000;

/**
 * What the pool needs from the fleet core: when a bot was last heard from (its socket or batched
 * messages), so a bot that heartbeats keeps its lease without pool calls, and a way to show a bot
 * the pool gave up on as `error`. The routes pass the fleet's; without one (benches, a bare service
 * call) only pool calls count as a bot's activity.
 */
export interface PoolFleetLink {
  lastActivity(ghostId: string): number | undefined | Promise<number | undefined>;
  /** Whether the fleet holds the bot (it said hello); claims from others are refused. Absent: any bot. */
  holds?(ghostId: string): boolean;
  markBotError?(ghostId: string, reason: string): void | Promise<void>;
}

export const NO_FLEET_LINK: PoolFleetLink = { lastActivity: () => undefined };

export interface PoolCaller {
  ip: string;
}

/** Adds game servers; a job id twice in one call counts once. */
export async function addPoolServers(
  ctx: AppContext,
  servers: NewPoolServer[],
): Promise<AddPoolServersResponse> {
  const unique = [...new Map(servers.map((s) => [s.jobId, s])).values()];
  const added = await insertPoolServers(ctx.db, unique, ctx.now());
  return { added, ignored: servers.length - added };
}

/** Why a claim is refused besides an empty pool (409). */
export const POOL_CLAIM_TEXTS = {
  notInFleet: (ghostId: string) => `Bot ${ghostId} is not in the fleet: say hello first`,
  holdsTooMany: (ghostId: string, max: number) =>
    `Bot ${ghostId} already holds ${max} ${max === 1 ? 'server' : 'servers'}, the most one bot may hold: release one first`,
} as const;

/**
 * Hands one available server to the bot, when the fleet holds the bot (it said hello) and the bot
 * holds fewer than POOL_MAX_SERVERS_PER_BOT. When none is left, leases that ran out are taken back
 * first (the periodic sweep may not have come by yet), then the claim is tried once more.
 */
export async function claimServer(
  ctx: AppContext,
  input: { ghostId: string; placeId?: string },
  fleet: PoolFleetLink = NO_FLEET_LINK,
): Promise<ClaimServerResponse> {
  const none = notFound(
    input.placeId === undefined
      ? SERVER_POOL_TEXTS.noneAvailable
      : SERVER_POOL_TEXTS.noneAvailableForPlace(input.placeId),
  );
  try {
    const claimed = await claimOrSweep(ctx, input, fleet, none);
    ctx.services.metrics.claim('claimed');
    return claimed;
  } catch (error) {
    const refused = error instanceof HttpError && error.statusCode === 409;
    ctx.services.metrics.claim(error === none ? 'none_available' : refused ? 'refused' : 'failed');
    throw error;
  }
}

async function claimOrSweep(
  ctx: AppContext,
  input: { ghostId: string; placeId?: string },
  fleet: PoolFleetLink,
  none: Error,
): Promise<ClaimServerResponse> {
  const { ghostId } = input;
  if (fleet.holds && !fleet.holds(ghostId)) throw conflict(POOL_CLAIM_TEXTS.notInFleet(ghostId));
  const now = ctx.now();
  try {
    return await claimWithinLimit(ctx, input, now, none);
  } catch (error) {
    if (error !== none || (await sweepExpiredLeases(ctx, fleet)) === 0) throw error;
    return claimWithinLimit(ctx, input, now, none);
  }
}

/**
 * One claim in one transaction: the bot's row is locked first (lockPoolBot), so of any number of
 * simultaneous claims by one bot, each counts what the others took and no more than
 * POOL_MAX_SERVERS_PER_BOT succeed. Throws 409 past the limit.
 */
async function claimWithinLimit(
  ctx: AppContext,
  input: { ghostId: string; placeId?: string },
  now: number,
  none: Error,
): Promise<ClaimServerResponse> {
  const max = ctx.config.POOL_MAX_SERVERS_PER_BOT;
  const row = await ctx.db.transaction().execute(async (trx) => {
    // The call is a sign of life for the bot's leases: in the transaction, so a refused claim
    // (thrown, rolled back) changes nothing.
    await touchPoolBot(trx, input.ghostId, now);
    await lockPoolBot(trx, ctx.dialect, input.ghostId);
    if ((await countServersHeldBy(trx, input.ghostId)) >= max) {
      throw conflict(POOL_CLAIM_TEXTS.holdsTooMany(input.ghostId, max));
    }
    const claimed = await claimAvailableServer(trx, ctx.dialect, input.ghostId, input.placeId, now);
    if (!claimed) throw none;
    return claimed;
  });
  return { server: poolServerRowToPoolServer(row), leaseSeconds: ctx.config.POOL_LEASE_SECONDS };
}

/**
 * The bot gives its server back: `ok` makes it available again, `full` and `error` delete it with the
 * reason. An `error` also counts toward quarantining the server and flagging the bot.
 */
export async function releaseServer(
  ctx: AppContext,
  input: { ghostId: string; jobId: string; outcome: ReleaseOutcome; reason?: string },
  caller: PoolCaller,
  fleet: PoolFleetLink = NO_FLEET_LINK,
): Promise<ReleaseServerResponse> {
  const now = ctx.now();
  const { ghostId, jobId, outcome } = input;
  const reason =
    input.reason ||
    (outcome === 'full'
      ? SERVER_POOL_TEXTS.fullReason
      : outcome === 'error'
        ? SERVER_POOL_TEXTS.errorReason
        : '');
  const result = await ctx.db.transaction().execute(async (trx) => {
    // A sign of life for the bot's other leases; rolled back with a refused release, which changes nothing.
    await touchPoolBot(trx, ghostId, now);
    const released = await releaseAssignedServer(
      trx,
      jobId,
      ghostId,
      outcome === 'ok' ? { status: 'available' } : { status: 'deleted', deletedReason: reason },
      now,
    );
    if (!released) {
      const existing = await findPoolServerByJobId(trx, jobId);
      throw existing
        ? conflict(SERVER_POOL_TEXTS.notHolder(jobId, ghostId))
        : notFound(SERVER_POOL_TEXTS.unknownServer(jobId));
    }
    if (outcome === 'ok') {
      await recordBotSuccess(trx, ghostId, now);
      return { server: released, flaggedAfter: null };
    }
    if (outcome === 'full') return { server: released, flaggedAfter: null };

    await insertPoolFailure(trx, { jobId, ghostId, reason }, now);
    const server = (await quarantineIfFailing(trx, released, reason, caller, now)) ?? released;
    const bot = await findPoolBot(trx, ghostId);
    const failedServers = await countServersFailedByBotAfter(trx, ghostId, bot?.last_ok_at ?? -1);
    const flag = failedServers >= FLAG_BOT_AFTER_FAILED_SERVERS;
    const newlyFlagged = flag && bot?.flagged_at == null;
    await recordBotFailureStreak(trx, ghostId, failedServers, flag, now);
    if (newlyFlagged) {
      await insertAuditLog(
        trx,
        {
          eventType: 'bot_flagged',
          success: false,
          ipAddress: caller.ip,
          details: { ghostId, failedServers, lastJobId: jobId, lastReason: reason },
        },
        now,
      );
    }
    return { server, flaggedAfter: newlyFlagged ? failedServers : null };
  });
  // After the commit: the fleet tells every instance's dashboards, which must not see a flag rolled back.
  if (result.flaggedAfter !== null && fleet.markBotError) {
    await fleet.markBotError(ghostId, `Failed on ${result.flaggedAfter} different servers in a row`);
  }
  return { server: poolServerRowToPoolServer(result.server) };
}

/** Quarantines the server when enough different bots failed on it lately; returns the updated row then. */
async function quarantineIfFailing(
  trx: Db,
  server: PoolServerRow,
  lastReason: string,
  caller: PoolCaller,
  now: number,
) {
  const bots = await botsFailedOnServerSince(trx, server.job_id, now - QUARANTINE_WINDOW_MS);
  if (bots.length < QUARANTINE_BOTS || server.quarantined_at !== null) return undefined;
  const reason = `Quarantined: ${bots.length} bots failed on it within ${QUARANTINE_WINDOW_MS / MINUTE_MS} minutes (last: ${lastReason})`;
  await markServerQuarantined(trx, server.job_id, reason, now);
  await insertAuditLog(
    trx,
    {
      eventType: 'server_quarantined',
      success: true,
      ipAddress: caller.ip,
      details: { jobId: server.job_id, placeId: server.place_id, bots, reason },
    },
    now,
  );
  return findPoolServerByJobId(trx, server.job_id);
}

/**
 * Takes back servers whose bot neither released them nor was heard from (a pool call, or a fleet
 * message when the fleet link knows one) for POOL_LEASE_SECONDS. Returns how many went back.
 */
export async function sweepExpiredLeases(
  ctx: AppContext,
  fleet: PoolFleetLink = NO_FLEET_LINK,
): Promise<number> {
  const now = ctx.now();
  const cutoff = now - ctx.config.POOL_LEASE_SECONDS * 1000;
  const idle = await findLeasesIdleSince(ctx.db, cutoff, SWEEP_BATCH);
  const expired = [];
  for (const lease of idle) {
    const heard = lease.assigned_to === null ? undefined : await fleet.lastActivity(lease.assigned_to);
    if (heard === undefined || heard < cutoff) expired.push(lease);
  }
  return returnExpiredLeases(ctx.db, expired, now);
}

/** Drops failures, deleted servers and bots gone quiet past POOL_HISTORY_MS (quarantines and flags stay). */
export async function prunePool(ctx: AppContext): Promise<void> {
  await prunePoolHistory(ctx.db, ctx.now() - POOL_HISTORY_MS);
}

export async function getServerPoolStats(ctx: AppContext): Promise<ServerPoolStatsResponse> {
  const [counts, quarantined, flaggedBots] = await Promise.all([
    countPoolServers(ctx.db),
    listQuarantinedServers(ctx.db, STATS_LIST_LIMIT),
    listFlaggedBots(ctx.db, STATS_LIST_LIMIT),
  ]);
  return { stats: { ...counts, quarantined, flaggedBots } };
}
