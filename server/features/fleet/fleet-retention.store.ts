import type { Db } from '../../db/index.ts';
import { subtractFromHopRollups } from './fleet-hop-rollups.store.ts';

/*
 * The retention sweep's deletes, `limit` rows a statement: on SQLite a statement holds the event
 * loop (the driver is synchronous), so the sweep deletes in short statements and yields between them.
 */

/**
 * Deletes up to `limit` of the oldest hops made before `before` and takes them out of their rollups,
 * in one transaction; returns how many went.
 */
export async function deleteHopsBefore(db: Db, before: number, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Only the rows this statement deleted come back: another instance sweeping at once deletes,
    // and subtracts, the others.
    const gone = await trx
      .deleteFrom('fleet_hops')
      .where('seq', 'in', (eb) =>
        eb.selectFrom('fleet_hops').select('seq').where('created_at', '<', before).limit(limit),
      )
      .returning(['bot_id', 'hop_reason', 'success', 'latency_ms', 'created_at'])
      .execute();
    await subtractFromHopRollups(trx, gone);
    return gone.length;
  });
}

/** Deletes up to `limit` discoveries made before `before`; returns how many went. */
export async function deleteDiscoveriesBefore(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('fleet_discoveries')
    .where('seq', 'in', (eb) =>
      eb.selectFrom('fleet_discoveries').select('seq').where('created_at', '<', before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
