import type { InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIALECTS, TEST_BOT_TOKEN, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

const hop = (n: number) => ({
  fromJobId: `job-${n}`,
  toJobId: `job-${n + 1}`,
  fromPlaceId: '109983668079237',
  toPlaceId: '109983668079237',
  success: true,
  latencyMs: 420,
  hopReason: 'auto_scan',
});

const hello = (ghostId: string) => ({ type: 'hello', payload: { ghostId, version: '1.0.0' } });
const heartbeats = (n: number) => Array.from({ length: n }, () => ({ type: 'heartbeat' }));

/** A bot's events call: the bot token, no Origin (bots are not browsers). */
function postEvents(
  t: TestAppSuite,
  ghostId: string,
  events: object[],
  headers: Record<string, string> = BOT,
  remoteAddress?: string,
) {
  return t.injectBare({
    method: 'POST',
    url: '/api/bot/events',
    headers,
    payload: { ghostId, events },
    ...(remoteAddress ? { remoteAddress } : {}),
  } as InjectOptions);
}

async function hopsStored(t: TestAppSuite): Promise<number> {
  await t.ctx.services.fleet.flush();
  const row = await t.ctx.db
    .selectFrom('fleet_hops')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: each bot's event budget (POST /api/bot/events and its socket together)`, () => {
    const t = useTestApp(dialect, {
      listen: true,
      signIn: true,
      env: { RATE_LIMIT_BOT_EVENTS: '10', RATE_LIMIT_BOT_EVENTS_BURST: '100' },
    });
    const sockets: WebSocket[] = [];
    afterEach(() => {
      for (const ws of sockets.splice(0)) ws.terminate();
    });

    async function botSocket(ghostId: string): Promise<TestClient> {
      const client = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(client.ws);
      client.send({ type: 'hello', payload: { ghostId, version: '1.0.0' }, id: 'h' });
      await client.next((f) => f.type === 'hello');
      return client;
    }

    it('answers a bot over its budget 429 with Retry-After, and keeps nothing of the refused batch', async () => {
      const first = await postEvents(t, 'ghost-1', [hello('ghost-1'), ...heartbeats(89)]);
      expect(first.statusCode, first.body).toBe(200);
      // 10 tokens left: a batch of 11 is refused whole, its hop included.
      const refused = await postEvents(t, 'ghost-1', [
        { type: 'server_hop', payload: hop(1) },
        ...heartbeats(10),
      ]);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({
        error: 'Too many events from ghost-1: at most 10 a second (bursts of 100); try again in 1 second',
      });
      expect(await hopsStored(t)).toBe(0);
      // The 10 left pass; then nothing until the bucket refills.
      const rest = await postEvents(t, 'ghost-1', [
        { type: 'server_hop', payload: hop(1) },
        ...heartbeats(9),
      ]);
      expect(rest.statusCode, rest.body).toBe(200);
      const empty = await postEvents(t, 'ghost-1', heartbeats(30));
      expect(empty.statusCode).toBe(429);
      expect(empty.headers['retry-after']).toBe('3');
      expect(empty.json().error).toMatch(/try again in 3 seconds$/);
      expect(await hopsStored(t)).toBe(1);

      // Another bot has its own budget.
      expect((await postEvents(t, 'ghost-2', [hello('ghost-2'), ...heartbeats(99)])).statusCode).toBe(200);
      // Refilled at 10 a second.
      t.clock.advance(3000);
      expect((await postEvents(t, 'ghost-1', heartbeats(30))).statusCode).toBe(200);
      expect((await postEvents(t, 'ghost-1', heartbeats(1))).statusCode).toBe(429);
    });

    it('refuses a batch larger than the burst, saying it can never pass', async () => {
      const res = await postEvents(t, 'ghost-1', [hello('ghost-1'), ...heartbeats(100)]);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.json()).toEqual({
        error:
          'A batch of 101 events is more than one bot may send at once (100): send at most 100 events per call',
      });
      expect(t.ctx.services.fleet.holds('ghost-1')).toBe(false);
    });

    it('counts socket frames against the same budget: over it, an error frame per dropped frame', async () => {
      const bot = await botSocket('ghost-1');
      // The hello came before the socket had a name: it took nothing. 95 of 100 go over HTTP.
      expect((await postEvents(t, 'ghost-1', heartbeats(95))).statusCode).toBe(200);
      for (let i = 0; i < 8; i++) bot.send({ type: 'heartbeat', payload: {}, id: `beat-${i}` });
      await bot.next((f) => (f.payload as { requestId?: string }).requestId === 'beat-7');
      // The 5 accepted are answered once handled, maybe after the refusals.
      await bot.next(() => bot.ofType('heartbeat').length === 5);
      expect(bot.ofType('heartbeat')).toHaveLength(5);
      const errors = bot.ofType('error').map((f) => f.payload);
      expect(errors).toEqual(
        ['beat-5', 'beat-6', 'beat-7'].map((requestId) => ({
          error:
            'Frame refused: ghost-1 is over its budget of 10 events a second; it was dropped, try again in 1 second',
          retryAfter: 1,
          requestId,
        })),
      );
      // Nothing left for HTTP either, until the bucket refills.
      expect((await postEvents(t, 'ghost-1', heartbeats(1))).statusCode).toBe(429);
      t.clock.advance(1000);
      const from = bot.frames.length;
      bot.send({ type: 'heartbeat', payload: {}, id: 'later' });
      await bot.next((f) => f.type === 'heartbeat', { from });
      expect(bot.ws.readyState).toBe(WebSocket.OPEN);
    });

    it('drops a refused hop frame: it never reaches the fleet', async () => {
      const bot = await botSocket('ghost-1');
      expect((await postEvents(t, 'ghost-1', heartbeats(100))).statusCode).toBe(200);
      bot.send({ type: 'server_hop', payload: hop(1), id: 'hop-1' });
      const refusal = await bot.next((f) => f.type === 'error');
      expect(refusal.payload).toMatchObject({ requestId: 'hop-1', retryAfter: 1 });
      expect(await hopsStored(t)).toBe(0);
    });
  });

  describe(`${dialect}: wrong bot tokens`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });

    it('answers 429 instead of 401 once an address has sent 20 wrong tokens in the window, a right one too', async () => {
      const address = '10.20.30.40';
      const wrong = { authorization: 'Bearer wrong-token' };
      const statuses: number[] = [];
      for (let i = 0; i < 300; i++) {
        const res = await postEvents(t, 'ghost-1', heartbeats(1), wrong, address);
        statuses.push(res.statusCode);
        if (i === 299) {
          expect(res.json()).toEqual({
            error: 'Too many wrong bot tokens from this address: try again in 60 seconds',
          });
          expect(res.headers['retry-after']).toBe('60');
        }
      }
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
      expect(statuses.slice(20)).toEqual(Array(280).fill(429));

      // The right token from that address is refused too, on every bot route and the socket upgrade.
      expect((await postEvents(t, 'ghost-1', [hello('ghost-1')], BOT, address)).statusCode).toBe(429);
      const claim = await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/claim',
        headers: BOT,
        payload: { ghostId: 'ghost-1' },
        remoteAddress: address,
      });
      expect(claim.statusCode).toBe(429);
      const upgrade = await t.injectBare({ method: 'GET', url: '/ws', headers: BOT, remoteAddress: address });
      expect(upgrade.statusCode).toBe(429);
      expect(upgrade.headers['retry-after']).toBe('60');
      // Other addresses are not affected.
      expect((await postEvents(t, 'ghost-1', [hello('ghost-1')], BOT, '10.20.30.41')).statusCode).toBe(200);

      // Audited: each wrong token, then one rate_limit_hit row counting the refusals.
      const logs = async (eventType: string) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/admin/security/audit-logs?eventType=${eventType}&limit=500`,
          headers: { cookie: t.cookie },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().logs as { ipAddress: string; details: Record<string, unknown> }[];
      };
      const failures = await logs('bot_auth');
      expect(failures).toHaveLength(20);
      expect(failures[0]).toMatchObject({ ipAddress: address, details: { reason: 'invalid bot token' } });
      const hits = await logs('rate_limit_hit');
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({
        ipAddress: address,
        details: { limitType: 'bot_auth', scope: 'ip', identifier: address, limit: 20, count: 283 },
      });

      // The window ends: the right token is let in again.
      t.clock.advance(60_000);
      expect((await postEvents(t, 'ghost-1', [hello('ghost-1')], BOT, address)).statusCode).toBe(200);
    });

    it('refuses the socket upgrade of an address past its wrong tokens', async () => {
      for (let i = 0; i < 20; i++) {
        await expect(
          connectTestClient(`${t.socketUrl}?token=wrong`, undefined, { origin: null }),
        ).rejects.toThrow('refused with 401');
      }
      await expect(
        connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, { origin: null }),
      ).rejects.toThrow('refused with 429');
    });
  });

  describe(`${dialect}: socket upgrades are limited per bot, not per address`, () => {
    const t = useTestApp(dialect, { listen: true });

    /** Opens a real socket on loopback and closes it again; resolves 'open' or the refusal status. */
    function upgrade(query: string, headers: Record<string, string> = BOT): Promise<string | number> {
      const ws = new WebSocket(`${t.socketUrl}${query}`, { headers });
      return new Promise((resolve) => {
        ws.once('open', () => {
          ws.close();
          resolve('open');
        });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve('error'));
      });
    }

    it('lets 200 bots with a valid token upgrade from one address; 121 strangers get 429', async () => {
      const named = await Promise.all(Array.from({ length: 150 }, (_, i) => upgrade(`?ghostId=ghost-${i}`)));
      expect(named.filter((r) => r !== 'open')).toEqual([]);
      // Without ?ghostId= a valid token is not counted at all.
      const unnamed = await Promise.all(Array.from({ length: 50 }, () => upgrade('')));
      expect(unnamed.filter((r) => r !== 'open')).toEqual([]);

      const strangers: (string | number)[] = [];
      for (let i = 0; i < 121; i++) strangers.push(await upgrade('', {}));
      expect(strangers.slice(0, 120)).toEqual(Array(120).fill(401));
      expect(strangers[120]).toBe(429);
      // The bots behind that address still get in.
      expect(await upgrade('?ghostId=ghost-late')).toBe('open');
    });

    it('counts upgrades naming one bot against that bot: its 121st in a minute is refused', async () => {
      const attempt = (ghostId: string) =>
        t.injectBare({
          method: 'GET',
          url: `/ws?ghostId=${ghostId}`,
          headers: BOT,
          remoteAddress: '10.1.1.1',
        });
      for (let i = 0; i < 120; i++) expect((await attempt('ghost-busy')).statusCode).not.toBe(429);
      expect((await attempt('ghost-busy')).statusCode).toBe(429);
      expect((await attempt('ghost-calm')).statusCode).not.toBe(429);
    });

    it('refuses a bad ?ghostId= with 400, and a hello naming another bot with an error and close 4400', async () => {
      const bad = await t.injectBare({ method: 'GET', url: '/ws?ghostId=bad%20ghost!', headers: BOT });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/ghostId/);

      const client = await connectTestClient(
        `${t.socketUrl}?ghostId=ghost-1&token=${TEST_BOT_TOKEN}`,
        undefined,
        {
          origin: null,
        },
      );
      client.send({ type: 'hello', payload: { ghostId: 'ghost-2', version: '1.0.0' }, id: 'h' });
      const refusal = await client.next((f) => f.type === 'error');
      expect(refusal.payload).toMatchObject({
        error: 'This socket was opened for ghost-1 (?ghostId=); its hello must name ghost-1',
      });
      expect((await client.waitClosed()).code).toBe(4400);

      const right = await connectTestClient(
        `${t.socketUrl}?ghostId=ghost-1&token=${TEST_BOT_TOKEN}`,
        undefined,
        {
          origin: null,
        },
      );
      right.send({ type: 'hello', payload: { ghostId: 'ghost-1', version: '1.0.0' }, id: 'h' });
      expect((await right.next((f) => f.type === 'hello')).payload).toMatchObject({ ghostId: 'ghost-1' });
      right.ws.terminate();
    });
  });
}
