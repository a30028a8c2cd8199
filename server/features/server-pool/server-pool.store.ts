import { type Selectable, sql } from 'kysely';
import type {
  NewPoolServer,
  PoolServer,
  QuarantinedServer,
  ServerPoolStats,
} from '../../../common/server-pool.ts';
import { countWhere } from '../../db/aggregates.ts';
import type { Db, DialectName } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { PoolServersTable } from './server-pool.table.ts';

/*
 * The pool's servers: added, claimed, released, their leases, quarantine, pruning and the figures.
 * What the pool keeps of each bot (its calls, failures, flag) is in pool-bots.store.ts.
 */

export type PoolServerRow = Selectable<PoolServersTable>;

export function poolServerRowToPoolServer(row: PoolServerRow): PoolServer {
  return {
    jobId: row.job_id,
    placeId: row.place_id,
    playing: row.playing,
    maxPlayers: row.max_players,
    status: row.status,
    assignedTo: row.assigned_to,
    assignedAt: isoOrNull(row.assigned_at),
    deletedReason: row.deleted_reason,
  };
}

/**
 * Adds the servers; a job id already in the pool is left as it is, unless it was deleted (full, an
 * error) and not quarantined: then it is available again, as the game offers it again. Returns how
 * many became available.
 */
export async function insertPoolServers(db: Db, servers: NewPoolServer[], now: number): Promise<number> {
  const rows = await db
    .insertInto('pool_servers')
    .values(
      servers.map((s) => ({
        job_id: s.jobId,
        place_id: s.placeId,
        playing: s.playing ?? null,
        max_players: s.maxPlayers ?? null,
        status: 'available' as const,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc
        .column('job_id')
        .doUpdateSet((eb) => ({
          place_id: eb.ref('excluded.place_id'),
          playing: eb.ref('excluded.playing'),
          max_players: eb.ref('excluded.max_players'),
          status: 'available',
          deleted_reason: null,
          deleted_at: null,
          updated_at: now,
        }))
        .where('pool_servers.status', '=', 'deleted')
        .where('pool_servers.quarantined_at', 'is', null),
    )
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Hands the least recently used available server (of `placeId`, when given) to `ghostId`, or
 * undefined when none is left. One statement whose `status = 'available'` condition is the guard:
 * SQLite runs writes one at a time, and on PostgreSQL `for update skip locked` makes concurrent
 * claimers pass over a row another one is taking instead of waiting for it and then finding it gone,
 * so of any number of simultaneous claims each server goes to exactly one.
 */
export async function claimAvailableServer(
  db: Db,
  dialect: DialectName,
  ghostId: string,
  placeId: string | undefined,
  now: number,
): Promise<PoolServerRow | undefined> {
  let candidate = db
    .selectFrom('pool_servers')
    .select('id')
    .where('status', '=', 'available')
    .orderBy('updated_at')
    .orderBy('id')
    .limit(1);
  if (placeId !== undefined) candidate = candidate.where('place_id', '=', placeId);
  if (dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
  return db
    .updateTable('pool_servers')
    .set({ status: 'assigned', assigned_to: ghostId, assigned_at: now, updated_at: now })
    .where('id', '=', candidate)
    .where('status', '=', 'available')
    .returningAll()
    .executeTakeFirst();
}

/** How many servers the bot holds claimed right now. */
export async function countServersHeldBy(db: Db, ghostId: string): Promise<number> {
  const row = await db
    .selectFrom('pool_servers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('assigned_to', '=', ghostId)
    .where('status', '=', 'assigned')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPoolServerByJobId(db: Db, jobId: string): Promise<PoolServerRow | undefined> {
  return db.selectFrom('pool_servers').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

/** Puts every server `ghostId` holds back as available (the bot left the fleet); returns how many. */
export async function releaseServersOf(db: Db, ghostId: string, now: number): Promise<number> {
  const result = await db
    .updateTable('pool_servers')
    .set({ status: 'available', assigned_to: null, assigned_at: null, updated_at: now })
    .where('status', '=', 'assigned')
    .where('assigned_to', '=', ghostId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ends `ghostId`'s hold on the server: back to available, or deleted with `deletedReason`. Undefined
 * when the server is not assigned to that bot (released already, its lease expired, another bot's).
 */
export async function releaseAssignedServer(
  db: Db,
  jobId: string,
  ghostId: string,
  next: { status: 'available' } | { status: 'deleted'; deletedReason: string },
  now: number,
): Promise<PoolServerRow | undefined> {
  return db
    .updateTable('pool_servers')
    .set({
      status: next.status,
      assigned_to: null,
      assigned_at: null,
      deleted_reason: next.status === 'deleted' ? next.deletedReason : null,
      deleted_at: next.status === 'deleted' ? now : null,
      updated_at: now,
    })
    .where('job_id', '=', jobId)
    .where('status', '=', 'assigned')
    .where('assigned_to', '=', ghostId)
    .returningAll()
    .executeTakeFirst();
}

export async function markServerQuarantined(
  db: Db,
  jobId: string,
  reason: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('pool_servers')
    .set({
      status: 'deleted',
      assigned_to: null,
      assigned_at: null,
      deleted_reason: reason,
      deleted_at: now,
      quarantined_at: now,
      updated_at: now,
    })
    .where('job_id', '=', jobId)
    .execute();
}

/**
 * Assigned servers whose bot has made no pool call since `cutoff` and was assigned before it: the
 * leases that may have run out (the fleet's heartbeats are asked next, by the service).
 */
export async function findLeasesIdleSince(db: Db, cutoff: number, limit: number) {
  return db
    .selectFrom('pool_servers')
    .leftJoin('pool_bots', 'pool_bots.ghost_id', 'pool_servers.assigned_to')
    .select([
      'pool_servers.id',
      'pool_servers.job_id',
      'pool_servers.assigned_to',
      'pool_servers.assigned_at',
    ])
    .where('pool_servers.status', '=', 'assigned')
    .where('pool_servers.assigned_at', '<', cutoff)
    .where((eb) =>
      eb.or([eb('pool_bots.last_seen_at', 'is', null), eb('pool_bots.last_seen_at', '<', cutoff)]),
    )
    .limit(limit)
    .execute();
}

/**
 * Puts the servers back as available, each only if it is still held by the same bot under the same
 * claim (a release or a fresh claim in between wins). Returns how many went back.
 */
export async function returnExpiredLeases(
  db: Db,
  leases: { id: number; assigned_to: string | null; assigned_at: number | null }[],
  now: number,
): Promise<number> {
  let returned = 0;
  for (const lease of leases) {
    if (lease.assigned_to === null || lease.assigned_at === null) continue;
    const result = await db
      .updateTable('pool_servers')
      .set({ status: 'available', assigned_to: null, assigned_at: null, updated_at: now })
      .where('id', '=', lease.id)
      .where('status', '=', 'assigned')
      .where('assigned_to', '=', lease.assigned_to)
      .where('assigned_at', '=', lease.assigned_at)
      .executeTakeFirst();
    returned += Number(result.numUpdatedRows);
  }
  return returned;
}

/** Deletes failures, deleted (not quarantined) servers and unflagged bots not seen, older than `before`. */
export async function prunePoolHistory(db: Db, before: number): Promise<void> {
  await db.deleteFrom('pool_failures').where('failed_at', '<', before).execute();
  await db
    .deleteFrom('pool_bots')
    .where('last_seen_at', '<', before)
    .where('flagged_at', 'is', null)
    .execute();
  await db
    .deleteFrom('pool_servers')
    .where('status', '=', 'deleted')
    .where('quarantined_at', 'is', null)
    .where('deleted_at', '<', before)
    .execute();
}

/**
 * The spec's figures, counted in one pass. Deleted servers are history, not capacity: `total` is
 * the servers still in the pool (available or assigned), so availability is over those alone.
 */
export async function countPoolServers(
  db: Db,
): Promise<Omit<ServerPoolStats, 'quarantined' | 'flaggedBots'>> {
  const row = await db
    .selectFrom('pool_servers')
    .select((eb) => [
      countWhere(eb('status', '=', 'available')).as('available'),
      countWhere(eb('status', '=', 'assigned')).as('assigned'),
      countWhere(eb('status', '=', 'deleted')).as('deleted'),
      // count(distinct) skips nulls: only assigned servers carry a bot.
      sql<number>`count(distinct ${eb.ref('assigned_to')})`.as('active_bots'),
    ])
    .executeTakeFirstOrThrow();
  // Number(): a count is a number on the wire whatever the driver hands over.
  const available = Number(row.available);
  const assigned = Number(row.assigned);
  return {
    total: available + assigned,
    byStatus: { available, assigned, deleted: Number(row.deleted) },
    activeBots: Number(row.active_bots),
  };
}

/** Quarantined servers, newest first. */
export async function listQuarantinedServers(db: Db, limit: number): Promise<QuarantinedServer[]> {
  const rows = await db
    .selectFrom('pool_servers')
    .select(['job_id', 'place_id', 'deleted_reason', 'quarantined_at'])
    .where('quarantined_at', 'is not', null)
    .orderBy('quarantined_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    jobId: r.job_id,
    placeId: r.place_id,
    reason: r.deleted_reason ?? '',
    quarantinedAt: new Date(r.quarantined_at ?? 0).toISOString(),
  }));
}
