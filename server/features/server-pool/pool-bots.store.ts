import type { FlaggedBot } from '../../../common/server-pool.ts';
import type { Db } from '../../db/index.ts';

/*
 * The pool's record of each bot: the servers it failed on, and the flag a failure streak earns it.
 * Its last pool call (what keeps its leases alive) is written with each release (pool-claims.store.ts);
 * the servers themselves are in server-pool.store.ts.
 */

export async function insertPoolFailure(
  db: Db,
  failure: { jobId: string; ghostId: string; reason: string },
  now: number,
): Promise<void> {
  await db
    .insertInto('pool_failures')
    .values({ job_id: failure.jobId, ghost_id: failure.ghostId, reason: failure.reason, failed_at: now })
    .execute();
}

/** The different bots that failed on the server since `since`. */
export async function botsFailedOnServerSince(db: Db, jobId: string, since: number): Promise<string[]> {
  const rows = await db
    .selectFrom('pool_failures')
    .select('ghost_id')
    .distinct()
    .where('job_id', '=', jobId)
    .where('failed_at', '>=', since)
    .execute();
  return rows.map((r) => r.ghost_id);
}

/** How many different servers the bot failed on after `since` (its last good release). */
export async function countServersFailedByBotAfter(db: Db, ghostId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('pool_failures')
    .select((eb) => eb.fn.count<number>('job_id').distinct().as('n'))
    .where('ghost_id', '=', ghostId)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPoolBot(db: Db, ghostId: string) {
  return db.selectFrom('pool_bots').selectAll().where('ghost_id', '=', ghostId).executeTakeFirst();
}

/** Stores the bot's streak and flags it (keeping the first flag time) once `flag` says so. */
export async function recordBotFailureStreak(
  db: Db,
  ghostId: string,
  failedServers: number,
  flag: boolean,
  now: number,
): Promise<void> {
  await db
    .updateTable('pool_bots')
    .set((eb) => ({
      failed_servers: failedServers,
      ...(flag ? { flagged_at: eb.fn.coalesce('flagged_at', eb.val(now)) } : {}),
    }))
    .where('ghost_id', '=', ghostId)
    .execute();
}

/** Flagged bots, newest flag first. */
export async function listFlaggedBots(db: Db, limit: number): Promise<FlaggedBot[]> {
  const rows = await db
    .selectFrom('pool_bots')
    .select(['ghost_id', 'failed_servers', 'flagged_at'])
    .where('flagged_at', 'is not', null)
    .orderBy('flagged_at', 'desc')
    .orderBy('ghost_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ghostId: r.ghost_id,
    failedServers: r.failed_servers,
    flaggedAt: new Date(r.flagged_at ?? 0).toISOString(),
  }));
}
