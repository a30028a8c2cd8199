import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodicSweepsIdle } from '../../plugins/periodic-sweep.ts';
import { type FakeDiscord, type FakeWebhook, startFakeDiscord } from '../../test/fake-discord.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../../test/helper.ts';
import { alertChecks } from './alert-checks.ts';
import { AlertMonitor } from './alert-monitor.ts';

/*
 * Operator alerts end to end: the app's monitor (driven here with the fake clock, one look at a
 * time), the outbox and the dispatcher's lanes, posting to the fake Discord (webhooks, and the same
 * server as a JSON endpoint).
 */

/** The fake Discord is on loopback: only these let a destination reach it. */
const REACH_FAKE = { NOTIFY_ALLOW_PRIVATE: 'true', NOTIFY_ALLOW_HOSTS: '127.0.0.1' };
/** The monitor looks only when a test says so (the sweep's first round aside). */
const LOOK_ON_DEMAND = { ALERT_CHECK_MS: '3600000' };
const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const GHOSTS = ['ghost-1', 'ghost-2', 'ghost-3'];
/** Past the defaults: a bot silent 30 s is not heard; a bad state holds 60 s, a good one 120 s. */
const SILENT_MS = 31_000;
const RAISE_MS = 60_000;
const CLEAR_MS = 120_000;

/** The dispatcher posts on real time (and takes up its lease again after the clock jumps): up to 10 s. */
const eventually = (assertion: () => unknown) => vi.waitFor(assertion, { timeout: 10_000 });

let jobs = 0;

