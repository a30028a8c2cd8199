import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import { HUGE, reportFinds, SMALL } from '../features/feed/feed.fixtures.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp, useTestApp } from '../test/helper.ts';
import { metricFamilies, sampleValue } from '../test/prometheus-text.ts';
import { connectTestClient } from '../test/socket-client.ts';
import { METRICS_TEXTS } from './metrics.routes.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const PLACE = '109983668079237';

/** What Prometheus sends: a plain GET from the scraping machine (loopback unless said otherwise). */
const scrape = (t: Pick<TestApp, 'injectBare'>, remoteAddress = '127.0.0.1', headers = {}) =>
  t.injectBare({ method: 'GET', url: '/metrics', remoteAddress, headers });

function botEvents(t: Pick<TestApp, 'injectBare'>, ghostId: string, events: unknown[]) {
  return t.injectBare({ method: 'POST', url: '/api/bot/events', headers: BOT, payload: { ghostId, events } });
}

const hop = (success: boolean) => ({
  type: 'server_hop',
  payload: {
    fromJobId: 'job-a',
    toJobId: 'job-b',
    fromPlaceId: PLACE,
    toPlaceId: PLACE,
    success,
    latencyMs: 300,
    hopReason: 'auto_scan',
  },
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /metrics`, () => {
    const t = useTestApp(dialect, { listen: true, env: { RATE_LIMIT_REDEEM: '1' } });
    const sockets: WebSocket[] = [];
    afterEach(() => {
      for (const ws of sockets.splice(0)) ws.terminate();
    });

    it('answers Prometheus text with every family after a loader call, a refused call and bot events', async () => {
      expect((await t.app.inject(`/api/script/loader?script=${FREE_SCRIPT_FILE}`)).statusCode).toBe(200);
      expect((await t.app.inject('/api/no/such/path?key=secret')).statusCode).toBe(404);
      const redeem = { code: 'NOPE-NOPE-NOPE', hwid: 'device-1' };
      await t.app.inject({ method: 'POST', url: '/api/script/redeem', payload: redeem });
      const refused = await t.app.inject({ method: 'POST', url: '/api/script/redeem', payload: redeem });
      expect(refused.statusCode).toBe(429);
      const hello = { type: 'hello', payload: { ghostId: 'ghost-1', version: '1.0.0' } };
      expect((await botEvents(t, 'ghost-1', [hello, hop(true), hop(false)])).statusCode).toBe(200);
      await reportFinds(t, [SMALL, HUGE], 'ghost-1');
      const feed = await t.app.inject('/api/script/feed?since=0');
      expect(feed.json().discoveries).toHaveLength(1);
      await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/servers',
        headers: BOT,
        payload: { servers: [{ placeId: PLACE, jobId: 'job-1' }] },
      });
      const claim = { ghostId: 'ghost-1' };
      const claimed = await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/claim',
        headers: BOT,
        payload: claim,
      });
      expect(claimed.statusCode).toBe(200);
      const bot = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      sockets.push(bot.ws);
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-2', version: '1.0.0' }, id: 'h1' });
      await bot.next((f) => f.type === 'ack' || f.type === 'config');
      await t.app.pendingWrites.flush();

      const res = await scrape(t);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = res.body;
      const loader = { method: 'GET', route: '/api/script/loader', status_code: '200' };
      expect(sampleValue(text, 'http_request_duration_seconds_count', loader)).toBe(1);
      // Unknown paths share one label, and no raw URL (with its query) reaches the output.
      expect(sampleValue(text, 'http_request_duration_seconds_count', { route: 'unmatched' })).toBe(1);
      expect(text).not.toContain('/api/no/such/path');
      expect(text).not.toContain('secret');
      expect(sampleValue(text, 'scanline_rate_limit_refusals_total', { limit: 'redeem' })).toBe(1);
      expect(sampleValue(text, 'scanline_hops_total', { outcome: 'success' })).toBe(1);
      expect(sampleValue(text, 'scanline_hops_total', { outcome: 'failure' })).toBe(1);
      expect(sampleValue(text, 'scanline_finds_total', { band: 'below_1m' })).toBe(1);
      expect(sampleValue(text, 'scanline_finds_total', { band: '10m_and_up' })).toBe(1);
      expect(sampleValue(text, 'scanline_bots', { status: 'active' })).toBe(2);
      expect(sampleValue(text, 'scanline_sockets_open', { kind: 'bot' })).toBe(1);
      expect(sampleValue(text, 'scanline_sockets_open', { kind: 'admin' })).toBe(0);
      expect(sampleValue(text, 'scanline_sockets_open', { kind: 'feed' })).toBe(0);
      expect(sampleValue(text, 'scanline_feed_deliveries_total', { transport: 'poll', tier: 'FREE' })).toBe(
        1,
      );
      expect(sampleValue(text, 'scanline_pool_claims_total', { outcome: 'claimed' })).toBe(1);
      expect(sampleValue(text, 'scanline_pool_servers', { status: 'assigned' })).toBe(1);
      expect(sampleValue(text, 'scanline_config_targets', { state: 'pending' })).toBe(0);
      expect(sampleValue(text, 'scanline_emergency_stopped')).toBe(0);
      expect(sampleValue(text, 'scanline_stored_figures_up')).toBe(1);
      expect(sampleValue(text, 'scanline_audit_rows_written_total', { event_type: 'rate_limit_hit' })).toBe(
        1,
      );
      expect(sampleValue(text, 'scanline_writer_rows_written_total')).toBeGreaterThan(0);
      expect(sampleValue(text, 'scanline_writer_flush_duration_seconds_count')).toBeGreaterThan(0);
      expect(sampleValue(text, 'scanline_writer_queue_rows')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(text, 'scanline_writer_rows_set_aside_total')).toBe(0);
      for (const family of [
        'process_cpu_seconds_total',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
      ]) {
        expect(metricFamilies(text)).toContain(family);
      }
    });

    it('serves loopback clients only while METRICS_TOKEN is unset, with a JSON error for others', async () => {
      expect((await scrape(t, '::1')).statusCode).toBe(200);
      expect((await scrape(t, '::ffff:127.0.0.1')).statusCode).toBe(200);
      const outsider = await scrape(t, '203.0.113.7');
      expect(outsider.statusCode).toBe(403);
      expect(outsider.json()).toEqual({ error: METRICS_TEXTS.loopbackOnly });
    });
  });

  describe(`${dialect}: GET /metrics with METRICS_TOKEN`, () => {
    const t = useTestApp(dialect, { env: { METRICS_TOKEN: 'scrape-token-1' } });

    it('asks every client for the bearer token, loopback included, and serves anyone who has it', async () => {
      const missing = await scrape(t);
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toEqual({ error: METRICS_TEXTS.tokenRequired });
      expect((await scrape(t, '127.0.0.1', { authorization: 'Bearer scrape-token-2' })).statusCode).toBe(401);
      expect((await scrape(t, '127.0.0.1', { authorization: 'scrape-token-1' })).statusCode).toBe(401);
      const remote = await scrape(t, '203.0.113.7', { authorization: 'Bearer scrape-token-1' });
      expect(remote.statusCode).toBe(200);
      expect(remote.body).toContain('# TYPE scanline_bots gauge');
    });
  });
}

describe('GET /metrics with METRICS_ENABLED=false', () => {
  it('answers 404 with a JSON error while the app works as before', async () => {
    const t = await buildTestApp('sqlite', { METRICS_ENABLED: 'false' });
    try {
      const res = await scrape(t);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: METRICS_TEXTS.disabled });
      expect((await t.app.inject(`/api/script/loader?script=${FREE_SCRIPT_FILE}`)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('postgres: GET /metrics while the database hangs', () => {
  it('still answers, with the last database figures and scanline_stored_figures_up 0, and recovers', async () => {
    const t = await buildTestApp('postgres');
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      const servers = [1, 2].map((n) => ({ placeId: PLACE, jobId: `job-${n}` }));
      await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/servers',
        headers: BOT,
        payload: { servers },
      });
      const before = (await scrape(t)).body;
      expect(sampleValue(before, 'scanline_pool_servers', { status: 'available' })).toBe(2);

      // Another session holds the pool's table: the app's count waits for it as long as it is held.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pool_servers IN ACCESS EXCLUSIVE MODE');
      for (let i = 0; i < 2; i++) {
        const res = await scrape(t);
        expect(res.statusCode).toBe(200);
        expect(sampleValue(res.body, 'scanline_stored_figures_up')).toBe(0);
        expect(sampleValue(res.body, 'scanline_pool_servers', { status: 'available' })).toBe(2);
        expect(sampleValue(res.body, 'scanline_bots', { status: 'active' })).toBe(0);
      }
      await locker.query('ROLLBACK');
      let up = 0;
      while (up !== 1) up = sampleValue((await scrape(t)).body, 'scanline_stored_figures_up') ?? 0;
    } finally {
      await locker.end();
      await t.close();
    }
  });
});
