import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnalysisResult, type Recommendation, resolutionNote } from '../../../../common/ai-health.ts';
import type { BotConfiguration, ConfigurationChange } from '../../../../common/configuration.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import { periodicSweepsIdle } from '../../../plugins/periodic-sweep.ts';
import {
  buildTestApp,
  DIALECTS,
  TEST_BOT_TOKEN,
  type TestAppSuite,
  useTestApp,
} from '../../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../../test/socket-client.ts';
import { botTopic } from '../../fleet/bot-topic.ts';
import { ACCESS_TEXTS } from '../../loader/loader-access.ts';
import {
  callLoader,
  insertTestScriptKey,
  loaderStatus,
  savePremiumScript,
} from '../../loader/script-access.fixtures.ts';
import { ANALYSIS_TEXTS, runAnalysis, SETTLE_MS } from './analysis.service.ts';
import { LOGIN_BURST } from './detectors/audit-bursts.ts';
import { IMPLEMENT_TEXTS } from './implement.service.ts';
import { RECOMMENDATION_VALID_MS } from './recommendations.ts';

const MINUTE = 60_000;
const PLACE = '109983668079237';
const FULL = 'Teleport failed: the server is full (GameFull)';
const RATE_LIMITED = 'HTTP 429 (Too Many Requests) from TeleportService';
const LOST = 'Lost connection to the game server, please reconnect (Error Code: 277)';
/** The test fleet: four bots, ten hops each a minute. */
const BOTS = ['ghost-1', 'ghost-2', 'ghost-3', 'ghost-4'];
const HOPS_PER_BOT = 10;
const SCRIPT = 'premium.lua';

/** The admin calls and the bot protocol a suite's tests drive. */
function driver(t: TestAppSuite) {
  let job = 0;
  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: t.cookie }, ...(payload ? { payload } : {}) });
  const hop = (ok: boolean, error: string, toJobId = `job-${++job}`) => ({
    type: 'server_hop',
    payload: {
      fromJobId: null,
      toJobId,
      fromPlaceId: null,
      toPlaceId: PLACE,
      success: ok,
      latencyMs: 250,
      errorMessage: ok ? null : error,
      hopReason: ok ? 'auto_scan' : error === FULL ? 'server_full' : 'error_recovery',
    },
  });
  /*
   * The fleet's own state (fleet_not_live) follows these tests' bots as they come and go, and is down
   * in a test without any: the detector's own tests and report.test.ts judge it. The lists here leave
   * it and its recommendations out, unless `withFleet`.
   */
  const allFindings = async (): Promise<AnalysisResult[]> => {
    const res = await admin('GET', '/api/admin/ai-analysis');
    expect(res.statusCode).toBe(200);
    return res.json().analysisResults;
  };
  const notFleet = (f: AnalysisResult) => f.analysisType !== 'fleet_not_live';
  return {
    admin,
    async findings(withFleet = false): Promise<AnalysisResult[]> {
      const found = await allFindings();
      return withFleet ? found : found.filter(notFleet);
    },
    async recommendations(withFleet = false): Promise<Recommendation[]> {
      const res = await admin('GET', '/api/admin/ai-recommendations');
      expect(res.statusCode).toBe(200);
      const all: Recommendation[] = res.json().recommendations;
      if (withFleet) return all;
      const fleet = new Set((await allFindings()).filter((f) => !notFleet(f)).map((f) => f.id));
      return all.filter((r) => r.analysisId === null || !fleet.has(r.analysisId));
    },
    /** What the periodic sweep does: queued audit rows written, then one analysis run now (open findings). */
    async analyse(withFleet = false): Promise<AnalysisResult[]> {
      await t.app.pendingWrites.flush();
      const open = await runAnalysis(t.ctx, t.clock.now());
      return withFleet ? open : open.filter(notFleet);
    },
    /** Hops a bot reports over POST /api/bot/events. */
    async report(ghostId: string, events: ReturnType<typeof hop>[]): Promise<void> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bot/events',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
        payload: { ghostId, events },
      });
      expect(res.statusCode, res.body).toBe(200);
    },
    hop,
    /** One minute of the fleet: bot i fails `failing[i]` of its hops; then the clock moves on. */
    async fleetMinute(failing: number[], error = FULL): Promise<void> {
      for (const [i, failed] of failing.entries()) {
        await this.report(
          BOTS[i] ?? '',
          Array.from({ length: HOPS_PER_BOT }, (_, h) => hop(h >= failed, error)),
        );
      }
      t.clock.advance(MINUTE);
    },
    /** Minute `n` of a healthy fleet: 1 to 3 of its 40 hops fail (2.5–7.5%), spread over the bots. */
    async normalMinute(n: number): Promise<void> {
      const failing = BOTS.map(() => 0);
      for (let k = 0; k < 1 + (n % 3); k++)
        failing[(n + k) % BOTS.length] = (failing[(n + k) % BOTS.length] ?? 0) + 1;
      await this.fleetMinute(failing);
    },
    async normalMinutes(count: number): Promise<void> {
      for (let n = 0; n < count; n++) await this.normalMinute(n);
    },
    implement: (id: string) => admin('POST', `/api/admin/ai-recommendations/implement/${id}`),
    resolve: (id: string) => admin('POST', `/api/admin/ai-analysis/resolve/${id}`),
  };
}

