import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../db/index.ts';
import { migrations } from '../../db/migrations/index.ts';
import { claimAvailableServer } from './pool-claims.store.ts';
import { countPoolServers } from './server-pool.store.ts';

/*
 * The pool-at-scale migration on a pool in use: the servers bots hold get their holding places, the
 * deleted ones their count, so the limit and the figures hold from the first claim after the upgrade.
 */

const BEFORE = '2026_12_05_A0001_operator_alerts';

describe('the pool-at-scale migration on a pool in use', () => {
  it('numbers the servers each bot holds, counts the deleted ones, and keeps the limit', async () => {
    const { db } = createDb(':memory:');
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const server = (jobId: string, status: string, assignedTo: string | null = null) => ({
      job_id: jobId,
      place_id: '1',
      status,
      assigned_to: assignedTo,
      assigned_at: assignedTo ? 5 : null,
      deleted_at: status === 'deleted' ? 5 : null,
      created_at: 1,
      updated_at: 1,
    });
    await db
      .insertInto('pool_servers')
      .values([
        server('a-1', 'assigned', 'ghost-a'),
        server('b-1', 'assigned', 'ghost-b'),
        server('a-2', 'assigned', 'ghost-a'),
        server('gone-1', 'deleted'),
        server('gone-2', 'deleted'),
        server('free-1', 'available'),
        server('free-2', 'available'),
      ] as never)
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const held = await db
      .selectFrom('pool_servers')
      .select(['job_id', 'hold_slot'])
      .where('status', '=', 'assigned')
      .orderBy('job_id')
      .execute();
    expect(held).toEqual([
      { job_id: 'a-1', hold_slot: 1 },
      { job_id: 'a-2', hold_slot: 2 },
      { job_id: 'b-1', hold_slot: 1 },
    ]);
    expect(await countPoolServers(db)).toEqual({
      total: 5,
      byStatus: { available: 2, assigned: 3, deleted: 2 },
      activeBots: 2,
    });
    const claim = { ghostId: 'ghost-a', placeId: undefined, max: 3 };
    const third = await claimAvailableServer(db, 'sqlite', claim, 10);
    expect(third).toMatchObject({ server: { job_id: 'free-1', hold_slot: 3 } });
    expect(await claimAvailableServer(db, 'sqlite', claim, 10)).toEqual({ refused: 'limit' });
    await db.destroy();
  });
});
