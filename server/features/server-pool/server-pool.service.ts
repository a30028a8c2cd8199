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
import { conflict, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  botsFailedOnServerSince,
  countServersFailedByBotAfter,
  findPoolBot,
  insertPoolFailure,
  listFlaggedBots,
  recordBotFailureStreak,
} from './pool-bots.store.ts';
import { type ClaimResult, claimAvailableServer, releaseAssignedServer } from './pool-claims.store.ts';
import {
  countPoolServers,
  findLeasesIdleSince,
  findPoolServerByJobId,
  insertPoolServers,
  listQuarantinedServers,
  markServerQuarantined,
  type PoolServerRow,
  poolServerRowToPoolServer,
  prunePoolHistory,
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
 * holds fewer than POOL_MAX_SERVERS_PER_BOT: one statement (pool-claims.store.ts). When none is
 * left, leases that ran out are taken back first (the periodic sweep may not have come by yet; claims
 * that find the pool empty at once share one sweep, empty-pool-sweeps.ts), then the claim is tried
 * once more. A refusal's error is built only once it is certain: a claim is the pool's busiest call,
 * and an error costs a stack trace.
 */
export async function claimServer(
  ctx: AppContext,
  input: { ghostId: string; placeId?: string },
  fleet: PoolFleetLink = NO_FLEET_LINK,
): Promise<ClaimServerResponse> {
  let result: ClaimResult | { refused: 'not_in_fleet' };
  try {
    result = await claimOrSweep(ctx, input, fleet);
  } catch (error) {
    ctx.services.metrics.claim('failed');
    throw error;
  }
  if ('server' in result) {
    ctx.services.metrics.claim('claimed');
    return { server: poolServerRowToPoolServer(result.server), leaseSeconds: ctx.config.POOL_LEASE_SECONDS };
  }
  const { ghostId, placeId } = input;
  switch (result.refused) {
    case 'none':
      ctx.services.metrics.claim('none_available');
      throw notFound(
        placeId === undefined
          ? SERVER_POOL_TEXTS.noneAvailable
          : SERVER_POOL_TEXTS.noneAvailableForPlace(placeId),
      );
    case 'limit':
      ctx.services.metrics.claim('refused');
      throw conflict(POOL_CLAIM_TEXTS.holdsTooMany(ghostId, ctx.config.POOL_MAX_SERVERS_PER_BOT));
    case 'not_in_fleet':
      ctx.services.metrics.claim('refused');
      throw conflict(POOL_CLAIM_TEXTS.notInFleet(ghostId));
  }
}

async function claimOrSweep(
  ctx: AppContext,
  input: { ghostId: string; placeId?: string },
  fleet: PoolFleetLink,
): Promise<ClaimResult | { refused: 'not_in_fleet' }> {
  if (fleet.holds && !fleet.holds(input.ghostId)) return { refused: 'not_in_fleet' };
  const now = ctx.now();
  const claim = {
    ghostId: input.ghostId,
    placeId: input.placeId,
    max: ctx.config.POOL_MAX_SERVERS_PER_BOT,
  };
  // No transaction: the one statement is the claim, and a refused claim writes nothing.
  const first = await claimAvailableServer(ctx.db, ctx.dialect, claim, now);
  if (!('refused' in first) || first.refused !== 'none') return first;
  const swept = await ctx.services.emptyPoolSweeps.run(now, () => sweepExpiredLeases(ctx, fleet));
  if (swept === 0) return first;
  return claimAvailableServer(ctx.db, ctx.dialect, claim, now);
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
  const next =
    outcome === 'ok'
      ? { status: 'available' as const }
      : { status: 'deleted' as const, deletedReason: reason };
  const release = { jobId, ghostId, next, succeeded: outcome === 'ok' };
  const refusal = async () => {
    const existing = await findPoolServerByJobId(ctx.db, jobId);
    return existing
      ? conflict(SERVER_POOL_TEXTS.notHolder(jobId, ghostId))
      : notFound(SERVER_POOL_TEXTS.unknownServer(jobId));
  };
  if (outcome !== 'error') {
    // One statement: the server back (or deleted as full) and the bot's sign of life.
    const released = await releaseAssignedServer(ctx.db, ctx.dialect, release, now);
    if (!released) throw await refusal();
    return { server: poolServerRowToPoolServer(released) };
  }
  // A failure counts toward quarantine and the bot's streak: read and written in one transaction.
  const result = await ctx.db.transaction().execute(async (trx) => {
    const released = await releaseAssignedServer(trx, ctx.dialect, release, now);
    if (!released) return null;
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
  if (!result) throw await refusal();
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