/** Lets the rows of the last moment settle (the run reads up to SETTLE_MS ago). */
const settle = (t: TestAppSuite) => t.clock.advance(SETTLE_MS + 1000);

for (const dialect of DIALECTS) {
  describe(`${dialect}: AI analysis`, () => {
    const t = useTestApp(dialect, { signIn: true });
    const d = driver(t);
    // The sweep's first run (when the app became ready) is over before a test adds data.
    beforeEach(() => periodicSweepsIdle(t.app));

    it('stays quiet on a healthy fleet, opens one finding for a hop-failure spike driven by the bots, counts its recurrence, and opens a new one after Resolve', async () => {
      await d.normalMinutes(20);
      settle(t);
      expect(await d.analyse()).toEqual([]);

      await d.fleetMinute([5, 5, 5, 5]); // 20 of 40 hops fail
      const [spike, ...others] = await d.analyse();
      expect(others).toEqual([]);
      expect(spike).toMatchObject({
        analysisType: 'hop_failure_spike',
        subject: 'fleet',
        severity: 'ERROR',
        title: expect.stringMatching(/^Hop failures spiked to 50% \(baseline [\d.]+%\)$/),
        frequency: 1,
        isResolved: 0,
      });
      expect(spike?.description).toContain('20 of 40 hops failed');
      expect(spike?.suggestedAction).toContain('Server Pool Monitor');
      // Running again reads no new data: nothing is counted twice.
      t.clock.advance(30_000);
      expect((await d.analyse()).map((f) => f.frequency)).toEqual([1]);

      const [recommendation, ...more] = await d.recommendations();
      expect(more).toEqual([]);
      expect(recommendation).toMatchObject({
        analysisId: spike?.id,
        priority: 'HIGH',
        category: 'fleet',
        title: expect.stringMatching(/^Check the server pool: hop failures at 50% \(usually [\d.]+%\)$/),
        action: { kind: 'none' },
        actionLabel: 'Marks it implemented; the change itself is yours to make',
        isImplemented: 0,
      });

      await d.normalMinutes(3);
      await d.fleetMinute([5, 5, 5, 5]);
      await d.analyse();
      const [recurred] = await d.findings();
      expect(recurred).toMatchObject({ id: spike?.id, frequency: 2, isResolved: 0 });
      expect(Date.parse(recurred?.lastSeenAt ?? '')).toBeGreaterThan(Date.parse(spike?.lastSeenAt ?? ''));
      expect(await d.recommendations()).toHaveLength(1);

      const resolved = await d.resolve(spike?.id ?? '');
      expect(resolved.statusCode).toBe(200);
      expect(resolved.json()).toMatchObject({ id: spike?.id, isResolved: 1, frequency: 2 });
      const again = await d.resolve(spike?.id ?? '');
      expect([again.statusCode, again.json()]).toEqual([409, { error: ANALYSIS_TEXTS.alreadyResolved }]);

      await d.normalMinutes(3);
      await d.fleetMinute([5, 5, 5, 5]);
      await d.analyse();
      const list = await d.findings();
      expect(list.map((f) => [f.analysisType, f.frequency, f.isResolved])).toEqual([
        ['hop_failure_spike', 1, 0],
        ['hop_failure_spike', 2, 1],
      ]);
      expect(list[0]?.id).not.toBe(spike?.id);
    });

    it('runs the detectors when Generate Report runs', async () => {
      await d.normalMinutes(20);
      await d.fleetMinute([5, 5, 5, 5]);
      settle(t);
      const generated = await d.admin('POST', '/api/admin/system-health/generate');
      expect(generated.statusCode).toBe(200);
      expect((await d.findings()).map((f) => f.analysisType)).toEqual(['hop_failure_spike']);
    });

    it('recommends STEALTH for the bots the game rate-limited in a spike, and Implement pushes it to them, audited', async () => {
      await d.normalMinutes(16);
      await d.fleetMinute([10, 10, 0, 0], RATE_LIMITED);
      settle(t);
      const [spike] = await d.analyse();
      expect(spike?.suggestedAction).toContain('STEALTH');
      const [recommendation] = await d.recommendations();
      expect(recommendation).toMatchObject({
        analysisId: spike?.id,
        title: 'Apply STEALTH to ghost-1, ghost-2: rate-limited by the game',
        action: { kind: 'apply_profile', profileId: 'stealth', botIds: ['ghost-1', 'ghost-2'] },
        actionLabel: 'Applies the STEALTH profile to ghost-1, ghost-2 (a configuration push, audited)',
      });

      const frames: unknown[] = [];
      const unsubscribe = t.ctx.bus.subscribe(botTopic('ghost-1'), (frame) => frames.push(frame));
      const res = await d.implement(recommendation?.id ?? '');
      unsubscribe();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        id: recommendation?.id,
        isImplemented: 1,
        actionLabel: expect.stringMatching(
          /^Applied the STEALTH profile to ghost-1, ghost-2 \(change #\d+\)$/,
        ),
      });
      expect(frames).toEqual([
        {
          type: 'config',
          payload: {
            version: 2,
            parameters: expect.objectContaining({ hopFrequencyMs: 15_000, stealthMode: true }),
          },
        },
      ]);
      const configurations: BotConfiguration[] = (await d.admin('GET', '/api/admin/configurations')).json()
        .configurations;
      expect(configurations.map((c) => [c.botId, c.profileId, c.hopFrequencyMs])).toEqual([
        ['ghost-1', 'stealth', 15_000],
        ['ghost-2', 'stealth', 15_000],
        ['ghost-3', null, 5000],
        ['ghost-4', null, 5000],
      ]);
      const [change]: ConfigurationChange[] = (
        await d.admin('GET', '/api/admin/configurations/history')
      ).json().changes;
      expect(change).toMatchObject({ kind: 'profile', profileName: 'Stealth' });
      expect(change?.reason).toBe(`AI recommendation #${recommendation?.id}: ${recommendation?.title}`);
      const audits = await t.ctx.db.selectFrom('audit_logs').select('event_type').orderBy('id').execute();
      expect(audits.map((a) => a.event_type).slice(-2)).toEqual([
        'configuration_profile_applied',
        'ai_recommendation_implemented',
      ]);
      expect((await d.recommendations())[0]?.isImplemented).toBe(1);
      const twice = await d.implement(recommendation?.id ?? '');
      expect([twice.statusCode, twice.json()]).toEqual([409, { error: IMPLEMENT_TEXTS.alreadyImplemented }]);
    });

    it('flags the one bot that fails far more than the rest, counting its new failures', async () => {
      const minute = async (n: number) => d.fleetMinute([n % 2, 0, (n + 1) % 2, 5], LOST);
      for (let n = 0; n < 20; n++) await minute(n);
      settle(t);
      const found = await d.analyse();
      expect(found.map((f) => [f.analysisType, f.subject, f.frequency])).toEqual([
        ['failing_bot', 'ghost-4', 100],
      ]);
      expect(found[0]?.title).toMatch(/^ghost-4 fails 50% of its hops \(the fleet: [\d.]+%\)$/);
      expect(found[0]?.description).toContain(`most often "${LOST}"`);
      for (let n = 0; n < 2; n++) await minute(n);
      settle(t);
      expect((await d.analyse()).map((f) => [f.subject, f.frequency])).toEqual([['ghost-4', 110]]);
      expect((await d.recommendations()).map((r) => [r.title, r.action.kind])).toEqual([
        ['Restart ghost-4: 50% of its hops fail', 'none'],
      ]);
    });

    it('flags a game server the bots keep failing on, and not the servers they fail on once', async () => {
      for (let n = 0; n < 20; n++) {
        if (n % 3 === 0) await d.report(BOTS[n % 4] ?? '', [d.hop(false, FULL, 'dead-server')]);
        await d.normalMinute(n);
      }
      settle(t);
      const found = await d.analyse();
      expect(found.map((f) => [f.analysisType, f.subject, f.frequency])).toEqual([
        ['failing_server', `${PLACE}/dead-server`, 7],
      ]);
      expect(found[0]?.title).toBe('Game server dead-server fails 100% of the hops to it');
      expect((await d.recommendations()).map((r) => r.title)).toEqual([
        'Take server dead-server out of the pool',
      ]);
    });

    it('flags a key the loader refused to many devices, and Implement switches it off so the loader refuses it', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'return "premium"\n');
      const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      const load = (device: number) =>
        t.app.inject({
          method: 'GET',
          url: `/api/script/loader?${new URLSearchParams({ script: SCRIPT, key: key.scriptKey, hwid: `device-${device}` })}`,
          remoteAddress: `198.51.100.${device + 1}`,
        });
      expect((await load(0)).statusCode).toBe(200);
      for (const device of [1, 2, 3]) expect(loaderStatus(await load(device))).toBe(403);
      settle(t);
      expect(await d.analyse()).toEqual([]); // three other devices: its owner's new phone, maybe

      for (const device of [4, 5, 6]) expect(loaderStatus(await load(device))).toBe(403);
      settle(t);
      const [shared] = await d.analyse();
      const masked = maskLicenseKey(key.scriptKey);
      expect(shared).toMatchObject({
        analysisType: 'shared_key',
        subject: `script key #${key.id}`,
        title: `Script key ${masked} tried from 6 devices in an hour`,
        frequency: 2,
      });
      const [recommendation] = await d.recommendations();
      expect(recommendation).toMatchObject({
        priority: 'MEDIUM',
        category: 'security',
        title: `Revoke key ${masked}: 6 devices tried it in an hour`,
        action: { kind: 'revoke_script_key', scriptKeyId: String(key.id) },
        actionLabel: `Switches script key ${masked} off: the loader then refuses it on every device (audited)`,
      });

      const res = await d.implement(recommendation?.id ?? '');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().actionLabel).toBe(`Switched script key ${masked} off: the loader refuses it now`);
      const refused = await load(0);
      expect(loaderStatus(refused)).toBe(403);
      expect(refused.body).toContain(ACCESS_TEXTS.inactiveKey);
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .select(['event_type', 'details'])
        .where('event_type', '=', 'script_key_status_changed')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.details)).toEqual({
        id: key.id,
        isActive: 0,
        reason: `AI recommendation #${recommendation?.id}: ${recommendation?.title}`,
      });
    });

    it('marks a revoke implemented without switching the key back on when the admin switched it off first', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'return "premium"\n');
      const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      for (let device = 0; device < 7; device++) {
        await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: `device-${device}` });
      }
      settle(t);
      await d.analyse();
      const [recommendation] = await d.recommendations();
      const toggled = await d.admin('POST', '/api/admin/script-keys/toggle-status', { keyId: key.id });
      expect(toggled.json().scriptKey?.isActive, toggled.body).toBe(0);

      const res = await d.implement(recommendation?.id ?? '');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        isImplemented: 1,
        actionLabel: `Script key ${maskLicenseKey(key.scriptKey)} was already off: nothing changed`,
      });
      const row = await t.ctx.db
        .selectFrom('script_keys')
        .select('is_active')
        .where('id', '=', key.id)
        .executeTakeFirst();
      expect(row?.is_active).toBe(0);
    });

    it('flags a burst of failed admin logins from one address, not a couple of typos, and Implement only marks it', async () => {
      const login = (ip: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { adminSecret: 'guess' },
          remoteAddress: ip,
        });
      for (let i = 0; i < 6; i++) await login('203.0.113.7'); // 5 wrong, then the lockout
      for (let i = 0; i < 2; i++) await login('192.0.2.1');
      settle(t);
      const found = await d.analyse();
      expect(found.map((f) => [f.analysisType, f.subject, f.frequency])).toEqual([
        ['login_burst', '203.0.113.7', 2],
      ]);
      const [recommendation] = await d.recommendations();
      expect(recommendation).toMatchObject({
        title: 'Block 203.0.113.7: 6 failed admin logins',
        category: 'security',
        action: { kind: 'none' },
      });
      const res = await d.implement(recommendation?.id ?? '');
      expect(res.json()).toMatchObject({ isImplemented: 1, actionLabel: IMPLEMENT_TEXTS.markedOnly });
      expect(await d.findings()).toMatchObject([{ isResolved: 0 }]); // implementing resolves nothing
    });

    it('groups repeated client error reports into one finding, and leaves different errors alone', async () => {
      const report = (message: string, n: number) =>
        d.admin('POST', '/api/admin/error-report', {
          errorId: `err-${message}-${n}`,
          error: { name: 'TypeError', message },
          level: 'component',
          timestamp: new Date(t.clock.now()).toISOString(),
        });
      for (let n = 0; n < 5; n++)
        expect((await report('rows.map is not a function', n)).statusCode).toBe(201);
      for (let n = 0; n < 4; n++) await report(`unexpected token ${n}`, n);
      settle(t);
      expect((await d.analyse()).map((f) => [f.analysisType, f.subject, f.frequency])).toEqual([
        ['client_errors', 'TypeError: rows.map is not a function', 1],
      ]);
    });

    const setSlots = async (totalSlots: number) => {
      const res = await d.admin('PUT', '/api/admin/system-configuration', { totalSlots, paymentWallets: {} });
      expect(res.statusCode, res.body).toBe(200);
    };
    const iso = (ms: number) => new Date(ms).toISOString();

    it('flags slots nearly full as one occurrence while it lasts, closes it once usage falls, and opens a new one when it comes back', async () => {
      await setSlots(10);
      for (let i = 0; i < 8; i++) await insertTestScriptKey(t);
      settle(t);
      expect(await d.analyse()).toEqual([]); // 80%
      await insertTestScriptKey(t);
      t.clock.advance(MINUTE);
      const [slots] = await d.analyse();
      expect(slots).toMatchObject({
        analysisType: 'slots_nearly_full',
        severity: 'WARNING',
        title: 'Premium slots nearly full: 9/10 used',
        frequency: 1,
      });
      t.clock.advance(MINUTE);
      expect((await d.analyse()).map((f) => f.frequency)).toEqual([1]);
      await setSlots(20);
      t.clock.advance(MINUTE);
      expect(await d.analyse()).toEqual([]);
      await setSlots(10);
      t.clock.advance(MINUTE);
      const [again] = await d.analyse();
      expect(again).toMatchObject({ title: 'Premium slots nearly full: 9/10 used', frequency: 1 });
      expect(again?.id).not.toBe(slots?.id);
      expect((await d.findings()).map((f) => [f.id, f.isResolved, f.resolution])).toEqual([
        [again?.id, 0, null],
        [slots?.id, 1, 'automatic'],
      ]);
      expect((await d.recommendations()).map((r) => [r.title, r.category, r.resolution])).toEqual([
        ['Raise total slots: 9/10 used', 'capacity', null],
        ['Raise total slots: 9/10 used', 'capacity', 'automatic'],
      ]);
    });

    it('closes "No premium slots left" and "Raise total slots" by themselves once total slots are raised', async () => {
      await setSlots(3);
      for (let i = 0; i < 5; i++) await insertTestScriptKey(t);
      settle(t);
      const [full] = await d.analyse();
      expect(full).toMatchObject({
        severity: 'ERROR',
        title: 'No premium slots left: 5/3 used',
        isResolved: 0,
      });
      const [raise] = await d.recommendations();
      expect(raise).toMatchObject({
        analysisId: full?.id,
        title: 'Raise total slots: 5/3 used',
        resolution: null,
      });

      await setSlots(40);
      t.clock.advance(MINUTE);
      expect(await d.analyse()).toEqual([]);
      const closedAt = iso(t.clock.now());
      const [closedFinding] = await d.findings();
      expect(closedFinding).toMatchObject({
        id: full?.id,
        isResolved: 1,
        resolution: 'automatic',
        resolvedAt: closedAt,
      });
      const [closedAdvice] = await d.recommendations();
      expect(closedAdvice).toMatchObject({
        id: raise?.id,
        isImplemented: 0,
        resolution: 'automatic',
        resolvedAt: closedAt,
      });
      for (const item of [closedFinding, closedAdvice]) {
        expect(resolutionNote(item ?? { resolvedAt: null, resolution: null }, (at) => at)).toBe(
          `resolved automatically at ${closedAt}`,
        );
      }
      const late = await d.implement(raise?.id ?? '');
      expect([late.statusCode, late.json()]).toEqual([409, { error: IMPLEMENT_TEXTS.resolved }]);
    });

    it('closes an event finding once its span passes without a new occurrence, keeping what the administrator implemented or resolved', async () => {
      for (let i = 0; i < 6; i++) {
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { adminSecret: 'guess' },
          remoteAddress: '203.0.113.7',
        });
      }
      settle(t);
      const [burst] = await d.analyse();
      const [block] = await d.recommendations();
      expect((await d.implement(block?.id ?? '')).statusCode).toBe(200);
      // The slots: full, resolved by hand while its recommendation is pending.
      await setSlots(1);
      await insertTestScriptKey(t);
      t.clock.advance(MINUTE);
      const slots = (await d.analyse()).find((f) => f.analysisType === 'slots_nearly_full');
      expect((await d.resolve(slots?.id ?? '')).json()).toMatchObject({
        isResolved: 1,
        resolution: 'operator',
      });
      await setSlots(10);

      // Fifteen minutes of logins counted from the last attempt: still within the burst's span.
      t.clock.advance(LOGIN_BURST.spanMs - 2 * MINUTE);
      expect((await d.analyse()).map((f) => f.id)).toEqual([burst?.id]);
      t.clock.advance(2 * MINUTE);
      expect(await d.analyse()).toEqual([]);
      const findings = await d.findings();
      expect(findings.map((f) => [f.analysisType, f.isResolved, f.resolution])).toEqual([
        ['slots_nearly_full', 1, 'operator'],
        ['login_burst', 1, 'automatic'],
      ]);
      const advice = await d.recommendations();
      expect(advice.map((r) => [r.title, r.isImplemented, r.resolution])).toEqual([
        ['Raise total slots: 1/1 used', 0, 'automatic'],
        ['Block 203.0.113.7: 6 failed admin logins', 1, null],
      ]);
    });

    it('answers 404 for unknown ids, 400 for malformed ones, 409 for an expired recommendation, and needs the admin session and the own origin', async () => {
      for (const url of [
        '/api/admin/ai-analysis/resolve/999',
        '/api/admin/ai-recommendations/implement/999',
      ]) {
        const res = await d.admin('POST', url);
        expect(res.statusCode).toBe(404);
      }
      expect((await d.resolve('999')).json()).toEqual({ error: ANALYSIS_TEXTS.findingNotFound });
      expect((await d.implement('999')).json()).toEqual({ error: IMPLEMENT_TEXTS.notFound });
      const malformed = await d.resolve('abc');
      expect([malformed.statusCode, malformed.json().error]).toEqual([
        400,
        'params id: id must be a positive whole number',
      ]);

      for (const url of ['/api/admin/ai-analysis', '/api/admin/ai-recommendations']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      }

      await d.normalMinutes(20);
      await d.fleetMinute([5, 5, 5, 5]);
      settle(t);
      const [spike] = await d.analyse();
      const [recommendation] = await d.recommendations();
      const foreign = await t.app.inject({
        method: 'POST',
        url: `/api/admin/ai-analysis/resolve/${spike?.id}`,
        headers: { cookie: t.cookie, origin: 'https://evil.example' },
      });
      expect(foreign.statusCode).toBe(403);
      expect((await d.findings())[0]?.isResolved).toBe(0);

      t.clock.advance(RECOMMENDATION_VALID_MS + 1);
      t.cookie = await t.adminCookie(); // the session lasted 24 hours too
      const expired = await d.implement(recommendation?.id ?? '');
      expect([expired.statusCode, expired.json()]).toEqual([409, { error: IMPLEMENT_TEXTS.expired }]);
      // A day without a spike: the finding closes itself; its expired recommendation stays as it was.
      await d.analyse();
      expect((await d.findings()).map((f) => [f.id, f.resolution])).toEqual([[spike?.id, 'automatic']]);
      expect((await d.recommendations()).map((r) => [r.id, r.isImplemented, r.resolution])).toEqual([
        [recommendation?.id, 0, null],
      ]);
    });

    it('replaces an expired recommendation while its finding stays open', async () => {
      await setSlots(1);
      await insertTestScriptKey(t, { expiresAt: t.clock.now() + 2 * RECOMMENDATION_VALID_MS }); // past the day
      settle(t);
      const [full] = await d.analyse();
      const [first] = await d.recommendations();
      t.clock.advance(RECOMMENDATION_VALID_MS + 1);
      t.cookie = await t.adminCookie(); // the session lasted 24 hours too
      await d.analyse();
      const current = await d.recommendations();
      expect(current.map((r) => [r.analysisId, r.isImplemented, r.resolution])).toEqual([
        [full?.id, 0, null],
        [full?.id, 0, null],
      ]);
      expect(current[1]?.id).toBe(first?.id);
      expect(Date.parse(current[0]?.validUntil ?? '')).toBeGreaterThan(t.clock.now());
    });
  });

  describe(`${dialect}: AI analysis of rate limits`, () => {
    const t = useTestApp(dialect, { signIn: true, env: { RATE_LIMIT_LOADER: '3' } });
    const d = driver(t);
    beforeEach(() => periodicSweepsIdle(t.app));

    it('flags a client the rate limits refused a hundred times within minutes, once its window is over', async () => {
      const load = (ip: string) =>
        t.app.inject({ method: 'GET', url: `/api/script/loader?script=${SCRIPT}`, remoteAddress: ip });
      for (let i = 0; i < 110; i++) await load('198.51.100.20');
      for (let i = 0; i < 20; i++) await load('198.51.100.21');
      settle(t);
      expect(await d.analyse()).toEqual([]); // the window's count may still grow
      t.clock.advance(t.ctx.config.RATE_LIMIT_WINDOW_MS);
      const found = await d.analyse();
      expect(found.map((f) => [f.analysisType, f.subject, f.frequency])).toEqual([
        ['rate_limit_burst', '198.51.100.20', 107],
      ]);
      expect(found[0]?.description).toContain(
        'refused 107 calls from 198.51.100.20 within 10 minutes (loader;',
      );
    });
  });

  describe(`${dialect}: AI analysis of configuration pushes`, () => {
    const t = useTestApp(dialect, { signIn: true, listen: true });
    const d = driver(t);
    const sockets: TestClient[] = [];
    beforeEach(() => periodicSweepsIdle(t.app));
    afterEach(() => {
      for (const socket of sockets.splice(0)) socket.ws.terminate();
    });

    /** A bot on a real socket that acknowledges configuration, or never answers. */
    async function bot(ghostId: string, answers: boolean): Promise<void> {
      const client = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(client);
      client.ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; payload: { version: number } };
        if (frame.type === 'config' && answers) {
          client.send({ type: 'config_ack', payload: { version: frame.payload.version, ok: true } });
        }
      });
      client.send({ type: 'hello', payload: { ghostId, version: '1.0.0' } });
      await client.next((f) => f.type === 'config');
    }

    /** Pushes a change to `botIds` and lets its deadline pass; the configuration sweep settles it. */
    async function pushUnanswered(botIds: string[], silentBot: string, silentSoFar: number): Promise<void> {
      const push = await d.admin('POST', '/api/admin/configurations/bulk-update', {
        targetBotIds: botIds,
        updates: { batchSize: 75 + silentSoFar },
      });
      expect(push.statusCode, push.body).toBe(200);
      t.clock.advance(t.ctx.config.CONFIG_ACK_DEADLINE_MS + 1);
      // The configuration feature's own sweep (every second) settles the push.
      const deadline = Date.now() + 5000;
      for (;;) {
        const failed = await t.ctx.db
          .selectFrom('configuration_targets')
          .select('state')
          .where('bot_id', '=', silentBot)
          .where('state', '=', 'failed')
          .execute();
        if (failed.length > silentSoFar || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    it('flags a connected bot that lets a push pass its deadline unanswered, not the one that answers', async () => {
      await bot('ghost-quiet', false);
      await bot('ghost-ok', true);
      await pushUnanswered(['ghost-quiet', 'ghost-ok'], 'ghost-quiet', 0);
      settle(t);
      const found = await d.analyse();
      expect(found.map((f) => [f.analysisType, f.subject, f.frequency])).toEqual([
        ['config_not_acknowledged', 'ghost-quiet', 1],
      ]);
      expect((await d.recommendations()).map((r) => r.title)).toEqual([
        'Restart ghost-quiet: it does not acknowledge its configuration',
      ]);
    });

    it('counts the same silent pushes in the finding and in its recommendation as more go unanswered', async () => {
      await bot('ghost-quiet', false);
      await pushUnanswered(['ghost-quiet'], 'ghost-quiet', 0);
      settle(t);
      await d.analyse();
      await pushUnanswered(['ghost-quiet'], 'ghost-quiet', 1);
      settle(t);
      const [finding] = await d.analyse();
      expect(finding?.description).toContain('ghost-quiet left 2 configuration pushes unanswered');
      const recommendations = await d.recommendations();
      expect(recommendations).toHaveLength(1);
      expect(recommendations[0]?.reasoning).toContain('left 2 configuration pushes unanswered');
    });
  });

  // Two apps on one database: the test helper shares a PostgreSQL schema; SQLite runs in memory.
  if (dialect === 'postgres')
    describe(`${dialect}: AI analysis on two instances`, () => {
      it('counts the evidence once when both instances analyse the same data at the same moment', async () => {
        const first = await buildTestApp(dialect);
        const second = await buildTestApp(dialect, {}, { joinSchemaOf: first });
        try {
          await Promise.all([periodicSweepsIdle(first.app), periodicSweepsIdle(second.app)]);
          for (let i = 0; i < 6; i++) {
            await first.app.inject({
              method: 'POST',
              url: '/api/admin/login',
              payload: { adminSecret: 'guess' },
              remoteAddress: '203.0.113.7',
            });
          }
          // Failed logins are audited through the batched writes.
          await first.app.pendingWrites.flush();
          const now = first.clock.now() + SETTLE_MS + 1000;
          const [one, other] = await Promise.all([runAnalysis(first.ctx, now), runAnalysis(second.ctx, now)]);
          // No bot has reported to either: the fleet is down too, and that is counted once as well.
          const types = (found: AnalysisResult[]) =>
            found
              .map((f) => [f.analysisType, f.frequency])
              .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
          expect([one, other].map((found) => types(found))).toEqual([
            [
              ['fleet_not_live', 1],
              ['login_burst', 2],
            ],
            [
              ['fleet_not_live', 1],
              ['login_burst', 2],
            ],
          ]);
          const rows = await first.ctx.db
            .selectFrom('analysis_findings')
            .select(['analysis_type', 'frequency'])
            .orderBy('analysis_type')
            .execute();
          expect(rows.map((r) => [r.analysis_type, Number(r.frequency)])).toEqual([
            ['fleet_not_live', 1],
            ['login_burst', 2],
          ]);
        } finally {
          await second.close();
          await first.close();
        }
      });
    });
}
