import { type Selectable, sql } from 'kysely';
import type {
  NewPoolServer,
  PoolServer,
  QuarantinedServer,
  ServerPoolStats,
} from '../../../common/server-pool.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { PoolServersTable } from './server-pool.table.ts';

/*
 * The pool's servers: added, their leases, quarantine, pruning and the figures. Claims and releases
 * are in pool-claims.store.ts; what the pool keeps of each bot (failures, flag) in pool-bots.store.ts.
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

export async function findPoolServerByJobId(db: Db, jobId: string): Promise<PoolServerRow | undefined> {
  return db.selectFrom('pool_servers').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

/** Puts every server `ghostId` holds back as available (the bot left the fleet); returns how many. */
export async function releaseServersOf(db: Db, ghostId: string, now: number): Promise<number> {
  const result = await db
    .updateTable('pool_servers')
    .set({ status: 'available', assigned_to: null, assigned_at: null, hold_slot: null, updated_at: now })
    .where('status', '=', 'assigned')
    .where('assigned_to', '=', ghostId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
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
      hold_slot: null,
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
 * leases that may have run out (the fleet's heartbeats are asked next, by the service). A claim
 * counts as a pool call through the server it took (its `assigned_at`), so a claim writes one row.
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
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('pool_servers as claimed_since')
            .select('claimed_since.id')
            .whereRef('claimed_since.assigned_to', '=', 'pool_servers.assigned_to')
            .where('claimed_since.status', '=', 'assigned')
            .where('claimed_since.assigned_at', '>=', cutoff),
        ),
      ),
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
      .set({ status: 'available', assigned_to: null, assigned_at: null, hold_slot: null, updated_at: now })
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
 * The spec's figures, without reading the pool's history: available and assigned servers are
 * counted from indexes over those alone, the deleted ones (most of the table) are the count the
 * triggers keep (migration P0001). Deleted servers are history, not capacity: `total` is the servers
 * still in the pool (available or assigned), so availability is over those alone.
 */
export async function countPoolServers(
  db: Db,
): Promise<Omit<ServerPoolStats, 'quarantined' | 'flaggedBots'>> {
  const inStatus = (status: 'available' | 'assigned') =>
    db
      .selectFrom('pool_servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status);
  const row = await db
    .selectNoFrom((eb) => [
      inStatus('available').as('available'),
      inStatus('assigned').as('assigned'),
      // The bots holding servers: read in the index of held servers (assigned_to, hold_slot).
      eb
        .selectFrom('pool_servers')
        .select((inner) => sql<number>`count(distinct ${inner.ref('assigned_to')})`.as('n'))
        .where('status', '=', 'assigned')
        .as('active_bots'),
      eb.selectFrom('pool_counts').select('value').where('name', '=', 'deleted_servers').as('deleted'),
    ])
    .executeTakeFirstOrThrow();
  // Number(): a count is a number on the wire whatever the driver hands over.
  const available = Number(row.available);
  const assigned = Number(row.assigned);
  return {
    total: available + assigned,
    byStatus: { available, assigned, deleted: Number(row.deleted ?? 0) },
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
