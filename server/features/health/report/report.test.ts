import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AnalysisResult,
  type HealthReport,
  type Recommendation,
  resolutionNote,
  type ScoreComponent,
} from '../../../../common/ai-health.ts';
import { FREE_SCRIPT_FILE } from '../../../../common/public-defaults.ts';
import {
  buildTestApp,
  DIALECTS,
  TEST_ADMIN_SECRET,
  TEST_BOT_TOKEN,
  useTestApp,
} from '../../../test/helper.ts';
import { hopEvent } from '../../fleet/fleet.fixtures.ts';
import { botsReport, ghostIds } from '../bots-heard.fixtures.ts';
import { databasePing, SLOW_DATABASE_MS } from './database-probe.ts';
import { REPORTS_KEPT } from './report.store.ts';
import { WEAKNESS_TEXTS } from './security-posture.ts';

const HOUR = 60 * 60_000;
const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

const componentScore = (report: HealthReport, name: ScoreComponent['name']) =>
  report.components.find((c) => c.name === name)?.score;

const hop = (success: boolean, n: number) => hopEvent(n, { success });

for (const dialect of DIALECTS) {
  describe(`${dialect}: health report`, () => {
    // Small loader limit: a few calls reach it.
    const t = useTestApp(dialect, { signIn: true, env: { RATE_LIMIT_LOADER: '3' } });

    afterEach(() => {
      vi.restoreAllMocks();
    });

    const generate = async (headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/system-health/generate',
        headers: { cookie: t.cookie, ...headers },
      });
      expect(res.statusCode).toBe(200);
      return res.json().healthReport as HealthReport;
    };
    const latest = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/system-health',
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode).toBe(200);
      return res.json().healthReport as HealthReport | null;
    };

    it('answers null before the first report; Generate stores one that GET then returns', async () => {
      expect(await latest()).toBeNull();
      await botsReport(t, ghostIds(3));
      const report = await generate();
      expect(report).toMatchObject({
        id: expect.any(String),
        generatedAt: new Date(t.clock.now()).toISOString(),
        databaseHealth: { connectionStatus: 'connected' },
        securityHealth: { activeThreats: 0, vulnerabilityScore: 0, weaknesses: [] },
        fleetHealth: {
          totalBots: 3,
          errorBots: 0,
          hopFailureRate: null,
          poolAvailability: null,
          condition: { state: 'live', expectedBots: 3, heardBots: 3, lastHeardFrom: expect.any(String) },
        },
        summary: { status: 'disabled', text: null, model: null, error: null },
      });
      expect(report.analysisTime).toBeGreaterThanOrEqual(0);
      expect(report.components.map((c) => [c.name, c.weight])).toEqual([
        ['database', 0.2],
        ['performance', 0.25],
        ['security', 0.3],
        ['fleet', 0.25],
      ]);
      const weighted = report.components.reduce((sum, c) => sum + c.score * c.weight, 0);
      expect(report.healthScore).toBe(Math.round(weighted));
      expect(report.healthScore).toBeGreaterThanOrEqual(85);
      expect(report.systemStatus).toBe('healthy');
      expect(await latest()).toEqual(report);

      t.clock.advance(60_000);
      const second = await generate();
      expect(second.id).not.toBe(report.id);
      expect(await latest()).toEqual(second);
    });

    const admin = async <T>(url: string, field: string): Promise<T[]> => {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: t.cookie } });
      expect(res.statusCode).toBe(200);
      return res.json()[field];
    };
    /** The fleet's findings; `open` only those still open (the app's first sweep, before any bot, found it down). */
    const fleetFindings = async (open = true) =>
      (await admin<AnalysisResult>('/api/admin/ai-analysis', 'analysisResults')).filter(
        (f) => f.analysisType === 'fleet_not_live' && (!open || f.isResolved === 0),
      );
    const recommendations = () => admin<Recommendation>('/api/admin/ai-recommendations', 'recommendations');

    it('calls a fleet that fell silent critical, with a CRITICAL finding naming the last bot heard, and closes it when the bots are back', async () => {
      const bots = ghostIds(7);
      await botsReport(t, bots.slice(0, 6));
      t.clock.advance(1000);
      await botsReport(t, ['ghost-07']); // the last heard from
      const heardAt = t.clock.now();
      t.clock.advance(1000); // past the app's first sweep, so Generate runs the analysis again
      const live = await generate();
      expect(live.fleetHealth.condition).toMatchObject({ state: 'live', expectedBots: 7, heardBots: 7 });
      expect([live.systemStatus, componentScore(live, 'fleet')]).toEqual(['healthy', 100]);
      expect(await fleetFindings()).toEqual([]);

      // The simulator stops: two minutes later no bot has been heard from for FLEET_INACTIVE_AFTER_MS.
      t.clock.advance(2 * 60_000);
      const silent = await generate();
      expect(silent.fleetHealth).toMatchObject({
        totalBots: 7,
        errorBots: 0,
        condition: {
          state: 'down',
          expectedBots: 7,
          heardBots: 0,
          lastHeardAt: new Date(heardAt).toISOString(),
          lastHeardFrom: 'ghost-07',
        },
      });
      expect(componentScore(silent, 'fleet')).toBe(0);
      expect(silent.systemStatus).toBe('critical');
      expect(silent.healthScore).toBeLessThan(60);
      const hhmm = new Date(heardAt).toISOString().slice(11, 16);
      const [down, ...more] = await fleetFindings();
      expect(more).toEqual([]);
      expect(down).toMatchObject({
        severity: 'CRITICAL',
        subject: 'down',
        title: `No bot has reported for 2 min — last heard ${hhmm} UTC from ghost-07`,
        isResolved: 0,
        resolution: null,
      });
      expect(down?.suggestedAction).toContain("the bots' network");
      const [advice] = await recommendations();
      expect(advice).toMatchObject({
        analysisId: down?.id,
        priority: 'CRITICAL',
        title: "Check the bots' host and network: no bot is reporting",
        resolution: null,
      });

      // The bots come back.
      await botsReport(t, bots);
      t.clock.advance(10_000);
      const back = await generate();
      expect([back.systemStatus, back.fleetHealth.condition?.state, componentScore(back, 'fleet')]).toEqual([
        'healthy',
        'live',
        100,
      ]);
      const closedAt = new Date(t.clock.now()).toISOString();
      expect(await fleetFindings()).toEqual([]);
      expect((await fleetFindings(false)).find((f) => f.id === down?.id)).toMatchObject({
        isResolved: 1,
        resolution: 'automatic',
        resolvedAt: closedAt,
      });
      const [closed] = await recommendations();
      expect(closed).toMatchObject({ id: advice?.id, isImplemented: 0, resolution: 'automatic' });
      expect(resolutionNote(closed ?? { resolvedAt: null, resolution: null }, (iso) => iso)).toBe(
        `resolved automatically at ${closedAt}`,
      );
    });

    it('names who made an emergency stop in a WARNING finding, and keeps the report degraded rather than critical', async () => {
      await botsReport(t, ghostIds(3));
      const stop = await t.app.inject({
        method: 'POST',
        url: '/api/admin/configurations/emergency-stop',
        headers: { cookie: t.cookie },
        payload: { reason: 'ban wave' },
      });
      expect(stop.statusCode, stop.body).toBe(200);
      const stoppedAt = t.clock.now();
      t.clock.advance(2 * 60_000); // the bots stopped and went quiet: that was asked for
      const report = await generate();
      expect(report.fleetHealth.condition).toMatchObject({
        state: 'stopped',
        stoppedBy: 'admin (127.0.0.1)',
        stoppedAt: new Date(stoppedAt).toISOString(),
      });
      expect(componentScore(report, 'fleet')).toBe(100);
      expect(report.systemStatus).toBe('degraded');
      expect(await fleetFindings()).toMatchObject([
        {
          severity: 'WARNING',
          subject: 'stopped',
          title: 'Emergency stop by admin (127.0.0.1): ban wave — bots are told to stop scanning',
        },
      ]);
    });

    it(`keeps the newest ${REPORTS_KEPT} reports`, async () => {
      const ids: string[] = [];
      for (let i = 0; i < REPORTS_KEPT + 2; i++) ids.push((await generate()).id);
      const rows = await t.ctx.db.selectFrom('health_reports').select('report_id').orderBy('id').execute();
      expect(rows.map((r) => r.report_id)).toEqual(ids.slice(2));
      expect((await latest())?.id).toBe(ids.at(-1));
    });

    it('needs the admin session, and Generate a call from the app itself', async () => {
      for (const [method, url] of [
        ['GET', '/api/admin/system-health'],
        ['POST', '/api/admin/system-health/generate'],
      ] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode).toBe(401);
      }
      const forged = await t.app.inject({
        method: 'POST',
        url: '/api/admin/system-health/generate',
        headers: { cookie: t.cookie, origin: 'http://evil.example' },
      });
      expect(forged.statusCode).toBe(403);
      expect(await t.ctx.db.selectFrom('health_reports').selectAll().execute()).toEqual([]);
    });

    it('reports a slow database as slow, with its round trip, and scores it lower', async () => {
      const fast = await generate();
      expect(fast.databaseHealth.responseTime).toBeLessThan(SLOW_DATABASE_MS);
      const ping = databasePing.ping;
      vi.spyOn(databasePing, 'ping').mockImplementation(async (db) => {
        await sleep(SLOW_DATABASE_MS + 100);
        return ping(db);
      });
      const slow = await generate();
      expect(slow.databaseHealth.connectionStatus).toBe('slow');
      // A timer may fire a fraction of a millisecond before its delay as performance.now() counts it.
      expect(slow.databaseHealth.responseTime).toBeGreaterThanOrEqual(SLOW_DATABASE_MS);
      expect(componentScore(slow, 'database')).toBeLessThan(componentScore(fast, 'database') ?? 0);
      // Not the whole score: its performance part follows this process's CPU, which other tests move.
      expect(slow.analysisTime).toBeGreaterThanOrEqual(SLOW_DATABASE_MS);
    });

    it('reports a database that fails as disconnected, and still answers with the rest', async () => {
      vi.spyOn(databasePing, 'ping').mockRejectedValue(new Error('connection refused'));
      const report = await generate();
      expect(report.databaseHealth.connectionStatus).toBe('disconnected');
      expect(report.components.find((c) => c.name === 'database')).toMatchObject({
        score: 0,
        notes: expect.arrayContaining(['connection refused']),
      });
      expect(report.performanceHealth.memoryUsage).toBeGreaterThan(0);
      expect(report.systemStatus).not.toBe('healthy');
      expect((await latest())?.id).toBe(report.id);
    });

    it('counts a burst of failed logins as threats for an hour, and lowers the score', async () => {
      const calm = await generate();
      for (let i = 0; i < 6; i++) {
        await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { adminSecret: 'wrong' } });
      }
      const attacked = await generate();
      // Five failures, then the lockout's refusal (a rate-limit hit).
      expect(attacked.securityHealth.activeThreats).toBe(6);
      expect(attacked.securityHealth.vulnerabilityScore).toBeGreaterThan(
        calm.securityHealth.vulnerabilityScore,
      );
      // The security part falls. (Not the whole score: its performance part follows this
      // process's CPU, which other tests move.)
      expect(componentScore(attacked, 'security')).toBeLessThan(componentScore(calm, 'security') ?? 0);
      expect(attacked.components.find((c) => c.name === 'security')?.notes).toContain(
        '6 threats in the last hour',
      );

      t.clock.advance(HOUR + 1);
      const later = await generate();
      expect(later.securityHealth.activeThreats).toBe(0);
    });

    it('adds up rate-limited calls as the Security screen does', async () => {
      for (let i = 0; i < 7; i++) {
        await t.app.inject({ method: 'GET', url: `/api/script/loader?script=${FREE_SCRIPT_FILE}` });
      }
      const report = await generate();
      const status = await t.app.inject({
        method: 'GET',
        url: '/api/admin/security/rate-limits',
        headers: { cookie: t.cookie },
      });
      expect(status.json().rateLimits.hitCount24h).toBe(4);
      expect(report.securityHealth.activeThreats).toBe(4);
    });

    it('shows the requests the server answered in its performance figures', async () => {
      const before = (await generate()).performanceHealth;
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/admin/system-configuration',
          headers: { cookie: t.cookie },
        });
        expect(res.statusCode).toBe(200);
      }
      await latest(); // the report's own calls are not counted
      const after = (await generate()).performanceHealth;
      expect(after.requestCount).toBe(before.requestCount + 5);
      expect(after.averageRequestTime).toBeGreaterThan(0);
      expect(after.p95RequestTime).toBeGreaterThanOrEqual(after.p50RequestTime);
      expect(after.p95RequestTime).toBe(t.app.requestTimings.stats().p95);
      expect(after.cpuUsage).toBeGreaterThanOrEqual(0);
      expect(after.memoryUsage).toBeGreaterThan(0);
      expect(after.memoryUsage).toBeLessThan(100);

      // The window holds the last five minutes.
      t.clock.advance(5 * 60_000 + 1);
      expect((await generate()).performanceHealth).toMatchObject({ requestCount: 0, averageRequestTime: 0 });
    });

    it('shows failed hops, bots in error and pool availability in the fleet figures', async () => {
      await botsReport(t, ['ghost-1', 'ghost-2']);
      const calm = await generate();
      const events = (ghostId: string, list: object[]) =>
        t.injectBare({
          method: 'POST',
          url: '/api/bot/events',
          headers: BOT,
          payload: { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }, ...list] },
        });
      expect(
        (await events('ghost-1', [hop(false, 1), hop(false, 2), hop(false, 3), hop(true, 4)])).statusCode,
      ).toBe(200);
      expect(
        (await events('ghost-2', [{ type: 'scanner_status', payload: { status: 'error' } }])).statusCode,
      ).toBe(200);
      const added = await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/servers',
        headers: BOT,
        payload: {
          servers: ['a', 'b', 'c', 'd'].map((id) => ({ jobId: `pool-${id}`, placeId: '109983668079237' })),
        },
      });
      expect(added.statusCode).toBe(200);
      // Bots of the fleet (the pool refuses others): ghost-1 holds two servers.
      for (const ghostId of ['ghost-1', 'ghost-2', 'ghost-1']) {
        const claim = await t.injectBare({
          method: 'POST',
          url: '/api/server-pool/claim',
          headers: BOT,
          payload: { ghostId },
        });
        expect(claim.statusCode).toBe(200);
      }

      const report = await generate();
      expect(report.fleetHealth).toEqual({
        totalBots: 2,
        errorBots: 1,
        hopFailureRate: 75,
        poolAvailability: 25,
        condition: expect.objectContaining({ state: 'live', expectedBots: 2, heardBots: 2 }),
      });
      expect(report.components.find((c) => c.name === 'fleet')?.notes).toEqual([
        '1 of 2 bots in error',
        "75% of the last hour's hops failed",
        '25% of pool servers available',
      ]);
      expect(componentScore(report, 'fleet')).toBeLessThan(componentScore(calm, 'fleet') ?? 0);
      expect(report.healthScore).toBeLessThan(calm.healthScore);
    });

    it('measures pool availability over the servers still in the pool, as the Server Pool Monitor does', async () => {
      const added = await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/servers',
        headers: BOT,
        payload: { servers: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ jobId: `pool-${id}`, placeId: '1' })) },
      });
      expect(added.statusCode).toBe(200);
      const pool = (url: string, payload: object) =>
        t.injectBare({ method: 'POST', url: `/api/server-pool/${url}`, headers: BOT, payload });
      const hello = (ghostId: string) =>
        t.injectBare({
          method: 'POST',
          url: '/api/bot/events',
          headers: BOT,
          payload: { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }] },
        });
      // Three servers were full (deleted: history), one is held: one of the two left is free.
      for (const ghostId of ['ghost-1', 'ghost-2', 'ghost-3']) {
        expect((await hello(ghostId)).statusCode).toBe(200);
        const claimed = await pool('claim', { ghostId });
        const released = await pool('release', {
          ghostId,
          jobId: claimed.json().server.jobId,
          outcome: 'full',
        });
        expect(released.statusCode).toBe(200);
      }
      expect((await pool('claim', { ghostId: 'ghost-1' })).statusCode).toBe(200);

      const report = await generate();
      expect(report.fleetHealth.poolAvailability).toBe(50);
      expect(report.components.find((c) => c.name === 'fleet')?.notes).not.toContain(
        '20% of pool servers available',
      );
    });
  });

  describe(`${dialect}: health report weaknesses`, () => {
    /** A report from an app built with `env`, signed in with `secret` (its ADMIN_SECRET). */
    async function reportWith(
      env: Record<string, string>,
      headers: Record<string, string> = {},
    ): Promise<HealthReport> {
      const app = await buildTestApp(dialect, env);
      try {
        const secret = env.ADMIN_SECRET ?? TEST_ADMIN_SECRET;
        const login = await app.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { adminSecret: secret },
        });
        expect(login.statusCode).toBe(200);
        const session = login.cookies.find((c) => c.name === 'scanline_session');
        const res = await app.app.inject({
          method: 'POST',
          url: '/api/admin/system-health/generate',
          headers: { cookie: `scanline_session=${session?.value}`, ...headers },
        });
        expect(res.statusCode).toBe(200);
        return res.json().healthReport;
      } finally {
        await app.close();
      }
    }

    it('names a default admin secret and TRUST_PROXY=true, and scores them', async () => {
      const report = await reportWith({ ADMIN_SECRET: 'changeme', TRUST_PROXY: 'true' });
      expect(report.securityHealth.weaknesses).toEqual([
        WEAKNESS_TEXTS.defaultSecret,
        WEAKNESS_TEXTS.trustProxy,
      ]);
      expect(report.securityHealth.vulnerabilityScore).toBe(65);
      expect(componentScore(report, 'security')).toBe(35);
      expect(report.systemStatus).not.toBe('healthy');
    });

    it('names a short admin secret', async () => {
      const report = await reportWith({ ADMIN_SECRET: 'short-secret' });
      expect(report.securityHealth.weaknesses).toEqual([WEAKNESS_TEXTS.shortSecret]);
      expect(report.securityHealth.vulnerabilityScore).toBe(40);
    });

    it('names a cookie without Secure when the app is reached over HTTPS, unless COOKIE_SECURE is on', async () => {
      expect((await reportWith({})).securityHealth.weaknesses).toEqual([]);
      const overTls = await reportWith({}, { 'x-forwarded-proto': 'https' });
      expect(overTls.securityHealth.weaknesses).toEqual([WEAKNESS_TEXTS.insecureCookie]);
      expect(overTls.securityHealth.vulnerabilityScore).toBe(20);
      const secured = await reportWith({ COOKIE_SECURE: 'true' }, { 'x-forwarded-proto': 'https' });
      expect(secured.securityHealth.weaknesses).toEqual([]);
    });
  });
}
