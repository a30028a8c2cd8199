import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { lastActivityOf, markBotError } from './fleet.service.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

const hop = (over: Record<string, unknown> = {}) => ({
  fromJobId: 'job-a',
  toJobId: 'job-b',
  fromPlaceId: 109983668079237,
  toPlaceId: '109983668079237',
  success: true,
  latencyMs: 420,
  hopReason: 'auto_scan',
  ...over,
});

const pet = (over: Record<string, unknown> = {}) => ({
  name: 'Garama and Madundung',
  type: 'Secret',
  value: '$12.5M/s',
  placeid: '109983668079237',
  jobid: 'job-b',
  ...over,
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: bot protocol`, () => {
    const t = useTestApp(dialect, { listen: true });
    const sockets: WebSocket[] = [];
    afterEach(() => {
      for (const ws of sockets.splice(0)) ws.terminate();
    });

    const post = (body: unknown, headers: Record<string, string> = BOT) =>
      t.injectBare({ method: 'POST', url: '/api/bot/events', headers, payload: body as object });

    async function botSocket(): Promise<TestClient> {
      const client = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(client.ws);
      return client;
    }

    it('refuses bot calls without the bot token, or with a wrong one', async () => {
      const body = { ghostId: 'ghost-1', events: [{ type: 'heartbeat' }] };
      const missing = await post(body, {});
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toMatch(/Bot token required/);
      const wrong = await post(body, { authorization: 'Bearer nope' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'Invalid bot token' });
      await expect(
        connectTestClient(`${t.socketUrl}?token=nope`, undefined, { origin: null }),
      ).rejects.toThrow('refused with 401');
    });

    it('accepts a batch of every message type and answers per event', async () => {
      const res = await post({
        ghostId: 'ghost-1',
        events: [
          { type: 'hello', payload: { ghostId: 'ghost-1', version: '1.0.0' }, id: 'e0' },
          { type: 'heartbeat' },
          {
            type: 'scanner_status',
            payload: { status: 'scanning', scansPerMinute: 12, petsFound: 3, uptime: 99 },
          },
          { type: 'server_hop', payload: hop() },
          { type: 'pet_discovered', payload: pet() },
          { type: 'config_ack', payload: { version: 2, ok: true } },
        ],
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.accepted).toBe(6);
      expect(body.results[0]).toEqual({ index: 0, id: 'e0' });
      expect(body.results[3].seq).toBe(1);
      expect(body.results[4].seq).toBe(2);
      const [scanner] = t.ctx.services.fleet.backfill(false).scanners;
      expect(scanner).toMatchObject({
        id: 'ghost-1',
        botId: 'ghost-1',
        status: 'scanning',
        scansPerMinute: 12,
        petsFound: 3,
        uptime: 99,
        currentJobId: 'job-b',
      });
    });

    it('refuses a batch with a bad event by its index and field, and applies none of it', async () => {
      const res = await post({
        ghostId: 'ghost-1',
        events: [
          { type: 'server_hop', payload: hop() },
          { type: 'server_hop', payload: hop({ latencyMs: -5 }) },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('events.1.payload.latencyMs: must not be negative');
      const unknown = await post({ ghostId: 'ghost-1', events: [{ type: 'teleport' }] });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toBe('events.0.type: Unknown bot message type: teleport');
      const badGhost = await post({ ghostId: 'ghost 1!', events: [{ type: 'heartbeat' }] });
      expect(badGhost.statusCode).toBe(400);
      expect(badGhost.json().error).toMatch(/^ghostId: /);
      const otherBot = await post({
        ghostId: 'ghost-1',
        events: [{ type: 'hello', payload: { ghostId: 'ghost-2', version: '1' } }],
      });
      expect(otherBot.statusCode).toBe(400);
      expect(otherBot.json().error).toBe("events.0.payload.ghostId: must be the batch's ghostId (ghost-1)");
      const empty = await post({ ghostId: 'ghost-1', events: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error).toMatch(/events must hold at least one event/);
      expect(t.ctx.services.fleet.backfill(false).hops).toEqual([]);
      expect(t.ctx.services.fleet.backfill(false).scanners).toEqual([]);
    });

    it.each([
      ['scanner_status', 'status', { status: 'sleeping' }],
      ['server_hop', 'hopReason', hop({ hopReason: 'boredom' })],
      ['server_hop', 'toJobId', hop({ toJobId: '' })],
      ['pet_discovered', 'name', pet({ name: '' })],
      ['pet_discovered', 'placeid', pet({ placeid: 'abc' })],
      ['config_ack', 'version', { version: 0, ok: true }],
      ['hello', '(an unknown key)', { ghostId: 'x', version: '1', extra: 1 }],
    ])('refuses a bad %s naming the field: %s', async (type, field, payload) => {
      const res = await post({ ghostId: 'ghost-1', events: [{ type, payload }] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(`events.0.payload.${field.startsWith('(') ? '' : field}`);
    });

    it('on a socket names the bad field of a frame after hello and stays open', async () => {
      const bot = await botSocket();
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-7', version: '2.1' } });
      expect((await bot.next((f) => f.type === 'hello')).payload).toMatchObject({ ghostId: 'ghost-7' });
      const before = bot.frames.length;
      bot.send({ type: 'server_hop', payload: hop({ latencyMs: 'fast' }) });
      const error = await bot.next((f) => f.type === 'error', { from: before });
      expect((error.payload as { error: string }).error).toMatch(/^Invalid server_hop payload: latencyMs: /);
      bot.send({ type: 'server_hop', payload: hop() });
      bot.send({ type: 'heartbeat', payload: {} });
      await bot.next((f) => f.type === 'heartbeat');
      expect(bot.closed).toBeNull();
      expect(t.ctx.services.fleet.backfill(false).hops.map((h) => h.botId)).toEqual(['ghost-7']);
    });

    it.each([
      ['a frame before hello', { type: 'server_hop', payload: hop() }, /^Say hello first$/],
      [
        'a hello with a bad ghostId',
        { type: 'hello', payload: { ghostId: 'ghost:7', version: '2.1' } },
        /^Invalid hello payload: ghostId: /,
      ],
      [
        'a hello without a version',
        { type: 'hello', payload: { ghostId: 'ghost-7' } },
        /^Invalid hello payload: version/,
      ],
    ])(
      'on a socket answers %s with one error frame, then closes it with 4400',
      async (_what, frame, error) => {
        const bot = await botSocket();
        bot.send(frame);
        // What the bot sends next is not answered any more.
        bot.send({ type: 'heartbeat', payload: {} });
        expect(await bot.waitClosed()).toEqual({ code: 4400, reason: 'Bad hello' });
        expect(bot.frames.map((f) => f.type)).toEqual(['error']);
        expect((bot.frames[0]!.payload as { error: string }).error).toMatch(error);
        expect(t.ctx.services.fleet.backfill(false).scanners).toEqual([]);
      },
    );

    it('on a socket closes with 4400 a hello naming another bot than the socket is', async () => {
      const bot = await botSocket();
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-7', version: '2.1' } });
      // The answer, then its configuration.
      await bot.next((f) => f.type === 'config');
      const before = bot.frames.length;
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-8', version: '2.1' } });
      expect(await bot.waitClosed()).toEqual({ code: 4400, reason: 'Bad hello' });
      expect(bot.frames.slice(before).map((f) => f.payload)).toEqual([
        { error: 'This socket is already ghost-7; open another one for ghost-8' },
      ]);
      expect(t.ctx.services.fleet.backfill(false).scanners.map((s) => s.botId)).toEqual(['ghost-7']);
    });

    it('holds 1000 bots by default (FLEET_MAX_BOTS), not 100', async () => {
      for (let i = 0; i < 101; i++) {
        const res = await post({ ghostId: `ghost-${i}`, events: [{ type: 'heartbeat' }] });
        expect(res.statusCode).toBe(200);
      }
      expect(t.ctx.services.fleet.backfill(false).scanners).toHaveLength(101);
      expect(t.ctx.services.fleet.hasRoomFor('ghost-new')).toBe(true);
    });

    it('tells other features when a bot was last heard of, and lets them flag it error', async () => {
      expect(lastActivityOf(t.ctx, 'ghost-1')).toBeNull();
      await post({ ghostId: 'ghost-1', events: [{ type: 'heartbeat' }] });
      expect(lastActivityOf(t.ctx, 'ghost-1')).toBe(t.clock.now());
      t.clock.advance(5000);
      await post({
        ghostId: 'ghost-1',
        events: [{ type: 'scanner_status', payload: { status: 'scanning' } }],
      });
      expect(lastActivityOf(t.ctx, 'ghost-1')).toBe(t.clock.now());

      await markBotError(t.ctx, 'ghost-1', 'Failed on 10 servers in a row');
      expect(t.ctx.services.fleet.backfill(false).scanners[0]?.status).toBe('error');
      // Its own reports do not lift the server's flag; a successful hop does.
      await post({ ghostId: 'ghost-1', events: [{ type: 'scanner_status', payload: { status: 'active' } }] });
      expect(t.ctx.services.fleet.backfill(false).scanners[0]?.status).toBe('error');
      await post({ ghostId: 'ghost-1', events: [{ type: 'server_hop', payload: hop() }] });
      expect(t.ctx.services.fleet.backfill(false).scanners[0]?.status).toBe('active');
    });
  });
}
