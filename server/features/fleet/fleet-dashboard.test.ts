import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type {
  FleetBackfillPayload,
  HopStats,
  LiveDataPayload,
  ServerHopEvent,
} from '../../../common/fleet.ts';
import { periodicSweepsIdle } from '../../plugins/periodic-sweep.ts';
import { buildTestApp, DIALECTS, OWN_ORIGIN, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { hopPayload } from './fleet.fixtures.ts';
import { FLEET_HOPS_CHANNEL } from './fleet-bus.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const hop = hopPayload;

const pet = (over: Record<string, unknown> = {}) => ({
  name: 'Los Tralaleritos',
  type: 'Secret',
  value: '$6M/s',
  placeid: '1',
  jobid: 'job-b',
  ...over,
});

type Event = { type: string; payload?: unknown };

for (const dialect of DIALECTS) {
  describe(`${dialect}: fleet state and dashboards`, () => {
    const t = useTestApp(dialect, { listen: true, signIn: true });
    // The app prunes once when it becomes ready: let that finish before a test counts what it prunes.
    beforeEach(() => periodicSweepsIdle(t.app));
    const sockets: WebSocket[] = [];
    afterEach(() => {
      for (const ws of sockets.splice(0)) ws.terminate();
    });

    async function send(ghostId: string, ...events: Event[]) {
      const res = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: BOT,
        payload: { ghostId, events },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { results: Array<{ seq?: number; duplicate?: true }> };
    }

    async function dashboard(query = ''): Promise<TestClient> {
      const client = await connectTestClient(`${t.socketUrl}${query}`, t.cookie);
      sockets.push(client.ws);
      return client;
    }

    const status = (s: string, over: Record<string, unknown> = {}) => ({
      type: 'scanner_status',
      payload: { status: s, ...over },
    });

    it('computes scanner statuses and network stats as spec section 4 says', async () => {
      expect(t.ctx.services.fleet.state.networkStats(t.clock.now()).networkHealth).toBe(85);
      await send('a', status('active', { scansPerMinute: 10, petsFound: 1, uptime: 100 }));
      await send('b', status('scanning', { scansPerMinute: 20, petsFound: 2, uptime: 90 }));
      await send('c', status('hopping', { scansPerMinute: 5, petsFound: 3, uptime: 80 }));
      await send('d', status('error', { scansPerMinute: 0, petsFound: 4, uptime: 50 }));
      await send('e', status('active', { scansPerMinute: 1, petsFound: 0, uptime: 60 }));
      // e falls silent: past FLEET_INACTIVE_AFTER_MS (30 s) it is inactive; the others keep talking.
      t.clock.advance(31_000);
      for (const id of ['a', 'b', 'c', 'd']) await send(id, { type: 'heartbeat' });

      const client = await dashboard();
      client.send({ type: 'scanner_status', payload: {} });
      const frame = await client.next((f) => f.type === 'scanner_status');
      const { scanners, networkStats } = frame.payload as {
        scanners: Array<{ id: string; status: string }>;
        networkStats: unknown;
      };
      expect(scanners.map((s) => [s.id, s.status])).toEqual([
        ['a', 'active'],
        ['b', 'scanning'],
        ['c', 'hopping'],
        ['d', 'error'],
        ['e', 'inactive'],
      ]);
      expect(networkStats).toEqual({
        totalBots: 5,
        activeBots: 2,
        inactiveBots: 1,
        hoppingBots: 1,
        scanningBots: 1,
        errorBots: 1,
        // Scans/Min counts the active and scanning bots; Pets Found is today's discoveries (none).
        totalScansPerMinute: 30,
        totalPetsFound: 0,
        averageUptime: 76,
        networkHealth: 40,
      });
      const health = await client.next((f) => f.type === 'system_health');
      expect(health.payload).toMatchObject({ totalBots: 5, activeBots: 2, networkHealth: 40 });
    });

    it('counts Pets Found as the discoveries of the current UTC day', async () => {
      t.clock.set(Date.UTC(2026, 10, 23, 23, 58));
      await send('a', { type: 'pet_discovered', payload: pet({ jobid: 'j1' }) });
      await send('b', { type: 'pet_discovered', payload: pet({ jobid: 'j2' }) });
      expect(t.ctx.services.fleet.state.networkStats(t.clock.now()).totalPetsFound).toBe(2);
      t.clock.set(Date.UTC(2026, 10, 24, 0, 0, 30));
      expect(t.ctx.services.fleet.state.networkStats(t.clock.now()).totalPetsFound).toBe(0);
      await send('a', { type: 'pet_discovered', payload: pet({ jobid: 'j3' }) });
      expect(t.ctx.services.fleet.state.networkStats(t.clock.now()).totalPetsFound).toBe(1);
    });

    it('tells connected dashboards when a silent bot turns inactive, with no event at all', async () => {
      await send('quiet', status('scanning'));
      const client = await dashboard();
      await client.next((f) => f.type === 'fleet_backfill');
      t.clock.advance(30_001);
      const frame = await client.next(
        (f) =>
          f.type === 'scanner_status' &&
          (f.payload as { scanners: Array<{ status: string }> }).scanners[0]?.status === 'inactive',
      );
      expect((frame.payload as { networkStats: { inactiveBots: number } }).networkStats.inactiveBots).toBe(1);
      // Any message brings it back.
      await send('quiet', { type: 'config_ack', payload: { version: 1, ok: true } });
      expect(t.ctx.services.fleet.state.scannerList(t.clock.now())[0]?.status).toBe('scanning');
    });

    it('computes hop statistics and trends from the hops of the last hour', async () => {
      const start = t.clock.now();
      // 30 to 15 minutes ago: 4 hops, all succeeded. The last 15 minutes: 4 hops, 2 failed.
      t.clock.set(start - 25 * MINUTE);
      await send('a', { type: 'server_hop', payload: hop({ latencyMs: 100 }) });
      await send('a', { type: 'server_hop', payload: hop({ latencyMs: 200, hopReason: 'manual' }) });
      t.clock.set(start - 20 * MINUTE);
      await send('b', { type: 'server_hop', payload: hop({ latencyMs: 300 }) });
      await send('b', { type: 'server_hop', payload: hop({ latencyMs: 400, hopReason: 'performance' }) });
      t.clock.set(start - 10 * MINUTE);
      await send('a', { type: 'server_hop', payload: hop({ latencyMs: 500 }) });
      await send('a', {
        type: 'server_hop',
        payload: hop({ success: false, latencyMs: 600, hopReason: 'server_full', errorMessage: 'full' }),
      });
      await send('c', { type: 'pet_discovered', payload: pet() });
      t.clock.set(start - 30 * 1000);
      await send('a', { type: 'server_hop', payload: hop({ latencyMs: 700 }) });
      await send('c', {
        type: 'server_hop',
        payload: hop({ success: false, latencyMs: 800, hopReason: 'error_recovery' }),
      });
      t.clock.set(start);

      const client = await dashboard();
      const backfill = (await client.next((f) => f.type === 'fleet_backfill'))
        .payload as FleetBackfillPayload;
      const stats: HopStats = backfill.hopStats;
      expect(stats).toMatchObject({
        totalHops: 8,
        successfulHops: 6,
        failedHops: 2,
        averageLatency: 450,
        hopsByReason: { auto_scan: 4, manual: 1, performance: 1, server_full: 1, error_recovery: 1 },
        topHoppers: [
          { botId: 'a', hops: 5 },
          { botId: 'b', hops: 2 },
          { botId: 'c', hops: 1 },
        ],
        successRate15m: 50,
        successRate30m: 75,
        trend: 'Declining',
        // The totals are every hop kept, not since this process started: the page says over how long.
        keptDays: 7,
      });
      expect(stats.lastHour).toHaveLength(60);
      const minute = (ago: number) => stats.lastHour[59 - ago];
      expect(minute(0)).toMatchObject({ minute: new Date(start).toISOString(), hopsSucceeded: 0 });
      expect(minute(1)).toMatchObject({ hopsSucceeded: 1, hopsFailed: 1, discoveries: 0 });
      expect(minute(10)).toMatchObject({ hopsSucceeded: 1, hopsFailed: 1, discoveries: 1 });
      expect(minute(20)).toMatchObject({ hopsSucceeded: 2, hopsFailed: 0 });
      expect(minute(25)).toMatchObject({ hopsSucceeded: 2, hopsFailed: 0 });
      expect(stats.lastHour.reduce((n, m) => n + m.hopsSucceeded + m.hopsFailed, 0)).toBe(8);
      // Per bot: the share of its hops in the last hour that succeeded.
      const byId = Object.fromEntries(
        t.ctx.services.fleet.state.scannerList(t.clock.now()).map((s) => [s.id, s]),
      );
      expect(byId.a?.hopSuccessRate).toBe(80);
    });

    it('calls the trend Improving when the last 15 minutes are at least as good as the last 30', async () => {
      const start = t.clock.now();
      t.clock.set(start - 20 * MINUTE);
      await send(
        'a',
        { type: 'server_hop', payload: hop({ success: false }) },
        { type: 'server_hop', payload: hop() },
      );
      t.clock.set(start);
      await send('a', { type: 'server_hop', payload: hop() }, { type: 'server_hop', payload: hop() });
      const stats = t.ctx.services.fleet.state.hopStats(t.clock.now());
      expect([stats.successRate15m, stats.successRate30m, stats.trend]).toEqual([100, 75, 'Improving']);
      // 20 minutes on, no hop in the last 15: no trend without data (not Improving, not Declining).
      t.clock.advance(20 * MINUTE);
      const fading = t.ctx.services.fleet.state.hopStats(t.clock.now());
      expect([fading.successRate15m, fading.successRate30m, fading.trend]).toEqual([null, 100, null]);
      // 40 minutes on, nothing in either window: no rates, and no trend.
      t.clock.advance(20 * MINUTE);
      const quiet = t.ctx.services.fleet.state.hopStats(t.clock.now());
      expect([quiet.successRate15m, quiet.successRate30m, quiet.trend]).toEqual([null, null, null]);
    });

    it('gives a dashboard the backfill on connect, then every hop and discovery as it happens', async () => {
      await send('a', { type: 'server_hop', payload: hop() }, { type: 'pet_discovered', payload: pet() });
      const client = await dashboard();
      const backfill = (await client.next((f) => f.type === 'fleet_backfill'))
        .payload as FleetBackfillPayload;
      expect(backfill).toMatchObject({ reset: false, cursor: 2 });
      expect(backfill.hops.map((h) => h.seq)).toEqual([1]);
      expect(backfill.discoveries).toMatchObject([
        { seq: 2, name: 'Los Tralaleritos', numericValue: 6_000_000 },
      ]);
      expect(backfill.scanners.map((s) => s.id)).toEqual(['a']);

      await send('b', { type: 'server_hop', payload: hop({ toJobId: 'job-c' }) });
      await send('b', { type: 'pet_discovered', payload: pet({ name: 'La Grande', value: '$250K/s' }) });
      const hopFrame = await client.next((f) => f.type === 'server_hop');
      expect(hopFrame.payload as ServerHopEvent).toMatchObject({ seq: 3, botId: 'b', toJobId: 'job-c' });
      const live = (await client.next((f) => f.type === 'live_data')).payload as LiveDataPayload;
      expect(live).toMatchObject({
        eventType: 'pet_discovered',
        seq: 4,
        numericValue: 250_000,
        petData: { name: 'La Grande', value: '$250K/s', jobid: 'job-b' },
        scannerInfo: { botId: 'b' },
      });
      // Nothing from before the backfill arrives again.
      expect(client.ofType('server_hop').map((f) => (f.payload as ServerHopEvent).seq)).toEqual([3]);
    });

    it('sends a dashboard that reconnects with ?since= exactly the events it missed, in order, none twice', async () => {
      await send('a', { type: 'server_hop', payload: hop() });
      const first = await dashboard();
      const { cursor } = (await first.next((f) => f.type === 'fleet_backfill'))
        .payload as FleetBackfillPayload;
      first.ws.terminate();

      await send('a', { type: 'server_hop', payload: hop({ toJobId: 'x1' }) });
      await send('b', { type: 'pet_discovered', payload: pet({ jobid: 'x1' }) });
      // The same pet from another bot in the same minute is one discovery.
      const dup = await send('c', { type: 'pet_discovered', payload: pet({ jobid: 'x1' }) });
      expect(dup.results[0]).toEqual({ index: 0, duplicate: true });
      await send('b', { type: 'server_hop', payload: hop({ toJobId: 'x2' }) });

      const again = await dashboard(`?since=${cursor}`);
      await again.next((f) => f.type === 'hop_stats');
      await send('a', { type: 'server_hop', payload: hop({ toJobId: 'x3' }) });
      await again.next((f) => f.type === 'server_hop' && (f.payload as ServerHopEvent).toJobId === 'x3');
      const seqs = again.frames
        .filter((f) => f.type === 'server_hop' || f.type === 'live_data')
        .map((f) => [f.type, (f.payload as { seq: number }).seq]);
      expect(seqs).toEqual([
        ['server_hop', 2],
        ['live_data', 3],
        ['server_hop', 4],
        ['server_hop', 5],
      ]);
      expect(again.ofType('fleet_backfill')).toEqual([]);

      // A cursor the server cannot serve exactly (ahead of it, or older than what is kept): a fresh
      // backfill marked reset.
      const ahead = await dashboard('?since=999');
      const reset = (await ahead.next((f) => f.type === 'fleet_backfill')).payload as FleetBackfillPayload;
      expect(reset).toMatchObject({ reset: true, cursor: 5 });
      const bad = await t.injectBare({
        method: 'GET',
        url: '/ws?since=abc',
        headers: { cookie: t.cookie, origin: OWN_ORIGIN },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/^since must be a whole number/);
    });

    it('folds the same pet reported within a minute into one discovery', async () => {
      const first = await send('a', { type: 'pet_discovered', payload: pet() });
      // Another bot in the same server, the value written as the game may round it.
      const same = await send('b', { type: 'pet_discovered', payload: pet({ value: '$6.0M/s' }) });
      const otherServer = await send('b', { type: 'pet_discovered', payload: pet({ jobid: 'job-z' }) });
      t.clock.advance(61_000);
      const later = await send('a', { type: 'pet_discovered', payload: pet() });
      expect(first.results[0]?.seq).toBe(1);
      expect(same.results[0]?.duplicate).toBe(true);
      expect(otherServer.results[0]?.seq).toBe(2);
      expect(later.results[0]?.seq).toBe(3);
      const { discoveries } = await t.ctx.services.fleet.discoveries.discoveriesAfter(0, 10);
      expect(discoveries.map((d) => [d.seq, d.jobid])).toEqual([
        [1, 'job-b'],
        [2, 'job-z'],
        [3, 'job-b'],
      ]);
    });

    it('keeps a second pet of the same kind and another value in one server as a find of its own', async () => {
      // One server often holds several pets of one kind with other mutations: the dearer must not be lost.
      const cheap = await send('a', { type: 'pet_discovered', payload: pet({ value: '$12M/s' }) });
      const dear = await send('a', { type: 'pet_discovered', payload: pet({ value: '$1.2B/s' }) });
      const dearAgain = await send('b', { type: 'pet_discovered', payload: pet({ value: '$1.2B/s' }) });
      expect([cheap.results[0]?.seq, dear.results[0]?.seq, dearAgain.results[0]?.duplicate]).toEqual([
        1,
        2,
        true,
      ]);
      const { discoveries } = await t.ctx.services.fleet.discoveries.discoveriesAfter(0, 10);
      expect(discoveries.map((d) => [d.seq, d.value])).toEqual([
        [1, '$12M/s'],
        [2, '$1.2B/s'],
      ]);
    });

    it('persists hops, discoveries and scanners, and prunes events past FLEET_RETENTION_DAYS', async () => {
      await send('a', status('scanning', { petsFound: 7 }));
      await send('a', { type: 'server_hop', payload: hop() }, { type: 'pet_discovered', payload: pet() });
      t.clock.advance(8 * DAY);
      await send('a', { type: 'server_hop', payload: hop() }, { type: 'pet_discovered', payload: pet() });
      await t.ctx.services.fleet.flush();
      const rows = async () => ({
        hops: (await t.ctx.db.selectFrom('fleet_hops').select('seq').orderBy('seq').execute()).map((r) =>
          Number(r.seq),
        ),
        discoveries: (
          await t.ctx.db.selectFrom('fleet_discoveries').select('seq').orderBy('seq').execute()
        ).map((r) => Number(r.seq)),
      });
      expect(await rows()).toEqual({ hops: [1, 3], discoveries: [2, 4] });
      const scanner = await t.ctx.db.selectFrom('fleet_scanners').selectAll().executeTakeFirstOrThrow();
      expect(scanner).toMatchObject({ ghost_id: 'a', status: 'scanning', pets_found: 7 });

      expect(await t.ctx.services.fleet.prune()).toBe(2);
      expect(await rows()).toEqual({ hops: [3], discoveries: [4] });
      // The feed's cursor from before the pruned events can no longer be served exactly.
      const feed = await t.ctx.services.fleet.discoveries.discoveriesAfter(0, 10);
      expect(feed).toMatchObject({ reset: true, cursor: 4 });
      expect(feed.discoveries.map((d) => d.seq)).toEqual([4]);
      expect(t.ctx.services.fleet.state.hopStats(t.clock.now()).totalHops).toBe(1);
    });

    // Two apps on one database: the test helper shares a PostgreSQL schema; SQLite runs in memory.
    if (dialect === 'postgres')
      it('lets a restarted (or second) instance know the scanners, the recent events and where the stream is', async () => {
        await send('a', status('scanning', { petsFound: 4 }));
        await send('a', { type: 'server_hop', payload: hop() }, { type: 'pet_discovered', payload: pet() });
        await t.ctx.services.fleet.flush();
        const restarted = await buildTestApp('postgres', {}, { joinSchemaOf: t });
        try {
          restarted.clock.set(t.clock.now());
          const backfill = restarted.ctx.services.fleet.backfill(false);
          expect(backfill.scanners).toMatchObject([{ id: 'a', status: 'scanning', petsFound: 4 }]);
          expect(backfill.hops.map((h) => h.seq)).toEqual([1]);
          expect(backfill.discoveries.map((d) => d.seq)).toEqual([2]);
          expect(backfill.hopStats).toMatchObject({ totalHops: 1, successRate15m: 100 });
          expect(backfill.hopStats.lastHour.at(-1)).toMatchObject({ hopsSucceeded: 1, discoveries: 1 });
          expect(backfill.scanners[0]?.hopSuccessRate).toBe(100);
          // Today's discoveries are counted from the database.
          expect(backfill.networkStats.totalPetsFound).toBe(1);
          const res = await restarted.injectBare({
            method: 'POST',
            url: '/api/bot/events',
            headers: BOT,
            payload: { ghostId: 'a', events: [{ type: 'server_hop', payload: hop() }] },
          });
          expect(res.json().results[0].seq).toBe(3);
        } finally {
          await restarted.close();
        }
      });

    it('hands events on in seq order when two instances cross on the bus, and skips a seq that never comes', async () => {
      const seen: number[] = [];
      const off = t.ctx.services.fleet.onEvent((e) => seen.push(e.seq));
      const hopEvent = (seq: number): ServerHopEvent => ({
        id: `h${seq}`,
        seq,
        botId: 'a',
        scannerId: 'a',
        fromJobId: null,
        toJobId: 'j',
        fromPlaceId: null,
        toPlaceId: '1',
        success: true,
        latencyMs: 1,
        errorMessage: null,
        hopReason: 'manual',
        timestamp: new Date(t.clock.now()).toISOString(),
        attemptNumber: 1,
        totalServersAttempted: 1,
      });
      // As another instance would publish them: 2 arrives before 1.
      await t.ctx.bus.publish(FLEET_HOPS_CHANNEL, { kind: 'hop', hop: hopEvent(2) });
      expect(seen).toEqual([]);
      await t.ctx.bus.publish(FLEET_HOPS_CHANNEL, { kind: 'hop', hop: hopEvent(1) });
      expect(seen).toEqual([1, 2]);
      // 3 never comes (its instance died after taking it): 4 goes out after a short wait.
      await t.ctx.bus.publish(FLEET_HOPS_CHANNEL, { kind: 'hop', hop: hopEvent(4) });
      expect(seen).toEqual([1, 2]);
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual([1, 2, 4]);
      off();
      expect(t.ctx.services.fleet.eventsAfter(0)?.map((e) => e.seq)).toEqual([1, 2, 4]);
    });

    it('serves the feed from a cursor and tells it about each new discovery', async () => {
      const seen: number[] = [];
      const off = t.ctx.services.fleet.discoveries.onDiscovery((d) => seen.push(d.seq));
      await send('a', { type: 'server_hop', payload: hop() });
      await send('a', { type: 'pet_discovered', payload: pet({ jobid: 'j1' }) });
      await send('a', { type: 'pet_discovered', payload: pet({ jobid: 'j2' }) });
      await send('a', { type: 'pet_discovered', payload: pet({ jobid: 'j3' }) });
      off();
      expect(seen).toEqual([2, 3, 4]);
      const page = await t.ctx.services.fleet.discoveries.discoveriesAfter(2, 1);
      expect(page).toMatchObject({ reset: false, cursor: 3 });
      expect(page.discoveries.map((d) => d.jobid)).toEqual(['j2']);
      expect(await t.ctx.services.fleet.discoveries.discoveriesAfter(4, 10)).toEqual({
        discoveries: [],
        cursor: 4,
        reset: false,
      });
    });

    it('skips events for a dashboard that does not read, then catches it up with one fresh backfill', async () => {
      const client = await dashboard();
      await client.next((f) => f.type === 'fleet_backfill');
      // The dashboard stops reading: the server's output to it piles up in the kernel, then in ws.
      const raw = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      raw.pause();
      const total = 30_000;
      for (let i = 0; i < total; i++) {
        // As a socket frame without an id: applied at once, its row written with the next batch.
        const hopReport = {
          ...hop({ toJobId: `job-${i}`, errorMessage: 'x'.repeat(200) }),
          toPlaceId: '1',
          fromPlaceId: '1',
          attemptNumber: 1,
          totalServersAttempted: 1,
        };
        await t.ctx.services.fleet.begin(`bot-${i % 50}`, 'server_hop', hopReport as never, false);
        if (i % 500 === 0) await new Promise((r) => setImmediate(r));
      }
      raw.resume();
      const backfill = await client.next(
        (f) => f.type === 'fleet_backfill' && (f.payload as FleetBackfillPayload).reset,
        { timeoutMs: 20_000 },
      );
      const hopsSeen = client.ofType('server_hop').length;
      // Well short of every event: the rest was skipped rather than queued for it.
      expect(hopsSeen).toBeLessThan(total);
      expect((backfill.payload as FleetBackfillPayload).cursor).toBe(t.ctx.services.fleet.state.head);
      // And it is live again afterwards.
      await send('a', { type: 'server_hop', payload: hop({ toJobId: 'after' }) });
      await client.next((f) => f.type === 'server_hop' && (f.payload as ServerHopEvent).toJobId === 'after');
    }, 60_000);
  });
}
