import { type Kysely, sql } from 'kysely';

/*
 * A claimed server records which of its bot's holding places it takes (1..POOL_MAX_SERVERS_PER_BOT),
 * and no two servers a bot holds may take the same one. That unique index is what keeps a bot within
 * its limit when its claims race, with each claim one statement and no lock on the bot held between
 * round trips: of two claims that took the same place, the second fails and is tried again.
 * Servers held now are numbered 1, 2, … per bot.
 */
export async function up(db: Kysely<any>): Promise<void> {
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pool_servers_hold_slot').execute();
  await db.schema.alterTable('pool_servers').dropColumn('hold_slot').execute();
}
