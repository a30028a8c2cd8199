import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import type { TestClient } from '../../test/socket-client.ts';
import {
  enroll,
  enrolled,
  helloSocket,
  poolCall,
  postEvents,
  SHARED,
  upgrade,
} from './bot-enrollment.fixtures.ts';

/*
 * Each bot its own credential (fleetdm's enroll secret -> node key): the shared bot token enrolls a
 * bot once, and from then on the bot's own botToken names it everywhere.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

for (const dialect of DIALECTS) {
  describe(`${dialect}: each bot its own credential`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    const sockets: TestClient[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.ws.terminate();
    });
    const open = async (token: string, ghostId: string) => {
      const client = await helloSocket(t.socketUrl, token, ghostId);
      sockets.push(client);
      return client;
    };

    it('enrolls a bot with the shared token; its botToken, stored hashed, names it on every call', async () => {
      expect((await enroll(t, 'ghost-1', null)).statusCode).toBe(401);
      expect((await enroll(t, 'ghost-1', 'not-the-token')).statusCode).toBe(401);
      expect((await enroll(t, 'bad id!')).statusCode).toBe(400);

      const res = await enroll(t, 'ghost-1');
      expect(res.statusCode, res.body).toBe(201);
      const { ghostId, botToken } = res.json() as { ghostId: string; botToken: string };
      expect(ghostId).toBe('ghost-1');
      expect(botToken).toMatch(/^bot_[\w-]{43}$/);
      const rows = await t.ctx.db.selectFrom('bot_credentials').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(sha256(botToken));
      expect(JSON.stringify(rows)).not.toContain(botToken);

      // Its events need no ghostId: the credential names the bot. Another bot's id is refused.
      const own = await postEvents(t, botToken);
      expect(own.statusCode, own.body).toBe(200);
      expect(t.ctx.services.fleet.holds('ghost-1')).toBe(true);
      expect((await postEvents(t, botToken, 'ghost-1')).statusCode).toBe(200);
      const other = await postEvents(t, botToken, 'ghost-2');
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({
        error: 'This botToken belongs to ghost-1: it cannot speak for ghost-2',
      });
      expect(t.ctx.services.fleet.holds('ghost-2')).toBe(false);

      // Its socket: a hello as itself is answered; as another bot, refused.
      const bot = await open(botToken, 'ghost-1');
      expect(bot.ofType('hello')[0]?.payload).toMatchObject({ ghostId: 'ghost-1' });
      const impostor = await open(botToken, 'ghost-2');
      expect(await impostor.waitClosed()).toMatchObject({ code: 4400 });
      expect(impostor.ofType('error')[0]?.payload).toEqual({
        error: "This socket's botToken belongs to ghost-1; its hello must name ghost-1",
      });
      expect(await upgrade(`${t.socketUrl}?ghostId=ghost-2`, botToken)).toBe('refused with 403');

      // The server pool: it claims for itself only.
      expect(
        (await poolCall(t, 'servers', botToken, { servers: [{ placeId: '1', jobId: 'job-a' }] })).statusCode,
      ).toBe(200);
      expect((await poolCall(t, 'claim', botToken, { ghostId: 'ghost-2' })).statusCode).toBe(403);
      expect((await poolCall(t, 'claim', botToken, { ghostId: 'ghost-1' })).statusCode).toBe(200);
    });

    it('never lets the shared token speak for an enrolled bot (events, socket, pool)', async () => {
      const legacy = await open(SHARED, 'ghost-1');
      const botToken = await enrolled(t, 'ghost-1');
      // The socket the shared token held for that id closes at once.
      expect(await legacy.waitClosed()).toEqual({ code: 4401, reason: 'Bot credential refused' });
      const text =
        'Bot ghost-1 has its own credential: authenticate with its botToken, not the shared bot token';
      expect(legacy.ofType('error').at(-1)?.payload).toEqual({ error: text });

      const events = await postEvents(t, SHARED, 'ghost-1');
      expect(events.statusCode).toBe(403);
      expect(events.json()).toEqual({ error: text });
      const socket = await open(SHARED, 'ghost-1');
      expect(await socket.waitClosed()).toEqual({ code: 4401, reason: 'Bot credential refused' });
      expect(socket.ofType('error')[0]?.payload).toEqual({ error: text });
      expect((await poolCall(t, 'claim', SHARED, { ghostId: 'ghost-1' })).statusCode).toBe(403);
      // The shared token still speaks for bots not enrolled (BOT_TOKEN_LEGACY defaults to true).
      expect((await postEvents(t, SHARED, 'ghost-2')).statusCode).toBe(200);
      const missing = await postEvents(t, SHARED);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ error: 'ghostId is required with the shared bot token' });
      expect((await postEvents(t, botToken)).statusCode).toBe(200);
    });

    it('enrolls an enrolled id again only with its current botToken, which replaces it at once', async () => {
      const first = await enrolled(t, 'ghost-1');
      const again = await enroll(t, 'ghost-1');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error:
          'Bot ghost-1 is already enrolled: enroll it again with its current botToken as the Bearer, or have the administrator revoke it first',
      });
      const bot = await open(first, 'ghost-1');

      expect((await enroll(t, 'ghost-2', first)).statusCode).toBe(403);
      const renewed = await enroll(t, 'ghost-1', first);
      expect(renewed.statusCode, renewed.body).toBe(201);
      const second = (renewed.json() as { botToken: string }).botToken;
      expect(second).not.toBe(first);
      expect(await bot.waitClosed()).toEqual({ code: 4401, reason: 'Bot credential refused' });
      expect(bot.ofType('error').at(-1)?.payload).toEqual({
        error: 'This bot enrolled again: reconnect with its new botToken',
      });
      expect((await postEvents(t, first)).statusCode).toBe(401);
      expect(await upgrade(t.socketUrl, first)).toBe('refused with 401');
      expect((await postEvents(t, second)).statusCode).toBe(200);
      expect((await enroll(t, 'ghost-1', first)).statusCode).toBe(401);
    });

    it('audits each enrollment without its botToken', async () => {
      const botToken = await enrolled(t, 'ghost-1');
      const rows = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'bot_enrolled')
        .execute();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.details)).toEqual({ ghostId: 'ghost-1', with: 'the shared bot token' });
      expect(JSON.stringify(rows)).not.toContain(botToken);
    });
  });

  describe(`${dialect}: enrollment limits`, () => {
    const t = useTestApp(dialect, { env: { FLEET_MAX_BOTS: '2', RATE_LIMIT_BOT_ENROLL: '4' } });

    it('refuses a new id past FLEET_MAX_BOTS without evicting anyone, and limits enrollments per address', async () => {
      const a = await enrolled(t, 'ghost-a');
      const b = await enrolled(t, 'ghost-b');
      const full = await enroll(t, 'ghost-c');
      expect(full.statusCode).toBe(409);
      expect(full.json()).toEqual({ error: 'The fleet is full: at most 2 scanners' });
      expect((await postEvents(t, a)).statusCode).toBe(200);
      expect((await postEvents(t, b)).statusCode).toBe(200);
      // The enrolled bots hold both places: a bot without a credential finds none.
      expect((await postEvents(t, SHARED, 'stranger')).statusCode).toBe(409);

      expect((await enroll(t, 'ghost-d')).statusCode).toBe(409);
      const limited = await enroll(t, 'ghost-e');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await enroll(t, 'ghost-e', SHARED, '10.1.2.3')).statusCode).toBe(409);
    });
  });

  describe(`${dialect}: BOT_TOKEN_LEGACY=false`, () => {
    const t = useTestApp(dialect, { listen: true, env: { BOT_TOKEN_LEGACY: 'false' } });

    it('lets the shared token enroll and nothing else', async () => {
      const text =
        'The shared bot token only enrolls bots now (BOT_TOKEN_LEGACY is off): POST /api/bot/enroll, then use the botToken it returns';
      const events = await postEvents(t, SHARED, 'ghost-1');
      expect(events.statusCode).toBe(401);
      expect(events.json()).toEqual({ error: text });
      expect(
        (await poolCall(t, 'servers', SHARED, { servers: [{ placeId: '1', jobId: 'j' }] })).statusCode,
      ).toBe(401);
      expect(await upgrade(t.socketUrl, SHARED)).toBe('refused with 401');

      const botToken = await enrolled(t, 'ghost-1');
      expect((await postEvents(t, botToken)).statusCode).toBe(200);
      expect(await upgrade(t.socketUrl, botToken)).toBe('open');
    });
  });
}
