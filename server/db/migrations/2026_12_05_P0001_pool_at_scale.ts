import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** The server pool at a fleet's scale (issue 39): claims of one statement, and figures that skip its history. */
export async function up(db: Kysely<any>): Promise<void> {
  await claimsUp(db);
  await statsUp(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await statsDown(db);
  await claimsDown(db);
}

/*
 * Claims take the least recently used available server, ties by id: with the id in the index,
 * PostgreSQL reads the first one from it instead of sorting every available server for each claim
 * (SQLite's indexes end with the rowid already).
 *
 * A claimed server records which of its bot's holding places it takes (1..POOL_MAX_SERVERS_PER_BOT),
 * and no two servers a bot holds may take the same one. That unique index is what keeps a bot within
 * its limit when its claims race, with each claim one statement and no lock on the bot held between
 * round trips: of two claims that took the same place, the second fails and is tried again.
 * Servers held now are numbered 1, 2, … per bot.
 */
async function claimsUp(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pool_servers_status_updated').execute();
  await db.schema.dropIndex('pool_servers_status_place_updated').execute();
  await db.schema
    .createIndex('pool_servers_status_updated_id')
    .on('pool_servers')
    .columns(['status', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('pool_servers_status_place_updated_id')
    .on('pool_servers')
    .columns(['status', 'place_id', 'updated_at', 'id'])
    .execute();
  await db.schema.alterTable('pool_servers').addColumn('hold_slot', 'integer').execute();
  await sql`
    update pool_servers set hold_slot = (
      select count(*) from pool_servers as earlier
      where earlier.status = 'assigned' and earlier.assigned_to = pool_servers.assigned_to
        and earlier.id <= pool_servers.id
    )
    where status = 'assigned'`.execute(db);
  await db.schema
    .createIndex('pool_servers_hold_slot')
    .on('pool_servers')
    .columns(['assigned_to', 'hold_slot'])
    .unique()
    .where(sql.ref('status'), '=', 'assigned')
    .execute();
}

async function claimsDown(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pool_servers_hold_slot').execute();
  await db.schema.alterTable('pool_servers').dropColumn('hold_slot').execute();
  await db.schema.dropIndex('pool_servers_status_place_updated_id').execute();
  await db.schema.dropIndex('pool_servers_status_updated_id').execute();
  await db.schema
    .createIndex('pool_servers_status_place_updated')
    .on('pool_servers')
    .columns(['status', 'place_id', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('pool_servers_status_updated')
    .on('pool_servers')
    .columns(['status', 'updated_at'])
    .execute();
}

/*
 * The pool's figures without reading its history (issue 39: the stats read every server ever kept,
 * deleted ones included, on each call). Quarantined servers and flagged bots are listed from
 * indexes holding only them. The count of deleted servers, which is most of the table, is kept in
 * pool_counts by triggers, so it is exact whichever statement deletes, revives or prunes a server;
 * the live counts are read from indexes over live servers (server-pool.store.ts).
 *
 * PostgreSQL counts a statement's deleted rows once per statement (the hourly prune deletes many at
 * once; a trigger per row would rewrite the counter row for each); SQLite has triggers per row only.
 */
async function statsUp(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('pool_servers_quarantined')
    .on('pool_servers')
    .columns(['quarantined_at', 'id'])
    .where(sql.ref('quarantined_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('pool_bots_flagged')
    .on('pool_bots')
    .columns(['flagged_at desc', 'ghost_id'])
    .where(sql.ref('flagged_at'), 'is not', null)
    .execute();
  await db.schema
    .createTable('pool_counts')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into pool_counts (name, value)
    select 'deleted_servers', count(*) from pool_servers where status = 'deleted'`.execute(db);
  const deleted = (row: 'new' | 'old') => sql.raw(`${row}.status = 'deleted'`);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function pool_count_deleted_servers() returns trigger language plpgsql as $$
      declare
        delta bigint := 0;
      begin
        if TG_OP = 'DELETE' then
          select -count(*) into delta from gone where status = 'deleted';
        elsif TG_OP = 'INSERT' or NEW.status = 'deleted' then
          delta := 1;
        else
          delta := -1;
        end if;
        if delta <> 0 then
          update pool_counts set value = value + delta where name = 'deleted_servers';
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger pool_servers_deleted_insert after insert on pool_servers
      for each row when (${deleted('new')}) execute function pool_count_deleted_servers()`.execute(db);
    await sql`create trigger pool_servers_deleted_update after update of status on pool_servers
      for each row when ((${deleted('old')}) is distinct from (${deleted('new')}))
      execute function pool_count_deleted_servers()`.execute(db);
    await sql`create trigger pool_servers_deleted_delete after delete on pool_servers
      referencing old table as gone for each statement execute function pool_count_deleted_servers()`.execute(
      db,
    );
    return;
  }
  const bump = (by: string) =>
    sql.raw(`update pool_counts set value = value + ${by} where name = 'deleted_servers';`);
  await sql`create trigger pool_servers_deleted_insert after insert on pool_servers
    when ${deleted('new')} begin ${bump('1')} end`.execute(db);
  await sql`create trigger pool_servers_deleted_update after update of status on pool_servers
    when (${deleted('old')}) <> (${deleted('new')})
    begin ${bump("case when new.status = 'deleted' then 1 else -1 end")} end`.execute(db);
  await sql`create trigger pool_servers_deleted_delete after delete on pool_servers
    when ${deleted('old')} begin ${bump('-1')} end`.execute(db);
}

async function statsDown(db: Kysely<any>): Promise<void> {
  for (const trigger of ['insert', 'update', 'delete']) {
    const name = sql.raw(`pool_servers_deleted_${trigger}`);
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop trigger ${name} on pool_servers`.execute(db);
    } else {
      await sql`drop trigger ${name}`.execute(db);
    }
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop function pool_count_deleted_servers()`.execute(db);
  }
  await db.schema.dropTable('pool_counts').execute();
  await db.schema.dropIndex('pool_bots_flagged').execute();
  await db.schema.dropIndex('pool_servers_quarantined').execute();
}
