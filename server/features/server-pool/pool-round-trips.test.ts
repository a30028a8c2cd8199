import { AsyncLocalStorage } from 'node:async_hooks';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../../test/helper.ts';
import {
  claimServer,
  NO_FLEET_LINK,
  POOL_CLAIM_TEXTS,
  type PoolFleetLink,
  releaseServer,
} from './server-pool.service.ts';

/*
 * What a claim and a release cost the database: PostgreSQL answers each statement over the network,
 * so at a fleet's rate a call must be one statement and hold no transaction open while Node works
 * (issue 39). Also: claims racing from many bots and instances still hand each server once and
 * no bot more than its limit.
 */

const PLACE = '109983668079237';
const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const CALLER = { ip: '127.0.0.1' };
/** Statements about the pool, and transaction control (a transaction is round trips of its own). */
const POOL_OR_TRANSACTION =
  /pool_|^\s*(begin|commit|rollback|start transaction|savepoint|release savepoint)/i;

function botCall(t: TestApp, url: string, payload: unknown) {
  return t.injectBare({
    method: 'POST',
    url: `/api/server-pool/${url}`,
    payload,
    headers: BOT,
  } as InjectOptions);
}

async function addServers(t: TestApp, count: number, prefix = 'job') {
  for (let from = 0; from < count; from += 500) {
    const servers = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
      placeId: PLACE,
      jobId: `${prefix}-${from + i}`,
    }));
    const res = await botCall(t, 'servers', { servers });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function sayHello(t: TestApp, ghostIds: string[]) {
  await Promise.all(
    ghostIds.map(async (ghostId) => {
      const res = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: BOT,
        payload: { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }] },
      });
      expect(res.statusCode, res.body).toBe(200);
    }),
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

    it('hands 200 servers to 50 bots claiming 5 times each at once: each bot 3, no server twice', async () => {
      await raceClaimsOfManyBots([t]);
    });
  });
}

/** 50 bots claim 5 times each at once (spread over the apps) over 200 servers: 150 win, each bot 3. */
async function raceClaimsOfManyBots(apps: [TestApp, ...TestApp[]]) {
  const [t] = apps;
  await addServers(t, 200);
  const bots = Array.from({ length: 50 }, (_, i) => `ghost-${i}`);
  for (const app of apps) await sayHello(app, bots);
  const claims = await Promise.all(
    Array.from({ length: 250 }, async (_, i) => {
      const res = await botCall(apps[i % apps.length]!, 'claim', { ghostId: bots[i % 50] });
      return { ghostId: bots[i % 50]!, status: res.statusCode, body: res.json() };
    }),
  );
  const won = claims.filter((c) => c.status === 200);
  const refused = claims.filter((c) => c.status !== 200);
  expect(refused.filter((c) => c.status !== 409).map((c) => `${c.status} ${JSON.stringify(c.body)}`)).toEqual(
    [],
  );
  expect(won).toHaveLength(150);
  const jobIds = won.map((c) => c.body.server.jobId as string);
  expect(new Set(jobIds).size).toBe(150);
  const rows = await t.ctx.db
    .selectFrom('pool_servers')
    .select(['job_id', 'assigned_to'])
    .where('status', '=', 'assigned')
    .execute();
  expect(rows).toHaveLength(150);
  const perBot = new Map<string, number>();
  for (const r of rows) perBot.set(r.assigned_to ?? '', (perBot.get(r.assigned_to ?? '') ?? 0) + 1);
  expect([...perBot.values()].every((n) => n === 3)).toBe(true);
  const holder = new Map(rows.map((r) => [r.job_id, r.assigned_to]));
  expect(won.filter((c) => holder.get(c.body.server.jobId) !== c.ghostId)).toEqual([]);
}

if (DIALECTS.includes('postgres')) {
  describe('postgres: many bots claiming over two instances on one database', () => {
    let first: TestApp;
    let second: TestApp;
    beforeEach(async () => {
      first = await buildTestApp('postgres');
      second = await buildTestApp('postgres', {}, { joinSchemaOf: first });
    });
    afterEach(async () => {
      await second?.close();
      await first?.close();
    });

    it('hands 200 servers to 50 bots claiming 5 times each on two instances: each bot 3, no server twice', async () => {
      await raceClaimsOfManyBots([first, second]);
    });
  });
}
