import { describe, expect, it } from 'vitest';
import {
  type ConfigFramePayload,
  type ConfigurationChange,
  DEFAULT_BOT_PARAMETERS,
} from '../../../common/configuration.ts';
import type { BotFrame } from '../../../common/fleet.ts';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';
import { expireUnacknowledged } from './config-delivery.service.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: a bot that speaks only POST /api/bot/events gets its frames`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const admin = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: t.cookie }, payload });

    /** One call of the bot: its events in, the frames waiting for it out. */
    async function post(ghostId: string, events: Array<{ type: string; payload: object }>) {
      const res = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
        payload: { ghostId, events },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().frames as BotFrame[];
    }
    const poll = (ghostId: string) => post(ghostId, [{ type: 'heartbeat', payload: {} }]);
    const ack = (ghostId: string, version: number) =>
      post(ghostId, [{ type: 'config_ack', payload: { version, ok: true } }]);
    const hello = (ghostId: string) =>
      post(ghostId, [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }]);

    const latestChange = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/configurations/history',
        headers: { cookie: t.cookie },
      });
      return (res.json().changes as ConfigurationChange[])[0];
    };
    const configurationOf = async (botId: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/configurations',
        headers: { cookie: t.cookie },
      });
      return (
        res.json().configurations as Array<{ botId: string; deployState: string; batchSize: number }>
      ).find((c) => c.botId === botId);
    };

    it('hands a pushed configuration over in the answer, and settles it applied on the bot’s ack', async () => {
      const first = await hello('http-1');
      // The socket's frame shape: type, payload, id, timestamp.
      expect(first).toEqual([
        {
          type: 'config',
          payload: { version: 1, parameters: DEFAULT_BOT_PARAMETERS },
          id: expect.any(String),
          timestamp: new Date(t.clock.now()).toISOString(),
        },
      ]);
      expect(await ack('http-1', 1)).toEqual([]);
      expect(await configurationOf('http-1')).toMatchObject({ deployState: 'applied' });

      const push = await admin('/api/admin/configurations/bulk-update', {
        targetBotIds: ['http-1'],
        updates: { batchSize: 75 },
        reason: 'Bigger batches',
      });
      expect(push.statusCode, push.body).toBe(200);
      const frames = await poll('http-1');
      expect(frames.map((f) => f.type)).toEqual(['config']);
      const config = frames[0]?.payload as ConfigFramePayload;
      expect(config).toEqual({ version: 2, parameters: { ...DEFAULT_BOT_PARAMETERS, batchSize: 75 } });
      expect((await latestChange())?.targets[0]).toMatchObject({ botId: 'http-1', state: 'pending' });

      expect(await ack('http-1', config.version)).toEqual([]);
      expect((await latestChange())?.targets[0]).toMatchObject({ botId: 'http-1', state: 'applied' });
      expect(await configurationOf('http-1')).toMatchObject({ deployState: 'applied', batchSize: 75 });
      expect(await poll('http-1')).toEqual([]);
    });

    it('fails a push the bot never acknowledges at the deadline counted from its hand-over', async () => {
      await hello('http-2');
      await ack('http-2', 1);
      await admin('/api/admin/configurations/bulk-update', {
        targetBotIds: ['http-2'],
        updates: { batchSize: 80 },
        reason: 'Bigger batches',
      });
      // Not handed over yet: no deadline runs however long the bot stays away.
      t.clock.advance(10 * t.ctx.config.CONFIG_ACK_DEADLINE_MS);
      expect(await expireUnacknowledged(t.ctx)).toBe(0);

      expect((await poll('http-2')).map((f) => f.type)).toEqual(['config']);
      t.clock.advance(t.ctx.config.CONFIG_ACK_DEADLINE_MS - 1);
      // Handed again (an answer may be lost) without moving the deadline.
      expect((await poll('http-2')).map((f) => f.type)).toEqual(['config']);
      expect(await expireUnacknowledged(t.ctx)).toBe(0);
      t.clock.advance(1);
      expect(await expireUnacknowledged(t.ctx)).toBe(1);
      expect((await latestChange())?.targets[0]).toMatchObject({
        botId: 'http-2',
        state: 'failed',
        error: 'no acknowledgement',
      });
      // Failed: nothing more is handed over.
      expect(await poll('http-2')).toEqual([]);
    });

    it('hands over emergency_stop and emergency_resume once each', async () => {
      await hello('http-3');
      await ack('http-3', 1);
      const stop = await admin('/api/admin/configurations/emergency-stop', { reason: 'Ban wave' });
      expect(stop.statusCode, stop.body).toBe(200);
      const stopped = await poll('http-3');
      expect(stopped.map(({ type, payload }) => ({ type, payload }))).toEqual([
        { type: 'emergency_stop', payload: { reason: 'Ban wave' } },
      ]);
      expect(await poll('http-3')).toEqual([]);

      const resume = await admin('/api/admin/configurations/emergency-resume', { reason: 'All clear' });
      expect(resume.statusCode, resume.body).toBe(200);
      const resumed = await poll('http-3');
      expect(resumed.map(({ type, payload }) => ({ type, payload }))).toEqual([
        { type: 'emergency_resume', payload: { reason: 'All clear' } },
      ]);
      expect(await poll('http-3')).toEqual([]);
    });
  });
}
