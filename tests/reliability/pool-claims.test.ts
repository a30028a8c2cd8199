import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../../server/test/helper.ts';

/*
 * 200 concurrent claims for 100 servers through the real HTTP server (a loopback port), from 200
 * distinct bots that each said hello first. It holds when exactly 100 claims succeed, no server is
 * handed out twice, the other 100 get a clear 4xx with an {error}, and the pool's own rows agree.
 */

const SERVERS = 100;
const BOTS = 200;
const PLACE = '109983668079237';

for (const dialect of DIALECTS) {
  describe(`${dialect}: ${BOTS} concurrent pool claims for ${SERVERS} servers`, () => {
    let t: TestApp;
    let url = '';
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_BOT_TOKEN}` },
        body: JSON.stringify(body),
      });

    beforeAll(async () => {
      t = await buildTestApp(dialect, {
        FLEET_MAX_BOTS: String(BOTS * 2),
        RATE_LIMIT_BOT_EVENTS: '100000',
        RATE_LIMIT_BOT_EVENTS_BURST: '100000',
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('hands each server to one bot only; the losers get a clear 4xx', async () => {
      const added = await post('/api/server-pool/servers', {
        servers: Array.from({ length: SERVERS }, (_, i) => ({
          placeId: PLACE,
          jobId: `claim-job-${i}`,
          playing: 1,
          maxPlayers: 8,
        })),
      });
      expect(added.status, await added.clone().text()).toBe(200);
      expect(((await added.json()) as { added: number }).added).toBe(SERVERS);

      const bots = Array.from({ length: BOTS }, (_, i) => `claim-bot-${i}`);
      const hellos = await Promise.all(
        bots.map((ghostId) =>
          post('/api/bot/events', {
            ghostId,
            events: [{ type: 'hello', payload: { ghostId, version: '1' } }],
          }).then(async (r) => ({
            status: r.status,
            body: await r.text(),
          })),
        ),
      );
      const refusedHellos = hellos.filter((h) => h.status !== 200);
      expect(refusedHellos.slice(0, 3), `${refusedHellos.length} of ${BOTS} hellos refused`).toEqual([]);

      const claims = await Promise.all(
        bots.map((ghostId) =>
          post('/api/server-pool/claim', { ghostId }).then(async (r) => ({
            ghostId,
            status: r.status,
            body: (await r.json()) as Record<string, unknown>,
          })),
        ),
      );
      const statuses = new Map<number, number>();
      for (const c of claims) statuses.set(c.status, (statuses.get(c.status) ?? 0) + 1);
      console.log(
        `${dialect}: ${BOTS} claims for ${SERVERS} servers answered ${[...statuses].map(([s, n]) => `${n}x ${s}`).join(', ')}`,
      );

      const won = claims.filter((c) => c.status === 200);
      const lost = claims.filter((c) => c.status !== 200);
      const jobIds = won.map((c) => (c.body.server as { jobId: string }).jobId);
      const handedTwice = jobIds.filter((id, i) => jobIds.indexOf(id) !== i);
      expect(handedTwice, 'servers handed out twice').toEqual([]);
      expect(won.length).toBe(SERVERS);
      expect(
        lost
          .filter((c) => c.status >= 500 || c.status < 400)
          .map((c) => `${c.status} ${JSON.stringify(c.body)}`),
      ).toEqual([]);
      expect(lost.filter((c) => typeof c.body.error !== 'string' || c.body.error.length === 0)).toEqual([]);
      // Each winner holds what it was told; the pool's rows agree.
      const assigned = await t.ctx.db
        .selectFrom('pool_servers')
        .select(['job_id', 'assigned_to'])
        .where('status', '=', 'assigned')
        .execute();
      expect(assigned.length).toBe(SERVERS);
      const holder = new Map(assigned.map((r) => [r.job_id, r.assigned_to]));
      expect(won.filter((c) => holder.get((c.body.server as { jobId: string }).jobId) !== c.ghostId)).toEqual(
        [],
      );
    });
  });
}
