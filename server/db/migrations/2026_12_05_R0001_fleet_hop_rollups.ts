import { type Kysely, sql } from 'kysely';

/*
 * Hop totals rolled up per UTC day, bot, reason and outcome (issue 39): what the fleet's totals are
 * read from at start and after a retention sweep, instead of a GROUP BY over every hop kept. The
 * batched writer keeps it in the transaction that writes the hops; the sweep subtracts what it deletes.
 * Filled here once from the hops already kept, a day per statement: a database holding a week of a
 * 70-bot fleet (8.5M hops) took 8-30 s to migrate on SQLite, 5-8 s on PostgreSQL (docs/rules-fleet.md).
 */

const DAY_MS = 86_400_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fleet_hop_rollups')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('hop_reason', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('hops', 'bigint', (c) => c.notNull())
    .addColumn('latency_sum', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('fleet_hop_rollups_pk', ['day', 'bot_id', 'hop_reason', 'success'])
    .execute();
  await fillHopRollups(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fleet_hop_rollups').execute();
}

/**
 * Rolls up every hop kept into fleet_hop_rollups (empty before), one UTC day per statement: each
 * reads a range of the created_at index, so none holds a whole week's grouping at once.
 */
export async function fillHopRollups(db: Kysely<any>): Promise<void> {
  const span = await db
    .selectFrom('fleet_hops')
    .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
    .executeTakeFirst();
  if (span?.first === null || span?.first === undefined) return;
  const firstDay = Math.floor(Number(span.first) / DAY_MS);
  const lastDay = Math.floor(Number(span.last) / DAY_MS);
  for (let day = firstDay; day <= lastDay; day++) {
    // Integer division on both databases (bigint / integer): the UTC day number.
    await sql`
      INSERT INTO fleet_hop_rollups (day, bot_id, hop_reason, success, hops, latency_sum)
      SELECT ${sql.lit(day)}, bot_id, hop_reason, success, count(*), sum(latency_ms)
      FROM fleet_hops
      WHERE created_at >= ${day * DAY_MS} AND created_at < ${(day + 1) * DAY_MS}
      GROUP BY bot_id, hop_reason, success`.execute(db);
  }
}
