import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, type TestApp } from '../../test/helper.ts';
import {
  addPoolServers,
  claimServer,
  NO_FLEET_LINK,
  POOL_CLAIM_TEXTS,
  type PoolFleetLink,
  releaseServer,
} from './server-pool.service.ts';

/*
 * What a claim and a release cost the database: PostgreSQL answers each statement over the network,
 * so at a fleet's rate a call must be one statement and hold no transaction open while Node works
 * (issue 39). That claims racing from many bots and instances still hand each server once and no
 * bot more than its limit is in server-pool.test.ts.
 */

const PLACE = '109983668079237';
const CALLER = { ip: '127.0.0.1' };
/** Statements about the pool, and transaction control (a transaction is round trips of its own). */
const POOL_OR_TRANSACTION =
  /pool_|^\s*(begin|commit|rollback|start transaction|savepoint|release savepoint)/i;

async function addServers(t: TestApp, count: number, prefix = 'job') {
  await addPoolServers(
    t.ctx,
    Array.from({ length: count }, (_, i) => ({ placeId: PLACE, jobId: `${prefix}-${i}` })),
  );
}

/** Every bot holds the fleet's place: the service is called without the fleet's bookkeeping around it. */
const ANY_BOT: PoolFleetLink = { ...NO_FLEET_LINK, holds: () => true };

for (const dialect of DIALECTS) {
  describe(`${dialect}: server pool round trips`, () => {
    let t: TestApp;
    // The statements of the work measured, not the app's own in the meantime (its start-up prune).
    const measured = new AsyncLocalStorage<string[]>();
    /** The pool statements `work` sends (and the transaction control), in order. */
    async function sentBy(work: () => Promise<unknown>): Promise<string[]> {
      const sent: string[] = [];
      await measured.run(sent, work);
      return sent.filter((sql) => POOL_OR_TRANSACTION.test(sql));
    }
    beforeEach(async () => {
      t = await buildTestApp(dialect, {}, { onStatement: (sql) => measured.getStore()?.push(sql) });
    });
    afterEach(async () => {
      await t?.close();
    });

    it('claims a server in one statement, holding no transaction open', async () => {
      await addServers(t, 3);
      for (const ghostId of ['ghost-1', 'ghost-1', 'ghost-2']) {
        const sent = await sentBy(() => claimServer(t.ctx, { ghostId }, ANY_BOT));
        expect(sent, sent.join('\n')).toHaveLength(1);
      }
      // One of a place, too.
      await addServers(t, 1, 'other');
      const sent = await sentBy(() => claimServer(t.ctx, { ghostId: 'ghost-3', placeId: PLACE }, ANY_BOT));
      expect(sent, sent.join('\n')).toHaveLength(1);
    });

    it('refuses a bot at its limit in one statement on PostgreSQL (two on SQLite), with the same 409', async () => {
      await addServers(t, 5);
      for (let i = 0; i < 3; i++) await claimServer(t.ctx, { ghostId: 'ghost-1' }, ANY_BOT);
      let refusal: unknown;
      const sent = await sentBy(() =>
        claimServer(t.ctx, { ghostId: 'ghost-1' }, ANY_BOT).catch((error: unknown) => {
          refusal = error;
        }),
      );
      expect(refusal).toMatchObject({
        statusCode: 409,
        message: POOL_CLAIM_TEXTS.holdsTooMany('ghost-1', 3),
      });
      expect(sent, sent.join('\n')).toHaveLength(dialect === 'postgres' ? 1 : 2);
    });

    it('releases a server in one statement on PostgreSQL; SQLite writes the server and the bot, no more', async () => {
      await addServers(t, 2);
      for (const outcome of ['ok', 'full'] as const) {
        const { server } = await claimServer(t.ctx, { ghostId: 'ghost-1' }, ANY_BOT);
        const sent = await sentBy(() =>
          releaseServer(t.ctx, { ghostId: 'ghost-1', jobId: server.jobId, outcome }, CALLER, ANY_BOT),
        );
        const writes = sent.filter((sql) => /pool_/.test(sql));
        expect(writes, sent.join('\n')).toHaveLength(dialect === 'postgres' ? 1 : 2);
        if (dialect === 'postgres') expect(sent, sent.join('\n')).toHaveLength(1);
      }
    });

    it('lets claims that find the pool empty at once share one look for expired leases', async () => {
      await addServers(t, 1);
      await claimServer(t.ctx, { ghostId: 'ghost-1' }, ANY_BOT);
      const sent = await sentBy(() =>
        Promise.allSettled(
          Array.from({ length: 20 }, (_, i) => claimServer(t.ctx, { ghostId: `ghost-${i + 2}` }, ANY_BOT)),
        ),
      );
      expect(sent.filter((sql) => /join "pool_bots"/i.test(sql))).toHaveLength(1);
    });
  });
}