/** Every ghost says hello (any message counts as heard); `find` adds a find from the first. */
async function botsReport(t: TestApp, find = false): Promise<void> {
  for (const ghostId of GHOSTS) {
    const events: object[] = [{ type: 'hello', payload: { ghostId, version: '1' } }];
    if (find && ghostId === GHOSTS[0]) {
      events.push({
        type: 'pet_discovered',
        payload: { name: 'Garama', type: 'Secret', value: '$12M/s', placeid: '1', jobid: `job-${++jobs}` },
      });
    }
    const res = await t.injectBare({
      method: 'POST',
      url: '/api/bot/events',
      headers: BOT,
      payload: { ghostId, events },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
}

/** Alert titles a webhook received, in order (Discord embeds, or JSON bodies). */
function alertTitles(fake: FakeDiscord, hook: FakeWebhook): string[] {
  return fake.received
    .filter((p) => p.webhookId === hook.id)
    .flatMap((p) =>
      p.body.type === 'alert'
        ? [p.body.alert.title as string]
        : p.body.type === 'find'
          ? []
          : (p.body.embeds as { title: string; footer?: { text: string } }[])
              .filter((e) => e.footer?.text.includes('operator alert'))
              .map((e) => e.title),
    );
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: operator alerts`, () => {
    let t: TestApp;
    let fake: FakeDiscord;
    let cookie: string;
    const extra: TestApp[] = [];

    /** The app; `lines` collects its log when given. */
    async function start(env: Record<string, string> = {}, lines?: string[]) {
      const logger = lines && { level: 'info', stream: { write: (line: string) => lines.push(line) } };
      t = await buildTestApp(dialect, { ...REACH_FAKE, ...LOOK_ON_DEMAND, ...env }, { app: { logger } });
      cookie = await t.adminCookie();
      await periodicSweepsIdle(t.app);
      // A roomy disk, whatever this machine's (the disk test gives its own).
      t.ctx.services.diskSpace = {
        read: async () => ({ freeBytes: 50 * 1024 ** 3, totalBytes: 100 * 1024 ** 3 }),
      };
    }
    beforeEach(async () => {
      fake = await startFakeDiscord();
    });
    afterEach(async () => {
      for (const app of extra.splice(0)) await app.close();
      await t?.close();
      await fake.close();
    });

    const admin = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    async function addDestination(hook: FakeWebhook, over: Record<string, unknown> = {}) {
      const res = await admin('POST', '/api/admin/notifications/destinations', {
        name: `dest-${hook.id.slice(-4)}`,
        kind: 'discord',
        url: hook.url,
        ...over,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().destination as { id: number; alerts: boolean };
    }
    /** Moves the clock, then the monitor looks once. */
    async function lookAfter(ms: number, app: TestApp = t) {
      app.clock.advance(ms);
      return app.ctx.services.alertMonitor.check();
    }

    it('refuses an alerts flag that is not a boolean, naming the field, and returns it on GET, POST and PATCH', async () => {
      await start();
      const hook = fake.createWebhook();
      const bad = await admin('POST', '/api/admin/notifications/destinations', {
        name: 'Ops',
        kind: 'discord',
        url: hook.url,
        alerts: 'yes',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/^alerts: /);
      const finds = await addDestination(hook);
      expect(finds.alerts).toBe(false);
      const patched = await admin('PATCH', `/api/admin/notifications/destinations/${finds.id}`, {
        alerts: true,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().destination.alerts).toBe(true);
      const badPatch = await admin('PATCH', `/api/admin/notifications/destinations/${finds.id}`, {
        alerts: 1,
      });
      expect(badPatch.statusCode).toBe(400);
      expect(badPatch.json().error).toMatch(/^alerts: /);
      const list = await admin('GET', '/api/admin/notifications/destinations');
      expect(list.json().destinations.map((d: { alerts: boolean }) => d.alerts)).toEqual([true]);
    });

    it('sends an alerts destination one "Fleet down" past the hysteresis and one "Fleet back", and no finds; a finds destination gets no alerts', async () => {
      await start();
      const opsHook = fake.createWebhook();
      const jsonHook = fake.createWebhook();
      const findsHook = fake.createWebhook();
      const ops = await addDestination(opsHook, { alerts: true });
      const json = await addDestination(jsonHook, { alerts: true, kind: 'json' });
      const finds = await addDestination(findsHook);
      await botsReport(t, true);
      await eventually(() =>
        expect(fake.received.filter((p) => p.webhookId === findsHook.id)).toHaveLength(1),
      );
      expect(await t.ctx.services.alertMonitor.check()).toBe(0);

      // Silent, but not yet for the hysteresis: nothing said.
      expect(await lookAfter(SILENT_MS)).toBe(0);
      expect(await lookAfter(RAISE_MS - 5_000)).toBe(0);
      expect(await lookAfter(10_000)).toBe(1);
      await eventually(() => expect(alertTitles(fake, jsonHook)).toEqual(['Fleet down']));
      await eventually(() => expect(alertTitles(fake, opsHook)).toEqual(['Fleet down']));
      const down = fake.received.find((p) => p.webhookId === opsHook.id)!.body.embeds[0];
      expect(down.color).toBe(0xe74c3c);
      expect(down.description).toMatch(/^No bot has reported for 1 min — last heard 12:00 UTC from ghost-/);
      const posted = fake.received.find((p) => p.webhookId === jsonHook.id)!;
      expect(posted.body).toMatchObject({
        type: 'alert',
        alert: { kind: 'fleet', state: 'down', previous: 'live', severity: 'critical', title: 'Fleet down' },
        deliveryId: expect.stringMatching(/^scanline-delivery-\d+$/),
      });
      expect(posted.headers['idempotency-key']).toBe(posted.body.deliveryId);
      // Still down: told once.
      expect(await lookAfter(RAISE_MS)).toBe(0);
      expect(await lookAfter(RAISE_MS)).toBe(0);

      // Back: reporting again, but "back" only once it held; a relapse in between says nothing.
      await botsReport(t);
      expect(await lookAfter(0)).toBe(0);
      expect(await lookAfter(SILENT_MS)).toBe(0);
      let raised = 0;
      for (let waited = 0; waited <= CLEAR_MS; waited += 20_000) {
        await botsReport(t);
        raised += await lookAfter(20_000);
      }
      expect(raised).toBe(1);
      await eventually(() => expect(alertTitles(fake, opsHook)).toEqual(['Fleet down', 'Fleet back']));
      await eventually(() => expect(alertTitles(fake, jsonHook)).toEqual(['Fleet down', 'Fleet back']));
      const back = fake.received.filter((p) => p.webhookId === opsHook.id)[1]!.body.embeds[0];
      expect(back).toMatchObject({ color: 0x2ecc71, description: '3 of 3 bots reporting' });
      // The finds destination had its find and nothing else; the alerts ones no find.
      expect(fake.received.filter((p) => p.webhookId === findsHook.id)).toHaveLength(1);
      expect(alertTitles(fake, findsHook)).toEqual([]);
      expect(JSON.stringify(fake.received.filter((p) => p.webhookId !== findsHook.id))).not.toContain(
        'Garama',
      );
      // Nor is anything of the other kind even queued for them.
      const items = async (id: number) => {
        const res = await admin('GET', `/api/admin/notifications/deliveries?destinationId=${id}`);
        return res.json().deliveries.map((d: { item: string; petName: string }) => `${d.item}: ${d.petName}`);
      };
      expect(await items(ops.id)).toEqual(['alert: Fleet back', 'alert: Fleet down']);
      expect(await items(json.id)).toEqual(['alert: Fleet back', 'alert: Fleet down']);
      expect(await items(finds.id)).toEqual(['find: Garama']);
    });

    it('tells an emergency stop at once, naming who stopped it and why, and the resume', async () => {
      await start();
      const opsHook = fake.createWebhook();
      await addDestination(opsHook, { alerts: true });
      await botsReport(t);
      await lookAfter(0);
      const stop = await admin('POST', '/api/admin/configurations/emergency-stop', { reason: 'Game update' });
      expect(stop.statusCode, stop.body).toBe(200);
      expect(await lookAfter(1_000)).toBe(1);
      const resume = await admin('POST', '/api/admin/configurations/emergency-resume', { reason: 'Checked' });
      expect(resume.statusCode, resume.body).toBe(200);
      await botsReport(t);
      expect(await lookAfter(1_000)).toBe(1);
      await eventually(() =>
        expect(alertTitles(fake, opsHook)).toEqual([
          'Emergency stop by admin (127.0.0.1)',
          'Network resumed by admin (127.0.0.1)',
        ]),
      );
      const [stopped, resumed] = fake.received.flatMap((p) => p.body.embeds);
      expect(stopped.description).toBe(
        'Emergency stop by admin (127.0.0.1): Game update — bots are told to stop scanning',
      );
      expect(resumed.description).toBe('Checked — 3 of 3 bots reporting');
    });

    it('tells when payments are disconnected and reconnected', async () => {
      const { startFakeBtcpay } = await import('../../test/fake-btcpay.ts');
      const btcpay = await startFakeBtcpay({ storeName: 'Scanline Shop' });
      try {
        await start({
          BTCPAY_URL: btcpay.origin,
          BTCPAY_STORE_ID: btcpay.storeId,
          BTCPAY_API_KEY: btcpay.apiKey,
          BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret,
        });
        const opsHook = fake.createWebhook();
        await addDestination(opsHook, { alerts: true });
        expect(await lookAfter(0)).toBe(0);
        btcpay.takeDown();
        expect(await lookAfter(1_000)).toBe(0);
        expect(await lookAfter(RAISE_MS)).toBe(1);
        btcpay.bringUp();
        expect(await lookAfter(1_000)).toBe(0);
        expect(await lookAfter(CLEAR_MS)).toBe(1);
        await eventually(() =>
          expect(alertTitles(fake, opsHook)).toEqual(['Payments disconnected', 'Payments reconnected']),
        );
        const [off, on] = fake.received.flatMap((p) => p.body.embeds);
        expect(off.color).toBe(0xe74c3c);
        expect(off.description).toMatch(/BTCPay Server .*503.* — buyers cannot pay$/);
        expect(on.description).toBe('BTCPay Server answers for store Scanline Shop again: buyers can pay');
      } finally {
        await btcpay.close();
      }
    });

    it('tells when the disk runs low, and recovered only with room to spare', async () => {
      await start({ ALERT_DISK_PATH: '/srv/scanline' });
      const opsHook = fake.createWebhook();
      await addDestination(opsHook, { alerts: true });
      const GB = 1024 ** 3;
      let free = 50 * GB;
      t.ctx.services.diskSpace = { read: async () => ({ freeBytes: free, totalBytes: 100 * GB }) };
      expect(await lookAfter(0)).toBe(0);
      free = 0.5 * GB;
      expect(await lookAfter(1_000)).toBe(0);
      expect(await lookAfter(RAISE_MS)).toBe(1);
      // Back over 10%, but not by a tenth more: still low.
      free = 10.5 * GB;
      expect(await lookAfter(1_000)).toBe(0);
      expect(await lookAfter(CLEAR_MS)).toBe(0);
      free = 20 * GB;
      expect(await lookAfter(1_000)).toBe(0);
      expect(await lookAfter(CLEAR_MS)).toBe(1);
      await eventually(() =>
        expect(alertTitles(fake, opsHook)).toEqual(['Disk space low', 'Disk space recovered']),
      );
      const [low] = fake.received.flatMap((p) => p.body.embeds);
      expect(low).toMatchObject({
        color: 0xf39c12,
        description: '512 MB free of 100.0 GB (0%) on /srv/scanline: below 10% or 1.0 GB',
      });
    });

    it('tells when a find destination fails (turned off by the dispatcher), and only logs a failing alerts destination', async () => {
      const lines: string[] = [];
      await start({}, lines);
      const opsHook = fake.createWebhook();
      const deadHook = fake.createWebhook();
      const findsHook = fake.createWebhook();
      await addDestination(opsHook, { alerts: true });
      const dead = await addDestination(deadHook, { alerts: true, name: 'Dead ops' });
      const finds = await addDestination(findsHook, { name: 'Buyers' });
      const disabledReason = async (id: number) => {
        const res = await admin('GET', '/api/admin/notifications/destinations');
        return res.json().destinations.find((d: { id: number }) => d.id === id).disabledReason;
      };
      // The bots keep reporting: only the notifications change here.
      const look = async (ms: number) => {
        t.clock.advance(ms);
        await botsReport(t);
        return t.ctx.services.alertMonitor.check();
      };
      await look(0);
      fake.deleteWebhook(findsHook.id);
      fake.deleteWebhook(deadHook.id);
      await botsReport(t, true);
      await eventually(async () => expect(await disabledReason(finds.id)).toMatch(/Unknown Webhook/));
      expect(await look(1_000)).toBe(0);
      expect(await look(RAISE_MS)).toBe(1);
      await eventually(() => expect(alertTitles(fake, opsHook)).toEqual(['Notifications failing']));
      const [failing] = fake.received.flatMap((p) => p.body.embeds);
      expect(failing.description).toBe('Finds are not reaching Buyers (turned off: Unknown Webhook (404))');

      // The alerts destination that refused that alert is turned off: the log says so, nobody is sent it.
      await eventually(async () => expect(await disabledReason(dead.id)).toMatch(/Unknown Webhook/));
      expect(await look(1_000)).toBe(0);
      expect(await look(RAISE_MS)).toBe(1);
      expect(lines.join('')).toContain(
        'operator alerts: Alerts failing: Operator alerts are not reaching Dead ops (turned off: Unknown Webhook (404))',
      );
      expect(await look(RAISE_MS)).toBe(0);
      expect(alertTitles(fake, opsHook)).toEqual(['Notifications failing']);
      expect(await t.ctx.db.selectFrom('operator_alerts').select('title').execute()).toEqual([
        { title: 'Notifications failing' },
      ]);
    });

    it('never tells a change twice across a restart (a second instance on the same database)', async () => {
      await start();
      const opsHook = fake.createWebhook();
      await addDestination(opsHook, { alerts: true });
      await botsReport(t);
      await lookAfter(0);
      await lookAfter(SILENT_MS);
      expect(await lookAfter(RAISE_MS)).toBe(1);
      await eventually(() => expect(alertTitles(fake, opsHook)).toEqual(['Fleet down']));
      // The fleet's last-heard times are written in batches: on disk before the restart reads them.
      await t.app.writer.flush();

      // The old monitor stops (its lease given up); the new one knows only what the database holds.
      await t.ctx.services.alertMonitor.close();
      let next: { check(): Promise<number>; clock: TestApp['clock']; app: TestApp };
      if (dialect === 'postgres') {
        const restarted = await buildTestApp(
          dialect,
          { ...REACH_FAKE, ...LOOK_ON_DEMAND },
          { joinSchemaOf: t },
        );
        extra.push(restarted);
        restarted.clock.set(t.clock.now());
        await periodicSweepsIdle(restarted.app);
        next = {
          check: () => restarted.ctx.services.alertMonitor.check(),
          clock: restarted.clock,
          app: restarted,
        };
      } else {
        const monitor = new AlertMonitor(t.ctx, t.app.log, alertChecks(t.ctx), 'restarted');
        next = { check: () => monitor.check(), clock: t.clock, app: t };
      }
      const look = async (ms: number) => {
        next.clock.advance(ms);
        return next.check();
      };
      expect(await look(0)).toBe(0);
      expect(await look(RAISE_MS)).toBe(0);
      expect(await look(RAISE_MS)).toBe(0);
      let raised = 0;
      for (let waited = 0; waited <= CLEAR_MS; waited += 20_000) {
        await botsReport(next.app);
        raised += await look(20_000);
      }
      expect(raised).toBe(1);
      await eventually(() => expect(alertTitles(fake, opsHook)).toEqual(['Fleet down', 'Fleet back']));
      const rows = await t.ctx.db
        .selectFrom('operator_alerts')
        .select(['kind', 'state'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { kind: 'fleet', state: 'down' },
        { kind: 'fleet', state: 'live' },
      ]);
    });
  });
}
