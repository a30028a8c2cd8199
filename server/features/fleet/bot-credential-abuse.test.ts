import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, type TestApp, useTestApp } from '../../test/helper.ts';
import type { TestClient } from '../../test/socket-client.ts';
import { enroll, enrolled, helloSocket, postEvents, SHARED, upgrade } from './bot-enrollment.fixtures.ts';

/*
 * The abuse issue's finding 2: 1,000 made-up bot ids from one address filled FLEET_MAX_BOTS and
 * locked every real bot out. Enrolled bots hold their places, and the administrator revokes one.
 */
const FLOOD = 1_000;

function countBy(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** A heartbeat with an id is answered once handled: the socket is in and heard. */
async function heard(bot: TestClient, id: string): Promise<boolean> {
  bot.send({ type: 'heartbeat', payload: {}, id });
  const from = bot.frames.length;
  const answer = await bot.next((f) => f.type === 'heartbeat' || f.type === 'error', { from });
  return answer.type === 'heartbeat';
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: made-up bot ids against an enrolled fleet`, () => {
    const t = useTestApp(dialect, { listen: true, env: { FLEET_MAX_BOTS: '100' } });
    const sockets: TestClient[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.ws.terminate();
    });

    it(`leaves the enrolled fleet connected after ${FLOOD} made-up ids through the shared token and ${FLOOD} enrollments`, async () => {
      const tokens = new Map<string, string>();
      for (const id of ['ghost-1', 'ghost-2', 'ghost-3', 'ghost-late']) tokens.set(id, await enrolled(t, id));
      for (const id of ['ghost-1', 'ghost-2', 'ghost-3']) {
        const bot = await helloSocket(t.socketUrl, tokens.get(id)!, id);
        sockets.push(bot);
        expect(bot.ofType('hello')).toHaveLength(1);
      }

      // Through the shared token (BOT_TOKEN_LEGACY): only the places no enrollment holds.
      const legacy: number[] = [];
      for (let i = 0; i < FLOOD; i++) legacy.push((await postEvents(t, SHARED, `made-up-${i}`)).statusCode);
      expect(countBy(legacy)).toEqual({ 200: 96, 409: FLOOD - 96 });

      // Through enrollment, from five addresses: the cap on enrollments, then each address's limit.
      const enrollments: number[] = [];
      for (let i = 0; i < FLOOD; i++)
        enrollments.push((await enroll(t, `fake-${i}`, SHARED, `10.0.0.${i % 5}`)).statusCode);
      expect(countBy(enrollments)).toEqual({ 201: 96, 409: 404, 429: 500 });

      // The enrolled bots are still connected and heard, and nobody was evicted.
      for (const [n, bot] of sockets.entries()) {
        expect(bot.closed).toBeNull();
        expect(await heard(bot, `beat-${n}`)).toBe(true);
      }
      for (const id of ['ghost-1', 'ghost-2', 'ghost-3']) expect(t.ctx.services.fleet.holds(id)).toBe(true);
      // An enrolled bot that was away joins now, and an enrolled bot opens a second socket.
      const late = await helloSocket(t.socketUrl, tokens.get('ghost-late')!, 'ghost-late');
      sockets.push(late);
      expect(late.ofType('hello')).toHaveLength(1);
      expect(await heard(late, 'late')).toBe(true);
      const again = await helloSocket(t.socketUrl, tokens.get('ghost-1')!, 'ghost-1');
      sockets.push(again);
      expect(again.ofType('hello')).toHaveLength(1);
      // Still no place for another made-up id without a credential.
      expect((await postEvents(t, SHARED, 'made-up-again')).statusCode).toBe(409);
    }, 60_000);
  });

  describe(`${dialect}: revoking a bot's credential`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    const sockets: TestClient[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.ws.terminate();
    });
    const list = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/fleet/enrollments', headers: { cookie: t.cookie } });
    const revoke = (ghostId: string, cookie: string | null = t.cookie) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/fleet/enrollments/${ghostId}`,
        headers: cookie ? { cookie } : {},
      });

    it('lists the enrolled bots, and a revoked one is closed at once and refused everywhere', async () => {
      const one = await enrolled(t, 'ghost-1');
      const enrolledAt = new Date(t.ctx.now()).toISOString();
      t.clock.advance(5_000);
      const two = await enrolled(t, 'ghost-2');
      const bot = await helloSocket(t.socketUrl, one, 'ghost-1');
      sockets.push(bot);
      expect((await postEvents(t, two, undefined, undefined, '10.9.8.7')).statusCode).toBe(200);

      const listed = await list();
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toEqual({
        enrolledBots: [
          {
            ghostId: 'ghost-1',
            enrolledAt,
            enrolledAddress: '127.0.0.1',
            lastSeenAt: new Date(t.ctx.now()).toISOString(),
            lastAddress: '127.0.0.1',
          },
          {
            ghostId: 'ghost-2',
            enrolledAt: new Date(t.ctx.now()).toISOString(),
            enrolledAddress: '127.0.0.1',
            lastSeenAt: new Date(t.ctx.now()).toISOString(),
            lastAddress: '10.9.8.7',
          },
        ],
      });

      // A bot on a socket is seen again at each liveness sweep (written at most once a minute).
      t.clock.advance(120_000);
      await t.ctx.services.transport.connections.sweep(t.app.log);
      const seen = (await list()).json().enrolledBots[0];
      expect(seen.lastSeenAt).toBe(new Date(t.ctx.now()).toISOString());

      expect((await revoke('ghost-1', null)).statusCode).toBe(401);
      const revoked = await revoke('ghost-1');
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(revoked.json()).toEqual({ success: true, ghostId: 'ghost-1' });
      expect(await bot.waitClosed()).toEqual({ code: 4401, reason: 'Bot credential refused' });
      expect(bot.ofType('error').at(-1)?.payload).toEqual({
        error: "This bot's credential was revoked by the administrator",
      });
      expect((await postEvents(t, one)).statusCode).toBe(401);
      expect(await upgrade(t.socketUrl, one)).toBe('refused with 401');
      // Nor does the shared token speak for it.
      expect((await postEvents(t, SHARED, 'ghost-1')).statusCode).toBe(403);
      expect((await list()).json().enrolledBots.map((b: { ghostId: string }) => b.ghostId)).toEqual([
        'ghost-2',
      ]);
      const twice = await revoke('ghost-1');
      expect(twice.statusCode).toBe(404);
      expect(twice.json()).toEqual({ error: 'Bot ghost-1 is not enrolled' });
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .select('details')
        .where('event_type', '=', 'bot_revoked')
        .execute();
      expect(audit.map((row) => JSON.parse(row.details))).toEqual([{ ghostId: 'ghost-1' }]);

      // Its machine may enroll again with the enrollment secret, and gets a new credential.
      const back = await enroll(t, 'ghost-1');
      expect(back.statusCode, back.body).toBe(201);
      expect((await postEvents(t, back.json().botToken)).statusCode).toBe(200);
    });
  });
}

const REDIS_URL = process.env.TEST_REDIS_URL;

// Two instances on one PostgreSQL database: revoking on one refuses the credential on the other at once.
describe.runIf(DIALECTS.includes('postgres'))('postgres: revoking on another instance', () => {
  for (const bus of REDIS_URL ? (['redis', 'down'] as const) : (['down'] as const)) {
    describe(bus === 'redis' ? 'with the Redis bus' : 'with no bus between them', () => {
      let first: TestApp;
      let second: TestApp;
      const sockets: TestClient[] = [];
      beforeEach(async () => {
        const env: Record<string, string> = bus === 'redis' ? { REDIS_URL: REDIS_URL ?? '' } : {};
        first = await buildTestApp('postgres', env);
        second = await buildTestApp('postgres', env, { joinSchemaOf: first });
        await second.app.listen({ port: 0, host: '127.0.0.1' });
      });
      afterEach(async () => {
        for (const s of sockets.splice(0)) s.ws.terminate();
        await second.close();
        await first.close();
      });

      it('closes its socket there (at once over the bus, else at the liveness sweep) and refuses its calls at once', async () => {
        const token = await enrolled(first, 'ghost-1');
        const url = `ws://127.0.0.1:${(second.app.server.address() as AddressInfo).port}/ws`;
        const bot = await helloSocket(url, token, 'ghost-1');
        sockets.push(bot);
        expect((await postEvents(second, token)).statusCode).toBe(200);

        const res = await first.app.inject({
          method: 'DELETE',
          url: '/api/admin/fleet/enrollments/ghost-1',
          headers: { cookie: await first.adminCookie() },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect((await postEvents(second, token)).statusCode).toBe(401);
        expect(await upgrade(url, token)).toBe('refused with 401');
        if (bus === 'down') {
          expect(bot.closed).toBeNull();
          await second.ctx.services.transport.connections.sweep(second.app.log);
        }
        expect((await bot.waitClosed()).code).toBe(4401);
      });
    });
  }
});
