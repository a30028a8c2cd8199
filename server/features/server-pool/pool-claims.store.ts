import { sql } from 'kysely';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db, DialectName } from '../../db/index.ts';
import type { PoolServerRow } from './server-pool.store.ts';

/*
 * A claim and a release, each one statement, holding nothing open between round trips: at a fleet's
 * rate PostgreSQL spends its time waiting for Node between the statements of a transaction, not
 * running them (issue 39). SQLite, which cannot write two tables in one statement, writes a
 * release's bot row in a second one, in-process.
 */

/** What a claim came to: the server, or why none (the bot's holding limit, or none available). */
export type ClaimResult = { server: PoolServerRow } | { refused: 'limit' | 'none' };

/** The unique index that keeps a bot within its limit (migration P0001). */
const HOLD_SLOT_INDEX = 'pool_servers_hold_slot';

/**
 * Hands the least recently used available server (of `placeId`, when given) to `ghostId` if it holds
 * fewer than `max`, in one statement. Its `status = 'available'` condition is what hands a server to
 * one claimer only: SQLite runs writes one at a time, and on PostgreSQL `for update skip locked`
 * makes concurrent claimers pass over a row another one is taking. The bot's limit holds through its
 * holding places: the claim takes the lowest one free, and a unique index refuses a second server in
 * the same place, so of two racing claims of one bot the later fails and is tried again, seeing the
 * first. PostgreSQL also says in the same statement why nothing was claimed; SQLite asks after.
 */
export async function claimAvailableServer(
  db: Db,
  dialect: DialectName,
  claim: { ghostId: string; placeId: string | undefined; max: number },
  now: number,
): Promise<ClaimResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await claimOnce(db, dialect, claim, now);
    } catch (error) {
      const placeTaken =
        isUniqueViolation(error) && (error as { constraint?: string }).constraint === HOLD_SLOT_INDEX;
      // Each place lost went to another claim of the bot, so within max + 1 tries it is at its limit (409).
      if (!placeTaken || attempt > claim.max + 1) throw error;
    }
  }
}

async function claimOnce(
  db: Db,
  dialect: DialectName,
  { ghostId, placeId, max }: { ghostId: string; placeId: string | undefined; max: number },
  now: number,
): Promise<ClaimResult> {
  const heldBy = sql`assigned_to = ${ghostId} and status = 'assigned'`;
  const places = sql.join(Array.from({ length: max }, (_, i) => sql`(${sql.lit(i + 1)})`));
  // The bot's lowest free holding place (VALUES names its column column1 on both dialects), none
  // once it holds `max`; a lowered limit still counts every server the bot holds.
  const freePlace = sql`select min(column1) as n from (values ${places}) as places
    where (select count(*) from pool_servers where ${heldBy}) < ${max}
      and column1 not in (select hold_slot from pool_servers where ${heldBy} and hold_slot is not null)`;
  const ofPlace = placeId === undefined ? sql`` : sql`and place_id = ${placeId}`;
  const skipLocked = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const take = sql`update pool_servers
    set status = 'assigned', assigned_to = ${ghostId}, assigned_at = ${now}, updated_at = ${now},
      hold_slot = (select n from free_place)
    where id = (
      select id from pool_servers
      where status = 'available' ${ofPlace} and (select n from free_place) is not null
      order by updated_at, id limit 1 ${skipLocked}
    ) and status = 'available'
    returning *`;
  if (dialect === 'postgres') {
    // One row whatever happened: the server's columns (null when none was taken) and the free place.
    const { rows } = await sql<PoolServerRow & { free_place: number | null }>`
      with free_place as (${freePlace}), taken as (${take})
      select (select n from free_place) as free_place, taken.*
      from (select 1) as one left join taken on true`.execute(db);
    const row = rows[0];
    if (row?.id != null) {
      const { free_place: _, ...server } = row;
      return { server };
    }
    return { refused: row?.free_place == null ? 'limit' : 'none' };
  }
  const { rows } = await sql<PoolServerRow>`with free_place as (${freePlace}) ${take}`.execute(db);
  if (rows[0]) return { server: rows[0] };
  return { refused: (await countServersHeldBy(db, ghostId)) >= max ? 'limit' : 'none' };
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

/** How a release leaves a server: available again, or deleted with its reason. */
export type ReleasedAs = { status: 'available' } | { status: 'deleted'; deletedReason: string };

/**
 * Ends `ghostId`'s hold on the server, and records the call as the bot's sign of life (a good
 * release, `succeeded`, also ends its failure streak and lifts its flag). Undefined, writing
 * nothing, when the server is not assigned to that bot (released already, its lease expired,
 * another bot's). One statement on PostgreSQL; two on SQLite, in one transaction unless `db`
 * is one already.
 */
export async function releaseAssignedServer(
  db: Db,
  dialect: DialectName,
  release: { jobId: string; ghostId: string; next: ReleasedAs; succeeded: boolean },
  now: number,
): Promise<PoolServerRow | undefined> {
  const { jobId, ghostId, next, succeeded } = release;
  const deleted = next.status === 'deleted';
  const serverUpdate = (trx: Db) =>
    trx
      .updateTable('pool_servers')
      .set({
        status: next.status,
        assigned_to: null,
        assigned_at: null,
        hold_slot: null,
        deleted_reason: deleted ? next.deletedReason : null,
        deleted_at: deleted ? now : null,
        updated_at: now,
      })
      .where('job_id', '=', jobId)
      .where('status', '=', 'assigned')
      .where('assigned_to', '=', ghostId)
      .returningAll();
  if (dialect === 'postgres') {
    // The bot's row only when the server was released: a refused release writes nothing.
    const { rows } = await sql<PoolServerRow>`
      with released as (${serverUpdate(db)}),
      seen as (
        insert into pool_bots (ghost_id, last_seen_at, last_ok_at, failed_servers, flagged_at)
        select ${ghostId}, ${now}::bigint, ${succeeded ? now : null}::bigint, 0, null::bigint from released
        on conflict (ghost_id) do update set last_seen_at = excluded.last_seen_at
          ${succeeded ? sql`, last_ok_at = excluded.last_ok_at, failed_servers = 0, flagged_at = null` : sql``}
      )
      select * from released`.execute(db);
    return rows[0];
  }
  const bot = succeeded
    ? { last_seen_at: now, last_ok_at: now, failed_servers: 0, flagged_at: null }
    : { last_seen_at: now };
  const write = async (trx: Db) => {
    const server = await serverUpdate(trx).executeTakeFirst();
    if (server) {
      await trx
        .insertInto('pool_bots')
        .values({ ghost_id: ghostId, ...bot })
        .onConflict((oc) => oc.column('ghost_id').doUpdateSet(bot))
        .execute();
    }
    return server;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
