import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { forgetSilentBots } from './fleet-removal.service.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const PLACE = '109983668079237';
const DAY_MS = 24 * 60 * 60 * 1000;

const hop = {
  fromJobId: null,
  toJobId: 'job-1',
  fromPlaceId: null,
  toPlaceId: PLACE,
  success: true,
  latencyMs: 50,
  hopReason: 'auto_scan',
};

/** What a bot sends: the bot token, no Origin. */
const botPost = (t: TestApp, url: string, payload: unknown) =>
  t.injectBare({ method: 'POST', url, headers: BOT, payload } as InjectOptions);

const events = (t: TestApp, ghostId: string, list: unknown[] = [{ type: 'heartbeat' }]) =>
  botPost(t, '/api/bot/events', { ghostId, events: list });

const removeBot = (t: TestApp, ghostId: string, cookie: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/admin/fleet/bots/${encodeURIComponent(ghostId)}`,
    headers: { cookie },
  });

const scannerIds = (t: TestApp) => t.ctx.services.fleet.backfill(false).scanners.map((s) => s.botId);

const scannerRows = async (t: TestApp) =>
  (await t.ctx.db.selectFrom('fleet_scanners').select('ghost_id').orderBy('ghost_id').execute()).map(
    (r) => r.ghost_id,
  );

for (const dialect of DIALECTS) {
  describe(`${dialect}: removing a bot from the fleet`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    const sockets: WebSocket[] = [];
    afterEach(() => {
      for (const ws of sockets.splice(0)) ws.terminate();
    });

    async function botSocket(): Promise<TestClient> {
      const client = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(client.ws);
      return client;
    }

    async function hello(ghostId: string): Promise<TestClient> {
      const bot = await botSocket();
      bot.send({ type: 'hello', payload: { ghostId, version: '1.0' } });
      await bot.next((f) => f.type === 'config');
      return bot;
    }

    it('forgets the bot, its configuration and its leases, keeps its history, and audits it', async () => {
      expect((await events(t, 'ghost-1', [{ type: 'server_hop', payload: hop }])).statusCode).toBe(200);
      expect((await events(t, 'ghost-2')).statusCode).toBe(200);
      const added = await botPost(t, '/api/server-pool/servers', {
        servers: [
          { placeId: PLACE, jobId: 'job-a' },
          { placeId: PLACE, jobId: 'job-b' },
        ],
      });
      expect(added.statusCode, added.body).toBe(200);
      expect((await botPost(t, '/api/server-pool/claim', { ghostId: 'ghost-1' })).statusCode).toBe(200);
      expect((await botPost(t, '/api/server-pool/claim', { ghostId: 'ghost-2' })).statusCode).toBe(200);
      const configs = await t.app.inject({
        method: 'GET',
        url: '/api/admin/configurations',
        headers: { cookie: t.cookie },
      });
      expect(configs.json().configurations.map((c: { botId: string }) => c.botId)).toEqual([
        'ghost-1',
        'ghost-2',
      ]);
      await t.ctx.services.fleet.flush();

      const res = await removeBot(t, 'ghost-1', t.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, ghostId: 'ghost-1', releasedServers: 1 });

      expect(scannerIds(t)).toEqual(['ghost-2']);
      expect(await scannerRows(t)).toEqual(['ghost-2']);
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/admin/configurations',
        headers: { cookie: t.cookie },
      });
      expect(after.json().configurations.map((c: { botId: string }) => c.botId)).toEqual(['ghost-2']);
      const stats = await t.app.inject({
        method: 'GET',
        url: '/api/server-pool/stats',
        headers: { cookie: t.cookie },
      });
      expect(stats.json().stats.byStatus).toMatchObject({ available: 1, assigned: 1 });
      // Its history stays.
      expect(t.ctx.services.fleet.backfill(false).hops.map((h) => h.botId)).toEqual(['ghost-1']);
      const hops = await t.ctx.db.selectFrom('fleet_hops').select('bot_id').execute();
      expect(hops.map((h) => h.bot_id)).toEqual(['ghost-1']);
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'bot_removed')
        .execute();
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.details)).toEqual({
        ghostId: 'ghost-1',
        releasedServers: 1,
        reason: 'removed by the administrator',
      });
    });

    it('answers 404 for a bot it does not hold, 400 for a malformed id, and needs the admin session', async () => {
      const unknown = await removeBot(t, 'ghost-9', t.cookie);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Unknown bot: ghost-9' });
      const malformed = await removeBot(t, 'ghost:9', t.cookie);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error).toMatch(/ghostId may hold/);
      await events(t, 'ghost-1');
      const anonymous = await removeBot(t, 'ghost-1', '');
      expect(anonymous.statusCode).toBe(401);
      const forged = await t.app.inject({
        method: 'DELETE',
        url: '/api/admin/fleet/bots/ghost-1',
        headers: { cookie: t.cookie, origin: 'http://evil.example' },
      });
      expect(forged.statusCode).toBe(403);
      expect(scannerIds(t)).toEqual(['ghost-1']);
      // Removed once: the second time it is unknown.
      expect((await removeBot(t, 'ghost-1', t.cookie)).statusCode).toBe(200);
      expect((await removeBot(t, 'ghost-1', t.cookie)).statusCode).toBe(404);
    });

    it('tells a connected bot why, then closes its socket with 4403', async () => {
      const bot = await hello('ghost-1');
      const from = bot.frames.length;
      expect((await removeBot(t, 'ghost-1', t.cookie)).statusCode).toBe(200);
      expect(await bot.waitClosed()).toEqual({ code: 4403, reason: 'Removed from the fleet' });
      expect(bot.frames.slice(from).map((f) => [f.type, f.payload])).toEqual([
        ['error', { error: 'This bot was removed from the fleet' }],
      ]);
      expect(scannerIds(t)).toEqual([]);
    });

    it('does not bring back a bot whose rows were still queued for writing', async () => {
      await events(t, 'ghost-1', [{ type: 'server_hop', payload: hop }]);
      await events(t, 'ghost-2');
      // Nothing flushed yet: ghost-1's scanner row is queued.
      expect((await removeBot(t, 'ghost-1', t.cookie)).statusCode).toBe(200);
      await t.ctx.services.fleet.flush();
      expect(await scannerRows(t)).toEqual(['ghost-2']);
      expect(scannerIds(t)).toEqual(['ghost-2']);
      // The hop it sent stays.
      expect(
        (await t.ctx.db.selectFrom('fleet_hops').select('bot_id').execute()).map((h) => h.bot_id),
      ).toEqual(['ghost-1']);
    });

    it('shows dashboards the list without the removed bot', async () => {
      await events(t, 'ghost-1');
      await events(t, 'ghost-2');
      const dashboard = await connectTestClient(t.socketUrl, t.cookie);
      sockets.push(dashboard.ws);
      await dashboard.next((f) => f.type === 'fleet_backfill');
      const from = dashboard.frames.length;
      expect((await removeBot(t, 'ghost-1', t.cookie)).statusCode).toBe(200);
      const update = await dashboard.next(
        (f) => f.type === 'scanner_status' && (f.payload as { scanners: unknown[] }).scanners.length === 1,
        { from },
      );
      expect((update.payload as { scanners: Array<{ botId: string }> }).scanners.map((s) => s.botId)).toEqual(
        ['ghost-2'],
      );
    });

    it('forgets on its own the bots silent for FLEET_FORGET_AFTER_DAYS, the same way', async () => {
      await events(t, 'ghost-old');
      await botPost(t, '/api/server-pool/servers', { servers: [{ placeId: PLACE, jobId: 'job-a' }] });
      expect((await botPost(t, '/api/server-pool/claim', { ghostId: 'ghost-old' })).statusCode).toBe(200);
      t.clock.advance(6 * DAY_MS);
      await events(t, 'ghost-recent');
      t.clock.advance(DAY_MS + 1000);
      await t.ctx.services.fleet.flush();
      expect(await forgetSilentBots(t.ctx)).toBe(1);
      expect(scannerIds(t)).toEqual(['ghost-recent']);
      expect(await scannerRows(t)).toEqual(['ghost-recent']);
      // A week later: the session of the test's start has expired.
      const cookie = await t.adminCookie();
      const stats = await t.app.inject({ method: 'GET', url: '/api/server-pool/stats', headers: { cookie } });
      expect(stats.json().stats.byStatus).toMatchObject({ available: 1, assigned: 0 });
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'bot_removed')
        .execute();
      expect(JSON.parse(audit[0]!.details)).toMatchObject({
        ghostId: 'ghost-old',
        reason: 'silent for 7 days',
      });
      // Nothing more to forget.
      expect(await forgetSilentBots(t.ctx)).toBe(0);
    });

    it('takes __proto__ and constructor as ids like any other, and removes them', async () => {
      for (const id of ['__proto__', 'constructor', 'toString']) {
        const res = await events(t, id, [
          { type: 'hello', payload: { ghostId: id, version: '1' } },
          { type: 'server_hop', payload: hop },
        ]);
        expect(res.statusCode, res.body).toBe(200);
      }
      const bot = await hello('hasOwnProperty');
      expect(scannerIds(t).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
      const configs = await t.app.inject({
        method: 'GET',
        url: '/api/admin/configurations',
        headers: { cookie: t.cookie },
      });
      expect(configs.statusCode).toBe(200);
      expect(configs.json().configurations).toHaveLength(4);
      const topHoppers = t.ctx.services.fleet
        .backfill(false)
        .hopStats.topHoppers.map((h) => h.botId)
        .sort();
      expect(topHoppers).toEqual(['__proto__', 'constructor', 'toString']);
      expect((await removeBot(t, '__proto__', t.cookie)).statusCode).toBe(200);
      expect((await removeBot(t, 'hasOwnProperty', t.cookie)).statusCode).toBe(200);
      expect((await bot.waitClosed()).code).toBe(4403);
      expect(scannerIds(t).sort()).toEqual(['constructor', 'toString']);
      await t.ctx.services.fleet.flush();
      expect(await scannerRows(t)).toEqual(['constructor', 'toString']);
    });

    it('refuses an id outside A-Z a-z 0-9 _ . - or longer than 64', async () => {
      for (const id of ['ghost:1', 'ghöst', 'a b', 'x'.repeat(65), '']) {
        const res = await events(t, id);
        expect(res.statusCode, id).toBe(400);
        expect(res.json().error).toMatch(/^ghostId: /);
      }
      expect((await events(t, `A-z_0.9${'x'.repeat(57)}`)).statusCode).toBe(200);
    });
  });

  describe(`${dialect}: a full fleet`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true, env: { FLEET_MAX_BOTS: '3' } });
    const sockets: WebSocket[] = [];
    afterEach(() => {
      for (const ws of sockets.splice(0)) ws.terminate();
    });

    it('holds FLEET_MAX_BOTS bots, and takes a new one once one is removed', async () => {
      for (const id of ['ghost-1', 'ghost-2', 'ghost-3']) expect((await events(t, id)).statusCode).toBe(200);
      const full = await events(t, 'ghost-4');
      expect(full.statusCode).toBe(409);
      expect(full.json()).toEqual({ error: 'The fleet is full: at most 3 scanners' });
      expect((await events(t, 'ghost-2')).statusCode).toBe(200);
      expect((await removeBot(t, 'ghost-2', t.cookie)).statusCode).toBe(200);
      expect((await events(t, 'ghost-4')).statusCode).toBe(200);
      expect(scannerIds(t)).toEqual(['ghost-1', 'ghost-3', 'ghost-4']);
    });

    it('tells a bot over the cap why, then closes its socket with 4409', async () => {
      for (const id of ['ghost-1', 'ghost-2', 'ghost-3']) await events(t, id);
      const bot = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(bot.ws);
      // As a bot does: hello and its first reports without waiting for the answer.
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-4', version: '1.0' } });
      bot.send({ type: 'scanner_status', payload: { status: 'active' } });
      bot.send({ type: 'heartbeat', payload: {} });
      expect(await bot.waitClosed()).toEqual({ code: 4409, reason: 'The fleet is full' });
      expect(bot.frames.map((f) => [f.type, f.payload])).toEqual([
        ['error', { error: 'The fleet is full: at most 3 scanners' }],
      ]);
      expect(scannerIds(t)).toEqual(['ghost-1', 'ghost-2', 'ghost-3']);
    });
  });
}

const REDIS_URL = process.env.TEST_REDIS_URL;

// The scale-out mode: two instances on one PostgreSQL schema and one Redis (CI sets both).
describe.runIf(DIALECTS.includes('postgres') && REDIS_URL)(
  'postgres + redis: removing a bot on another instance',
  () => {
    let first: TestApp;
    let second: TestApp;
    const sockets: TestClient[] = [];

    beforeEach(async () => {
      first = await buildTestApp('postgres', { REDIS_URL: REDIS_URL ?? '' });
      second = await buildTestApp('postgres', { REDIS_URL: REDIS_URL ?? '' }, { joinSchemaOf: first });
      await second.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterEach(async () => {
      for (const s of sockets.splice(0)) s.ws.terminate();
      await second.close();
      await first.close();
    });

    it('closes the bot on the instance holding its socket, and every instance forgets it', async () => {
      const url = `ws://127.0.0.1:${(second.app.server.address() as AddressInfo).port}/ws?token=${TEST_BOT_TOKEN}`;
      const bot = await connectTestClient(url, undefined, { origin: null });
      sockets.push(bot);
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-1', version: '1.0' } });
      await bot.next((f) => f.type === 'config');
      await second.ctx.services.fleet.flush();
      await vi.waitFor(() => expect(scannerIds(first)).toEqual(['ghost-1']));

      const res = await removeBot(first, 'ghost-1', await first.adminCookie());
      expect(res.statusCode, res.body).toBe(200);
      expect(await bot.waitClosed()).toEqual({ code: 4403, reason: 'Removed from the fleet' });
      expect(bot.ofType('error').map((f) => f.payload)).toEqual([
        { error: 'This bot was removed from the fleet' },
      ]);
      await vi.waitFor(() => expect(scannerIds(second)).toEqual([]));
      expect(scannerIds(first)).toEqual([]);
      await second.ctx.services.fleet.flush();
      expect(await scannerRows(first)).toEqual([]);
    });
  },
);
