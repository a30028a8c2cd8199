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
      const [scanner] = t.app.fleet.backfill(false).scanners;
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
      expect(t.app.fleet.backfill(false).hops).toEqual([]);
      expect(t.app.fleet.backfill(false).scanners).toEqual([]);
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

    it('on a socket wants hello first, names the bad field of a frame and stays open', async () => {
      const bot = await botSocket();
      bot.send({ type: 'server_hop', payload: hop() });
      expect((await bot.next((f) => f.type === 'error')).payload).toEqual({ error: 'Say hello first' });
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
      expect(t.app.fleet.backfill(false).hops.map((h) => h.botId)).toEqual(['ghost-7']);
    });

    it('keeps at most 100 scanners', async () => {
      for (let i = 0; i < 100; i++) {
        const res = await post({ ghostId: `ghost-${i}`, events: [{ type: 'heartbeat' }] });
        expect(res.statusCode).toBe(200);
      }
      const full = await post({ ghostId: 'ghost-100', events: [{ type: 'heartbeat' }] });
      expect(full.statusCode).toBe(409);
      expect(full.json()).toEqual({ error: 'The fleet is full: at most 100 scanners' });
      expect((await post({ ghostId: 'ghost-5', events: [{ type: 'heartbeat' }] })).statusCode).toBe(200);
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
      expect(t.app.fleet.backfill(false).scanners[0]?.status).toBe('error');
      // Its own reports do not lift the server's flag; a successful hop does.
      await post({ ghostId: 'ghost-1', events: [{ type: 'scanner_status', payload: { status: 'active' } }] });
      expect(t.app.fleet.backfill(false).scanners[0]?.status).toBe('error');
      await post({ ghostId: 'ghost-1', events: [{ type: 'server_hop', payload: hop() }] });
      expect(t.app.fleet.backfill(false).scanners[0]?.status).toBe('active');
    });
  });
}
