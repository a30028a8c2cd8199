import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BOT_PARAMETER_NAMES,
  BOT_PARAMETER_RANGES,
  type BotConfiguration,
  BotParameterUpdatesSchema,
  type ConfigFramePayload,
  type ConfigurationChange,
  type ConfigurationDashboard,
  type ConfigurationProfile,
  DEFAULT_BOT_PARAMETERS,
  MAX_PET_VALUE,
} from '../../../common/configuration.ts';
import type { ServerFrame } from '../../../common/realtime.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { expireUnacknowledged } from './config-delivery.service.ts';

/** How a test bot answers `config` frames: at once, with a refusal, or never (the test answers itself). */
type Answer = 'ok' | 'refuse' | 'never';

const REDIS_URL = process.env.TEST_REDIS_URL;

/** Polls until `check` passes (the server settles acknowledgements and deadlines asynchronously). */
async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** The test's side of the bot protocol on a real socket. */
function botSession(sockets: TestClient[]) {
  return async function bot(
    ghostId: string,
    { answer = 'ok', socketUrl }: { answer?: Answer; socketUrl: string },
  ): Promise<TestClient> {
    const client = await connectTestClient(`${socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
      origin: null,
    });
    sockets.push(client);
    client.ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as ServerFrame;
      if (frame.type !== 'config' || answer === 'never') return;
      const { version } = frame.payload as ConfigFramePayload;
      client.send({
        type: 'config_ack',
        payload: answer === 'ok' ? { version, ok: true } : { version, ok: false, error: 'hop loop busy' },
      });
    });
    client.send({ type: 'hello', payload: { ghostId, version: '1.0.0' } });
    await client.next((f) => f.type === 'config');
    return client;
  };
}

const configFrames = (client: TestClient) =>
  client.ofType('config').map((f) => f.payload as ConfigFramePayload);

for (const dialect of DIALECTS) {
  describe(`${dialect}: live configuration`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    const sockets: TestClient[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.ws.terminate();
    });
    const connectBot = botSession(sockets);
    const bot = (ghostId: string, answer: Answer = 'ok') =>
      connectBot(ghostId, { answer, socketUrl: t.socketUrl });

    const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: t.cookie }, ...(payload ? { payload } : {}) });

    async function dashboard(): Promise<TestClient> {
      const client = await connectTestClient(t.socketUrl, t.cookie);
      sockets.push(client);
      await client.next((f) => f.type === 'system_health');
      return client;
    }

    /** A bot that only batches to POST /api/bot/events (no socket). */
    async function httpBot(ghostId: string) {
      const res = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
        payload: { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }] },
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    const configurations = async () => {
      const res = await admin('GET', '/api/admin/configurations');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().configurations as BotConfiguration[];
    };
    const configurationOf = async (botId: string) => (await configurations()).find((c) => c.botId === botId);
    const history = async () => {
      const res = await admin('GET', '/api/admin/configurations/history');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().changes as ConfigurationChange[];
    };
    const stats = async () => {
      const res = await admin('GET', '/api/admin/configurations/dashboard-stats');
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ConfigurationDashboard;
    };
    const bulkUpdate = (payload: object) => admin('POST', '/api/admin/configurations/bulk-update', payload);
    const auditTypes = async () =>
      (
        await t.ctx.db
          .selectFrom('audit_logs')
          .select('event_type')
          .where('event_type', 'like', 'configuration_%')
          .orderBy('id')
          .execute()
      ).map((r) => r.event_type);

    it('gives a bot the default configuration at version 1 when it first says hello, on a socket or by POST', async () => {
      const socketBot = await bot('bot-10');
      expect(configFrames(socketBot)).toEqual([{ version: 1, parameters: DEFAULT_BOT_PARAMETERS }]);
      await httpBot('bot-2');
      await eventually(async () => expect((await configurationOf('bot-10'))?.deployState).toBe('applied'));
      const list = await configurations();
      // Natural order: bot-2 before bot-10.
      expect(list.map((c) => c.botId)).toEqual(['bot-2', 'bot-10']);
      expect(list[0]).toEqual({
        id: 'bot-2',
        botId: 'bot-2',
        ...DEFAULT_BOT_PARAMETERS,
        isActive: true,
        version: 1,
        profileId: null,
        profileName: null,
        lastDeployed: null,
        // Handed its version in the POST's answer: pending until it acknowledges.
        deployState: 'pending',
        deployError: null,
      });
      expect(list[1]).toMatchObject({
        version: 1,
        deployState: 'applied',
        lastDeployed: new Date(t.clock.now()).toISOString(),
      });
    });

    it('refuses every parameter outside the spec ranges with a 400 naming the field and range, changing nothing', async () => {
      await httpBot('bot-1');
      await httpBot('bot-2');
      const cases: Array<[Record<string, unknown>, string]> = [];
      for (const [field, { min, max }] of Object.entries(BOT_PARAMETER_RANGES)) {
        const range = `${field} must be from ${min} to ${max}`;
        cases.push([{ [field]: min - 1 }, `updates.${field}: ${range}`]);
        cases.push([{ [field]: max + 1 }, `updates.${field}: ${range}`]);
        cases.push([
          { [field]: min + 0.5 },
          `updates.${field}: ${field} must be a whole number from ${min} to ${max}`,
        ]);
        cases.push([
          { [field]: String(min) },
          `updates.${field}: ${field} must be a number from ${min} to ${max}`,
        ]);
      }
      for (const field of ['minPetValue', 'maxPetValue', 'targetPetValue']) {
        cases.push([{ [field]: -1 }, `updates.${field}: ${field} must be from 0 to ${MAX_PET_VALUE}`]);
        cases.push([
          { [field]: MAX_PET_VALUE + 1 },
          `updates.${field}: ${field} must be from 0 to ${MAX_PET_VALUE}`,
        ]);
      }
      cases.push([{ stealthMode: 'yes' }, 'updates.stealthMode: stealthMode must be true or false']);
      cases.push([{}, 'updates: updates must change at least one parameter']);
      for (const [updates, error] of cases) {
        const res = await bulkUpdate({ targetBotIds: ['bot-1'], updates, reason: 'try' });
        expect([res.statusCode, res.json().error], JSON.stringify(updates)).toEqual([400, error]);
      }
      // Beyond one field: a maximum below the minimum, on the bot's values as they would become.
      const raise = await bulkUpdate({ targetBotIds: ['bot-2'], updates: { maxPetValue: 1_000_000 } });
      expect(raise.statusCode, raise.body).toBe(200);
      const conflict = await bulkUpdate({
        targetBotIds: ['bot-1', 'bot-2'],
        updates: { minPetValue: 2_000_000 },
      });
      expect(conflict.statusCode).toBe(400);
      expect(conflict.json().error).toBe(
        'maxPetValue must be 0 (unlimited) or at least minPetValue (bot-2 would have minPetValue 2000000 and maxPetValue 1000000)',
      );
      const unknown = await bulkUpdate({
        targetBotIds: ['bot-1', 'ghost-9', 'ghost-10'],
        updates: { hopFrequencyMs: 6000 },
      });
      expect([unknown.statusCode, unknown.json()]).toEqual([
        404,
        { error: 'Unknown bots: ghost-9, ghost-10' },
      ]);
      const none = await bulkUpdate({ targetBotIds: [], updates: { hopFrequencyMs: 6000 } });
      expect([none.statusCode, none.json().error]).toEqual([
        400,
        'targetBotIds: targetBotIds must name at least one bot',
      ]);

      // Nothing of any refused call was kept: bot-1 is as it started, and only bot-2's one change is recorded.
      expect(await configurationOf('bot-1')).toMatchObject({ ...DEFAULT_BOT_PARAMETERS, version: 1 });
      expect(await configurationOf('bot-2')).toMatchObject({ maxPetValue: 1_000_000, version: 2 });
      expect((await history()).map((c) => c.targets.map((x) => x.botId))).toEqual([['bot-2']]);
      expect(await auditTypes()).toEqual(['configuration_bulk_update']);
    });

    it('pushes a change to 5 connected bots, which all acknowledge it; dashboards hear of the push and its progress', async () => {
      const ids = ['s-1', 's-2', 's-3', 's-4', 's-5'];
      const bots = await Promise.all(ids.map((id) => bot(id)));
      await eventually(async () =>
        expect((await configurations()).map((c) => c.deployState)).toEqual(ids.map(() => 'applied')),
      );
      const watcher = await dashboard();
      const res = await bulkUpdate({
        targetBotIds: ids,
        updates: { hopFrequencyMs: 8000, stealthMode: true },
        reason: 'Slow down before the update',
      });
      expect(res.statusCode, res.body).toBe(200);
      const { result } = res.json();
      expect(result).toEqual({ successful: 5, sent: 5, changeId: expect.any(String) });

      for (const b of bots) {
        await b.next((f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 2);
        expect(configFrames(b).at(-1)).toEqual({
          version: 2,
          parameters: { ...DEFAULT_BOT_PARAMETERS, hopFrequencyMs: 8000, stealthMode: true },
        });
      }
      await eventually(async () =>
        expect((await history())[0]?.counts).toEqual({ pending: 0, applied: 5, failed: 0 }),
      );
      const update = await watcher.next((f) => f.type === 'configuration_update');
      expect(update.payload).toEqual({
        targetedBots: 5,
        changeId: result.changeId,
        reason: 'Slow down before the update',
      });
      await watcher.next(
        (f) =>
          f.type === 'configuration_progress' &&
          (f.payload as { counts: { applied: number } }).counts.applied === 5,
      );

      const [change] = await history();
      expect(change).toMatchObject({
        id: result.changeId,
        kind: 'bulk_update',
        actor: 'admin (127.0.0.1)',
        reason: 'Slow down before the update',
        isEmergency: false,
        canRollback: true,
      });
      expect(change?.targets.map((x) => [x.botId, x.version, x.state])).toEqual(
        ids.map((id) => [id, 2, 'applied']),
      );
      expect(change?.targets[0]).toMatchObject({
        before: { hopFrequencyMs: 5000, stealthMode: false },
        after: { hopFrequencyMs: 8000, stealthMode: true },
        error: null,
        responseTimeMs: 0,
      });
      for (const c of await configurations()) {
        expect(c).toMatchObject({
          version: 2,
          hopFrequencyMs: 8000,
          stealthMode: true,
          deployState: 'applied',
        });
      }
      expect(await auditTypes()).toEqual(['configuration_bulk_update']);
    });

    it("merges a partial push into each bot's own values: a STEALTH bot keeps its 15 s hops and stealth", async () => {
      const ghost = await bot('ghost-02');
      const plain = await bot('ghost-03');
      const stealth = await admin('POST', '/api/admin/configuration-profiles/stealth/apply', {
        targetBotIds: ['ghost-02'],
      });
      expect(stealth.statusCode, stealth.body).toBe(200);
      await eventually(async () =>
        expect(await configurationOf('ghost-02')).toMatchObject({
          hopFrequencyMs: 15_000,
          stealthMode: true,
        }),
      );
      const stealthFrame = await ghost.next(
        (f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 2,
      );
      const stealthValues = (stealthFrame.payload as ConfigFramePayload).parameters;
      expect(stealthValues).toMatchObject({ hopFrequencyMs: 15_000, stealthMode: true });

      const res = await bulkUpdate({ targetBotIds: ['ghost-02', 'ghost-03'], updates: { rateLimit: 250 } });
      expect(res.statusCode, res.body).toBe(200);
      await ghost.next((f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 3);
      await plain.next((f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 2);
      // Each bot gets its own values with the one change; nothing else moves.
      expect(configFrames(ghost).at(-1)?.parameters).toEqual({ ...stealthValues, rateLimit: 250 });
      expect(configFrames(plain).at(-1)?.parameters).toEqual({ ...DEFAULT_BOT_PARAMETERS, rateLimit: 250 });
      expect(await configurationOf('ghost-02')).toMatchObject({
        hopFrequencyMs: 15_000,
        stealthMode: true,
        rateLimit: 250,
        // Values outside a profile's four fields keep the bot on its profile.
        profileName: 'Stealth',
      });
      const [change] = await history();
      expect(change?.targets.map((t) => [t.botId, t.before, t.after])).toEqual([
        ['ghost-02', { rateLimit: 100 }, { rateLimit: 250 }],
        ['ghost-03', { rateLimit: 100 }, { rateLimit: 250 }],
      ]);

      // An empty change set and an unknown field are refused, naming what is wrong.
      for (const [updates, error] of [
        [{}, 'updates: updates must change at least one parameter'],
        [{ hopSpeed: 3 }, 'updates: Unrecognized key: "hopSpeed"'],
      ] as const) {
        const refused = await bulkUpdate({ targetBotIds: ['ghost-02'], updates });
        expect([refused.statusCode, refused.json().error]).toEqual([400, error]);
      }
    });

    it('tells dashboards, of the failed bots, how many never answered (no acknowledgement)', async () => {
      await bot('busy', 'refuse');
      await bot('mute', 'never');
      await bot('fine');
      const watcher = await dashboard();
      const res = await bulkUpdate({ targetBotIds: ['busy', 'mute', 'fine'], updates: { batchSize: 75 } });
      const { changeId } = res.json().result;
      await watcher.next(
        (f) =>
          f.type === 'configuration_progress' &&
          (f.payload as { counts: { applied: number; failed: number } }).counts.applied === 1 &&
          (f.payload as { counts: { failed: number } }).counts.failed === 1,
      );
      expect(watcher.ofType('configuration_progress').at(-1)?.payload).toEqual({
        changeId,
        counts: { pending: 1, applied: 1, failed: 1 },
        unanswered: 0,
      });
      t.clock.advance(t.ctx.config.CONFIG_ACK_DEADLINE_MS);
      await expireUnacknowledged(t.ctx);
      const last = await watcher.next(
        (f) => f.type === 'configuration_progress' && (f.payload as { unanswered: number }).unanswered === 1,
      );
      expect(last.payload).toEqual({
        changeId,
        counts: { pending: 0, applied: 1, failed: 2 },
        unanswered: 1,
      });
    });

    it('counts a bot that never answers as failed (no acknowledgement) once the deadline passes', async () => {
      await bot('quiet', 'never');
      const res = await bulkUpdate({ targetBotIds: ['quiet'], updates: { batchSize: 75 } });
      expect(res.json().result).toMatchObject({ successful: 1, sent: 1 });
      t.clock.advance(t.ctx.config.CONFIG_ACK_DEADLINE_MS - 1);
      expect(await expireUnacknowledged(t.ctx)).toBe(0);
      expect((await history())[0]?.targets[0]?.state).toBe('pending');

      t.clock.advance(1);
      // The app's own sweep (every second) settles it.
      await eventually(async () =>
        expect((await history())[0]?.targets[0]).toMatchObject({
          state: 'failed',
          error: 'no acknowledgement',
          respondedAt: new Date(t.clock.now()).toISOString(),
          responseTimeMs: null,
        }),
      );
      expect(await configurationOf('quiet')).toMatchObject({
        version: 2,
        deployState: 'failed',
        deployError: 'no acknowledgement',
      });
      const { deploymentStats, configHealth } = await stats();
      expect(deploymentStats).toEqual({
        successfulDeployments: 0,
        totalDeployments: 1,
        averageResponseTime: 0,
      });
      expect(configHealth.recentFailures).toEqual([
        {
          botId: 'quiet',
          errorMessage: 'no acknowledgement',
          timestamp: new Date(t.clock.now()).toISOString(),
        },
      ]);
    });

    it('records the error of a bot that refuses a configuration', async () => {
      await bot('picky', 'refuse');
      await bulkUpdate({ targetBotIds: ['picky'], updates: { connectionLimit: 40 } });
      await eventually(async () =>
        expect((await history())[0]?.targets[0]).toMatchObject({ state: 'failed', error: 'hop loop busy' }),
      );
      expect(await configurationOf('picky')).toMatchObject({
        deployState: 'failed',
        deployError: 'hop loop busy',
      });
    });

    it('keeps a push to an offline bot pending, and delivers it when the bot connects again', async () => {
      const roamer = await bot('roamer');
      await eventually(async () => expect((await configurationOf('roamer'))?.deployState).toBe('applied'));
      roamer.ws.close();
      await roamer.waitClosed();
      await eventually(async () => {
        const row = await t.ctx.db
          .selectFrom('bot_configurations')
          .select('socket_id')
          .where('bot_id', '=', 'roamer')
          .executeTakeFirstOrThrow();
        expect(row.socket_id).toBeNull();
      });

      const res = await bulkUpdate({
        targetBotIds: ['roamer'],
        updates: { hopDelayMs: 2500 },
        reason: 'later',
      });
      expect(res.json().result).toMatchObject({ successful: 1, sent: 0 });
      // No frame went out, so no deadline runs: it waits however long the bot stays away.
      t.clock.advance(10 * t.ctx.config.CONFIG_ACK_DEADLINE_MS);
      expect(await expireUnacknowledged(t.ctx)).toBe(0);
      expect((await history())[0]?.targets[0]?.state).toBe('pending');

      t.clock.advance(400);
      const back = await bot('roamer', 'never');
      // Its latest configuration is the first thing it is sent.
      expect(configFrames(back)).toEqual([
        { version: 2, parameters: { ...DEFAULT_BOT_PARAMETERS, hopDelayMs: 2500 } },
      ]);
      t.clock.advance(120);
      back.send({ type: 'config_ack', payload: { version: 2, ok: true } });
      await eventually(async () =>
        expect((await history())[0]?.targets[0]).toMatchObject({ state: 'applied', responseTimeMs: 120 }),
      );
      expect(await configurationOf('roamer')).toMatchObject({
        version: 2,
        hopDelayMs: 2500,
        deployState: 'applied',
      });
    });

    it('stops every connected bot, keeps the network stopped for bots that connect, and resumes them', async () => {
      const a = await bot('a');
      const b = await bot('b');
      await httpBot('c');
      const watcher = await dashboard();
      const stop = await admin('POST', '/api/admin/configurations/emergency-stop', { reason: 'Ban wave' });
      expect(stop.statusCode, stop.body).toBe(200);
      // The two sockets; the bot that only posts cannot be reached.
      expect(stop.json()).toEqual({
        affectedBots: 2,
        emergency: {
          stopped: true,
          reason: 'Ban wave',
          changedAt: new Date(t.clock.now()).toISOString(),
          changedBy: 'admin (127.0.0.1)',
        },
      });
      for (const client of [a, b]) {
        const frame = await client.next((f) => f.type === 'emergency_stop');
        expect(frame.payload).toEqual({ reason: 'Ban wave' });
      }
      const control = await watcher.next((f) => f.type === 'emergency_control');
      expect(control.payload).toEqual({ action: 'EMERGENCY_STOP', reason: 'Ban wave', affectedBots: 2 });

      const again = await admin('POST', '/api/admin/configurations/emergency-stop', { reason: 'twice' });
      expect([again.statusCode, again.json()]).toEqual([409, { error: 'The network is already stopped' }]);

      // A bot connecting while stopped gets its configuration, then the stop.
      const late = await bot('d');
      await late.next((f) => f.type === 'emergency_stop');
      expect(late.frames.map((f) => f.type)).toEqual(['hello', 'config', 'emergency_stop']);
      expect((await stats()).emergency.stopped).toBe(true);
      expect((await configurations()).map((c) => c.isActive)).toEqual([false, false, false, false]);
      // Stopped bots report themselves inactive (the simulator does): they still take the resume, and
      // Bot Health counts them online (connected and heard), not 0 of 4.
      const everyBotSays = async (status: string) => {
        for (const client of [a, b, late]) client.send({ type: 'scanner_status', payload: { status } });
        const res = await t.injectBare({
          method: 'POST',
          url: '/api/bot/events',
          headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
          payload: { ghostId: 'c', events: [{ type: 'scanner_status', payload: { status } }] },
        });
        expect(res.statusCode, res.body).toBe(200);
      };
      await everyBotSays('inactive');
      await eventually(async () =>
        expect(t.ctx.services.fleet.state.countByStatus(t.clock.now()).inactive).toBe(4),
      );
      expect((await stats()).configHealth).toMatchObject({ onlineBots: 4, totalBots: 4 });

      const resume = await admin('POST', '/api/admin/configurations/emergency-resume', {
        reason: 'All clear',
      });
      expect(resume.statusCode, resume.body).toBe(200);
      expect(resume.json()).toMatchObject({
        affectedBots: 3,
        emergency: { stopped: false, reason: 'All clear' },
      });
      for (const client of [a, b, late]) {
        expect((await client.next((f) => f.type === 'emergency_resume')).payload).toEqual({
          reason: 'All clear',
        });
      }
      await watcher.next(
        (f) =>
          f.type === 'emergency_control' && (f.payload as { action: string }).action === 'EMERGENCY_RESUME',
      );
      const twice = await admin('POST', '/api/admin/configurations/emergency-resume', { reason: 'again' });
      expect([twice.statusCode, twice.json()]).toEqual([409, { error: 'The network is already running' }]);
      await everyBotSays('scanning');
      await eventually(async () =>
        expect((await configurations()).map((c) => c.isActive)).toEqual([true, true, true, true]),
      );
      expect((await stats()).configHealth.onlineBots).toBe(4);

      const changes = await history();
      expect(
        changes.map((c) => [c.kind, c.isEmergency, c.canRollback, c.targets.map((x) => x.botId)]),
      ).toEqual([
        ['emergency_resume', true, false, ['a', 'b', 'd']],
        ['emergency_stop', true, false, ['a', 'b']],
      ]);
      const undo = await admin('POST', `/api/admin/configurations/history/${changes[1]?.id}/rollback`, {
        reason: 'undo',
      });
      expect(undo.statusCode).toBe(409);
      expect(await auditTypes()).toEqual(['configuration_emergency_stop', 'configuration_emergency_resume']);
      // Emergency changes are not deployments.
      expect((await stats()).deploymentStats.totalDeployments).toBe(0);
    });

    if (dialect === 'postgres')
      it('keeps the network stopped across a restart, and tells a bot connecting to the new instance to stop', async () => {
        const stop = await admin('POST', '/api/admin/configurations/emergency-stop', {
          reason: 'Maintenance',
        });
        expect(stop.statusCode).toBe(200);
        const restarted = await buildTestApp('postgres', {}, { joinSchemaOf: t });
        try {
          await restarted.app.listen({ port: 0, host: '127.0.0.1' });
          const cookie = await restarted.adminCookie();
          const res = await restarted.app.inject({
            method: 'GET',
            url: '/api/admin/configurations/dashboard-stats',
            headers: { cookie },
          });
          expect((res.json() as ConfigurationDashboard).emergency).toMatchObject({
            stopped: true,
            reason: 'Maintenance',
          });
          const port = (restarted.app.server.address() as AddressInfo).port;
          const client = await connectBot('after-restart', { socketUrl: `ws://127.0.0.1:${port}/ws` });
          const frame = await client.next((f) => f.type === 'emergency_stop');
          expect(frame.payload).toEqual({ reason: 'Maintenance' });
        } finally {
          for (const s of sockets.splice(0)) s.ws.terminate();
          await restarted.close();
        }
      });

    it('rolls a change back by pushing the earlier values as a new change', async () => {
      const b = await bot('bot-1');
      const first = await bulkUpdate({
        targetBotIds: ['bot-1'],
        updates: { hopFrequencyMs: 9000, batchSize: 80 },
        reason: 'bigger batches',
      });
      const firstId = first.json().result.changeId as string;
      await bulkUpdate({ targetBotIds: ['bot-1'], updates: { batchSize: 120 }, reason: 'even bigger' });
      await eventually(async () => expect((await configurationOf('bot-1'))?.deployState).toBe('applied'));
      const watcher = await dashboard();

      const res = await admin('POST', `/api/admin/configurations/history/${firstId}/rollback`, {
        reason: 'Hops too slow',
      });
      expect(res.statusCode, res.body).toBe(200);
      const { result } = res.json();
      expect(result).toMatchObject({ successful: 1, sent: 1 });
      const frame = await b.next(
        (f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 4,
      );
      expect(frame.payload).toEqual({ version: 4, parameters: DEFAULT_BOT_PARAMETERS });
      const rolled = await watcher.next((f) => f.type === 'configuration_rollback');
      expect(rolled.payload).toEqual({
        reason: 'Hops too slow',
        changeId: result.changeId,
        rollbackOf: firstId,
      });
      await watcher.next((f) => f.type === 'configuration_update');

      await eventually(async () => expect((await history())[0]?.counts.applied).toBe(1));
      const [rollback] = await history();
      expect(rollback).toMatchObject({ kind: 'rollback', rollbackOf: firstId, reason: 'Hops too slow' });
      expect(rollback?.targets).toEqual([
        expect.objectContaining({
          botId: 'bot-1',
          version: 4,
          before: { hopFrequencyMs: 9000, batchSize: 120 },
          after: { hopFrequencyMs: 5000, batchSize: 50 },
          state: 'applied',
        }),
      ]);
      expect(await configurationOf('bot-1')).toMatchObject({ ...DEFAULT_BOT_PARAMETERS, version: 4 });
      expect(await auditTypes()).toEqual([
        'configuration_bulk_update',
        'configuration_bulk_update',
        'configuration_rollback',
      ]);

      const unknown = await admin('POST', '/api/admin/configurations/history/999/rollback', { reason: 'x' });
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: 'Unknown change: 999' }]);
      const noReason = await admin('POST', `/api/admin/configurations/history/${firstId}/rollback`, {
        reason: ' ',
      });
      expect([noReason.statusCode, noReason.json().error]).toEqual([
        400,
        'reason: reason is required to roll back a change',
      ]);
      const badLimit = await admin('GET', '/api/admin/configurations/history?limit=0');
      expect([badLimit.statusCode, badLimit.json().error]).toEqual([
        400,
        'querystring limit: limit must be a whole number from 1 to 200',
      ]);
      const one = await admin('GET', '/api/admin/configurations/history?limit=1');
      expect(one.json().changes.map((c: ConfigurationChange) => c.id)).toEqual([result.changeId]);
    });

    it('applies a built-in profile, counts its use, and drops it from a bot whose profile fields change by hand', async () => {
      const list = await admin('GET', '/api/admin/configuration-profiles');
      const profiles = list.json().profiles as ConfigurationProfile[];
      expect(profiles.map((p) => [p.profileType, p.isBuiltIn, p.usageCount])).toEqual([
        ['AGGRESSIVE', true, 0],
        ['BALANCED', true, 0],
        ['STEALTH', true, 0],
      ]);
      for (const p of profiles) {
        const { hopFrequencyMs, minPetValue, stealthMode, batchSize } = p;
        expect(
          BotParameterUpdatesSchema.safeParse({ hopFrequencyMs, minPetValue, stealthMode, batchSize })
            .success,
        ).toBe(true);
      }
      const stealth = profiles.find((p) => p.profileType === 'STEALTH') as ConfigurationProfile;
      const x = await bot('x');
      await bot('y');
      const res = await admin('POST', `/api/admin/configuration-profiles/${stealth.id}/apply`, {
        targetBotIds: ['x', 'y'],
        reason: 'Quiet hours',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toMatchObject({ successful: 2, sent: 2 });
      const frame = await x.next(
        (f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 2,
      );
      expect((frame.payload as ConfigFramePayload).parameters).toEqual({
        ...DEFAULT_BOT_PARAMETERS,
        hopFrequencyMs: stealth.hopFrequencyMs,
        minPetValue: stealth.minPetValue,
        stealthMode: true,
        batchSize: stealth.batchSize,
      });
      expect((await configurations()).map((c) => [c.botId, c.profileId, c.profileName])).toEqual([
        ['x', stealth.id, 'Stealth'],
        ['y', stealth.id, 'Stealth'],
      ]);
      const after = (await admin('GET', '/api/admin/configuration-profiles')).json()
        .profiles as ConfigurationProfile[];
      expect(after.find((p) => p.id === stealth.id)?.usageCount).toBe(1);
      expect((await history())[0]).toMatchObject({
        kind: 'profile',
        profileName: 'Stealth',
        reason: 'Quiet hours',
      });

      // A profile field set by hand: no longer the profile's values. Another field: still the profile.
      await bulkUpdate({ targetBotIds: ['x'], updates: { minPetValue: 3_000_000 } });
      await bulkUpdate({ targetBotIds: ['y'], updates: { rateLimit: 300 } });
      expect((await configurations()).map((c) => [c.botId, c.profileId])).toEqual([
        ['x', null],
        ['y', stealth.id],
      ]);
      const { dashboardStats, configHealth } = await stats();
      expect(configHealth.activeProfiles).toEqual([
        { profileId: stealth.id, profileName: 'Stealth', botCount: 1 },
      ]);
      expect(dashboardStats.topUsedProfiles).toEqual([{ profileName: 'Stealth', usageCount: 1 }]);
      expect(dashboardStats.recentChanges24h).toBe(3);

      const missing = await admin('POST', '/api/admin/configuration-profiles/turbo/apply', {
        targetBotIds: ['x'],
      });
      expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Unknown profile: turbo' }]);
      expect(await auditTypes()).toEqual([
        'configuration_profile_applied',
        'configuration_bulk_update',
        'configuration_bulk_update',
      ]);
    });

    it('answers exactly the fields the screen reads (the response schemas strip the rest)', async () => {
      await httpBot('k');
      const [configuration] = await configurations();
      expect(Object.keys(configuration ?? {}).sort()).toEqual(
        [
          ...BOT_PARAMETER_NAMES,
          'botId',
          'deployError',
          'deployState',
          'id',
          'isActive',
          'lastDeployed',
          'profileId',
          'profileName',
          'version',
        ].sort(),
      );
      const pushed = await bulkUpdate({ targetBotIds: ['k'], updates: { batchSize: 20 } });
      expect(Object.keys(pushed.json().result).sort()).toEqual(['changeId', 'sent', 'successful']);
      const [change] = await history();
      expect(Object.keys(change ?? {}).sort()).toEqual([
        'actor',
        'canRollback',
        'counts',
        'createdAt',
        'id',
        'isEmergency',
        'kind',
        'profileName',
        'reason',
        'rollbackOf',
        'targets',
      ]);
      expect(change?.targets[0]).toMatchObject({ before: { batchSize: 50 }, after: { batchSize: 20 } });
      expect(Object.keys(change?.targets[0] ?? {}).sort()).toEqual([
        'after',
        'before',
        'botId',
        'error',
        'respondedAt',
        'responseTimeMs',
        'state',
        'version',
      ]);
      const profiles = (await admin('GET', '/api/admin/configuration-profiles')).json().profiles;
      expect(Object.keys(profiles[0]).sort()).toEqual([
        'batchSize',
        'description',
        'hopFrequencyMs',
        'id',
        'isBuiltIn',
        'minPetValue',
        'name',
        'profileType',
        'stealthMode',
        'usageCount',
      ]);
    });

    it('counts the dashboard figures from the configurations and the change records', async () => {
      const p = await bot('p', 'never');
      const q = await bot('q', 'never');
      await httpBot('r');
      for (const client of [p, q]) client.send({ type: 'config_ack', payload: { version: 1, ok: true } });
      await bulkUpdate({ targetBotIds: ['p', 'q'], updates: { errorThreshold: 9 } });
      await p.next((f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 2);
      t.clock.advance(300);
      p.send({ type: 'config_ack', payload: { version: 2, ok: true } });
      t.clock.advance(0);
      q.send({ type: 'config_ack', payload: { version: 2, ok: false, error: 'out of memory' } });
      await eventually(async () =>
        expect((await history())[0]?.counts).toEqual({ pending: 0, applied: 1, failed: 1 }),
      );

      // r falls silent: the fleet shows it inactive, and so is its configuration.
      t.clock.advance(t.ctx.config.FLEET_INACTIVE_AFTER_MS - 300 + 1);
      for (const client of [p, q]) client.send({ type: 'heartbeat', payload: {} });
      await eventually(async () => expect((await stats()).configHealth.onlineBots).toBe(2));
      const figures = await stats();
      expect(figures).toEqual({
        dashboardStats: {
          totalConfigurations: 3,
          activeConfigurations: 2,
          recentChanges24h: 1,
          topUsedProfiles: [],
        },
        configHealth: {
          onlineBots: 2,
          totalBots: 3,
          activeProfiles: [],
          recentFailures: [{ botId: 'q', errorMessage: 'out of memory', timestamp: expect.any(String) }],
        },
        deploymentStats: { successfulDeployments: 1, totalDeployments: 2, averageResponseTime: 300 },
        emergency: { stopped: false, reason: null, changedAt: null, changedBy: null },
      });
      // A day later the change no longer counts as recent (the 24 h session has ended too: sign in again).
      t.clock.advance(24 * 60 * 60 * 1000);
      t.cookie = await t.adminCookie();
      expect((await stats()).dashboardStats.recentChanges24h).toBe(0);
    });

    it('gives simultaneous pushes to one bot one version each, and lets only one of two simultaneous stops win', async () => {
      await bot('busy');
      const pushes = await Promise.all(
        [1000, 2000, 3000, 4000, 5000].map((hopDelayMs) =>
          bulkUpdate({ targetBotIds: ['busy'], updates: { hopDelayMs } }),
        ),
      );
      expect(pushes.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const versions = (await history()).map((c) => c.targets[0]?.version).sort();
      expect(versions).toEqual([2, 3, 4, 5, 6]);
      expect((await configurationOf('busy'))?.version).toBe(6);

      const stops = await Promise.all(
        ['one', 'two'].map((reason) => admin('POST', '/api/admin/configurations/emergency-stop', { reason })),
      );
      expect(stops.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await history()).filter((c) => c.kind === 'emergency_stop')).toHaveLength(1);
    });

    it('needs the admin session and the app origin for every call', async () => {
      const read = await t.app.inject({ method: 'GET', url: '/api/admin/configurations' });
      expect(read.statusCode).toBe(401);
      const forged = await t.injectBare({
        method: 'POST',
        url: '/api/admin/configurations/emergency-stop',
        headers: { cookie: t.cookie, origin: 'http://evil.example' },
        payload: { reason: 'x' },
      });
      expect(forged.statusCode).toBe(403);
      expect((await stats()).emergency.stopped).toBe(false);
    });
  });
}

// Two instances on one PostgreSQL schema and one Redis: the bot's socket is on the other instance.
if (DIALECTS.includes('postgres') && REDIS_URL) {
  describe('postgres + redis: live configuration across instances', () => {
    const sockets: TestClient[] = [];
    let first: TestApp;
    let second: TestApp;
    afterEach(async () => {
      for (const s of sockets.splice(0)) s.ws.terminate();
      await second?.close();
      await first?.close();
    });

    it('delivers a push made on one instance to the bot connected to the other, and settles its answer', async () => {
      first = await buildTestApp('postgres', { REDIS_URL });
      second = await buildTestApp('postgres', { REDIS_URL }, { joinSchemaOf: first });
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (second.app.server.address() as AddressInfo).port;
      const client = await botSession(sockets)('far-bot', { socketUrl: `ws://127.0.0.1:${port}/ws` });
      const cookie = await first.adminCookie();
      // The first instance learns of the bot through the fleet's bus.
      await eventually(async () => expect(first.ctx.services.fleet.state.scanners.has('far-bot')).toBe(true));
      const res = await first.app.inject({
        method: 'POST',
        url: '/api/admin/configurations/bulk-update',
        headers: { cookie },
        payload: { targetBotIds: ['far-bot'], updates: { hopFrequencyMs: 12_000 } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toMatchObject({ successful: 1, sent: 1 });
      const frame = await client.next(
        (f) => f.type === 'config' && (f.payload as ConfigFramePayload).version === 2,
      );
      expect((frame.payload as ConfigFramePayload).parameters.hopFrequencyMs).toBe(12_000);
      await eventually(async () => {
        const changes = await first.app.inject({
          method: 'GET',
          url: '/api/admin/configurations/history',
          headers: { cookie },
        });
        expect((changes.json().changes as ConfigurationChange[])[0]?.counts.applied).toBe(1);
      });
    });
  });
}
