import { describe, expect, it } from 'vitest';
import { findLuaSyntaxError } from '../../../common/lua-syntax.ts';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import type { RateLimitStatusResponse } from '../../../common/security.ts';
import { DIALECTS, TEST_ADMIN_SECRET, useTestApp } from '../../test/helper.ts';
import { loaderStatus } from '../loader/script-access.fixtures.ts';
import { MemoryRateLimitStore } from './rate-limit-store.ts';

const MINUTE = 60_000;

/** Small limits so a test reaches them in a few calls. */
const LIMITS = {
  RATE_LIMIT_LOGIN: '3',
  RATE_LIMIT_LOADER: '3',
  RATE_LIMIT_REDEEM: '3',
  RATE_LIMIT_CHALLENGE: '3',
};

for (const dialect of DIALECTS) {
  describe(`${dialect}: rate limits`, () => {
    const t = useTestApp(dialect, { env: LIMITS });

    const login = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { adminSecret: TEST_ADMIN_SECRET },
        remoteAddress: ip,
      });
    const loadAnswer = (ip: string, key?: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: `/api/script/loader?script=${FREE_SCRIPT_FILE}${key ? `&key=${key}` : ''}`,
        remoteAddress: ip,
        headers,
      });
    /** The status a loader call stands for (an executor's refusal is 200 with X-Scanline-Refusal). */
    const load = async (ip: string, key?: string) => ({
      statusCode: loaderStatus(await loadAnswer(ip, key)),
    });
    const redeem = (ip: string, code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code, hwid: 'device-1' },
        remoteAddress: ip,
      });
    const challenge = (ip: string, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/script/challenge',
        payload: { key, hwid: 'device-1' },
        remoteAddress: ip,
      });
    const rateLimitStatus = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/security/rate-limits',
        headers: { cookie: await t.adminCookie() },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as RateLimitStatusResponse).rateLimits;
    };
    const hitRows = async () => {
      await t.app.pendingWrites.flush();
      const rows = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'rate_limit_hit')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        success: row.success,
        ipAddress: row.ip_address,
        licenseKey: row.license_key,
        hardwareId: row.hardware_id,
        details: JSON.parse(row.details) as unknown,
      }));
    };

    it('refuses the 4th login from one IP within a minute with 429, Retry-After and a JSON error', async () => {
      for (let i = 0; i < 3; i++) expect((await login('10.0.0.1')).statusCode).toBe(200);
      const refused = await login('10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json()).toEqual({ error: 'Too many requests: try again in 60 seconds' });
      expect(refused.cookies).toEqual([]);
      expect((await login('10.0.0.2')).statusCode).toBe(200);
    });

    it('counts again from zero once the minute has passed, telling the waiting client how long is left', async () => {
      for (let i = 0; i < 3; i++) await login('10.0.0.1');
      t.clock.advance(45_000);
      const refused = await login('10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('15');
      expect(refused.json()).toEqual({ error: 'Too many requests: try again in 15 seconds' });
      t.clock.advance(15_000);
      for (let i = 0; i < 3; i++) expect((await login('10.0.0.1')).statusCode).toBe(200);
      expect((await login('10.0.0.1')).statusCode).toBe(429);
    });

    it('counts IPv6 clients per /64, so rotating addresses in one block does not reset the count', async () => {
      for (const host of ['1', '2', '3']) expect((await login(`2001:db8::${host}`)).statusCode).toBe(200);
      expect((await login('2001:db8::4')).statusCode).toBe(429);
      expect((await login('2001:db8:0:1::1')).statusCode).toBe(200);
      expect((await hitRows())[0]).toMatchObject({
        ipAddress: '2001:db8::4',
        details: { limitType: 'login', scope: 'ip', identifier: '2001:db8::', count: 1 },
      });
    });

    it('answers the 4th loader call from one IP with Lua that prints why and stops, since executors run whatever comes back', async () => {
      for (let i = 0; i < 3; i++) expect((await load('10.0.0.1')).statusCode).toBe(200);
      const refused = await loadAnswer('10.0.0.1');
      // 200, so an executor whose HttpGet raises on a non-2xx status still shows the reason.
      expect(refused.statusCode).toBe(200);
      expect(refused.headers['x-scanline-refusal']).toBe('429 rate-limited');
      expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(refused.headers['retry-after']).toBe('60');
      const reason = '"[Scanline] Too many requests: try again in 60 seconds"';
      expect(refused.body).toBe(`local reason = ${reason}\nprint(reason)\nerror(reason, 0)\n`);
      expect(findLuaSyntaxError(refused.body)).toBeNull();
      // A monitor asking for JSON gets the real status.
      const json = await loadAnswer('10.0.0.1', undefined, { accept: 'application/json' });
      expect(json.statusCode).toBe(429);
      expect(json.json()).toEqual({ error: 'Too many requests: try again in 60 seconds' });
      expect((await load('10.0.0.2')).statusCode).toBe(200);
    });

    it('limits one key across IPs: the 4th call with a key is refused whichever IP it comes from', async () => {
      for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
        expect((await load(ip, 'SK-SHARED')).statusCode).not.toBe(429);
      }
      const refused = await loadAnswer('10.0.0.4', 'SK-SHARED');
      expect(loaderStatus(refused)).toBe(429);
      expect(findLuaSyntaxError(refused.body)).toBeNull();
      // The same IP with another key, or without one, is still within its own limit.
      expect((await load('10.0.0.4', 'SK-OTHER')).statusCode).not.toBe(429);
      expect((await load('10.0.0.4')).statusCode).toBe(200);
      expect(await hitRows()).toEqual([
        {
          success: 0,
          ipAddress: '10.0.0.4',
          licenseKey: 'SK-SHARED',
          hardwareId: null,
          details: { limitType: 'loader', scope: 'key', identifier: 'SK-SHARED', limit: 3, count: 1 },
        },
      ]);
    });

    it('refuses the 4th redemption from one IP with a JSON 429', async () => {
      for (let i = 1; i <= 3; i++) {
        expect((await redeem('10.0.3.1', `SCANLINE-AAAA-BBBB-CCCC-000${i}`)).statusCode).not.toBe(429);
      }
      const refused = await redeem('10.0.3.1', 'SCANLINE-AAAA-BBBB-CCCC-0004');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json()).toEqual({ error: 'Too many requests: try again in 60 seconds' });
    });

    it('limits one code across IPs, whatever case it is typed in', async () => {
      const code = 'SCANLINE-AAAA-BBBB-CCCC-DDDD';
      for (const [i, typed] of [code, code.toLowerCase(), code].entries()) {
        expect((await redeem(`10.0.3.${i}`, typed)).statusCode).not.toBe(429);
      }
      const refused = await redeem('10.0.3.9', ` ${code.toLowerCase()} `);
      expect(refused.statusCode).toBe(429);
      expect(await hitRows()).toEqual([
        {
          success: 0,
          ipAddress: '10.0.3.9',
          licenseKey: code,
          hardwareId: 'device-1',
          details: { limitType: 'redeem', scope: 'key', identifier: code, limit: 3, count: 1 },
        },
      ]);
    });

    it('limits challenges per IP and per key, answering JSON', async () => {
      for (const ip of ['10.0.4.1', '10.0.4.2', '10.0.4.3']) {
        expect((await challenge(ip, 'SK-CHALLENGED')).statusCode).not.toBe(429);
      }
      const byKey = await challenge('10.0.4.4', 'SK-CHALLENGED');
      expect(byKey.statusCode).toBe(429);
      expect(byKey.json()).toEqual({ error: 'Too many requests: try again in 60 seconds' });
      for (let i = 0; i < 2; i++) await challenge('10.0.4.4', `SK-OTHER-${i}`);
      expect((await challenge('10.0.4.4', 'SK-OTHER-3')).statusCode).toBe(429);
      expect((await hitRows()).map((row) => row.details)).toEqual([
        { limitType: 'challenge', scope: 'key', identifier: 'SK-CHALLENGED', limit: 3, count: 1 },
        { limitType: 'challenge', scope: 'ip', identifier: '10.0.4.4', limit: 3, count: 1 },
      ]);
    });

    it('writes one rate_limit_hit audit row per limited caller and window, counting its refusals', async () => {
      for (let i = 0; i < 5; i++) await login('10.0.0.7');
      for (let i = 0; i < 3; i++) await load('10.0.0.7');
      await t.app.inject({
        method: 'GET',
        url: `/api/script/loader?script=${FREE_SCRIPT_FILE}&hwid=device-1`,
        remoteAddress: '10.0.0.7',
      });
      const ipHit = (limitType: string, count: number) => ({
        success: 0,
        ipAddress: '10.0.0.7',
        licenseKey: null,
        details: { limitType, scope: 'ip', identifier: '10.0.0.7', limit: 3, count },
      });
      expect(await hitRows()).toEqual([
        { ...ipHit('login', 2), hardwareId: null },
        { ...ipHit('loader', 1), hardwareId: 'device-1' },
      ]);
    });

    it('keeps 1,000 refused loader calls in one window to one audit row with a count of 1000', async () => {
      for (let i = 0; i < 3; i++) expect((await load('10.0.5.1')).statusCode).toBe(200);
      for (let i = 0; i < 600; i++) expect((await load('10.0.5.1')).statusCode).toBe(429);
      // A flush in the middle of the window (the batch timer, an admin reading the log) changes nothing.
      await t.app.pendingWrites.flush();
      t.clock.advance(30_000);
      for (let i = 0; i < 400; i++) expect((await load('10.0.5.1')).statusCode).toBe(429);
      const oneWindow = {
        success: 0,
        ipAddress: '10.0.5.1',
        licenseKey: null,
        hardwareId: null,
        details: { limitType: 'loader', scope: 'ip', identifier: '10.0.5.1', limit: 3, count: 1000 },
      };
      expect(await hitRows()).toEqual([oneWindow]);
      const firstWindow = await rateLimitStatus();
      expect(firstWindow.hitCount24h).toBe(1000);
      expect(firstWindow.topLimitedIPs).toEqual([
        { identifier: '10.0.5.1', limitType: 'loader', count: 1000 },
      ]);

      // The next window gets a row of its own; the figures add both up.
      t.clock.advance(30_000);
      for (let i = 0; i < 5; i++) await load('10.0.5.1');
      expect(await hitRows()).toEqual([
        oneWindow,
        { ...oneWindow, details: { ...oneWindow.details, count: 2 } },
      ]);
      expect(await rateLimitStatus()).toMatchObject({
        hitCount24h: 1002,
        topLimitedIPs: [{ identifier: '10.0.5.1', limitType: 'loader', count: 1002 }],
      });
    });

    it('reports live limits, the day’s hits and the 5 most limited identifiers, most first', async () => {
      // 10.0.1.1 is refused 6 times, 10.0.1.2 five times … 10.0.1.6 once.
      for (let n = 1; n <= 6; n++) {
        for (let i = 0; i < 3 + (7 - n); i++) await login(`10.0.1.${n}`);
      }
      // The status call signs in from 127.0.0.1 first: one more live window, within its limit.
      expect(await rateLimitStatus()).toEqual({
        activeLimits: 6,
        totalLimits: 7,
        hitCount24h: 21,
        topLimitedIPs: [6, 5, 4, 3, 2].map((count, i) => ({
          identifier: `10.0.1.${i + 1}`,
          limitType: 'login',
          count,
        })),
      });

      t.clock.advance(MINUTE);
      const nextMinute = await rateLimitStatus();
      expect(nextMinute).toMatchObject({ activeLimits: 0, totalLimits: 1, hitCount24h: 21 });
      expect(nextMinute.topLimitedIPs[0]).toEqual({ identifier: '10.0.1.1', limitType: 'login', count: 6 });

      t.clock.advance(24 * 60 * MINUTE);
      expect(await rateLimitStatus()).toEqual({
        activeLimits: 0,
        totalLimits: 1,
        hitCount24h: 0,
        topLimitedIPs: [],
      });
    });

    it('answers exactly the fields the screen reads (the response schema strips the rest)', async () => {
      await login('10.0.3.1');
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/security/rate-limits',
        headers: { cookie: await t.adminCookie() },
      });
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['rateLimits', 'timestamp']);
      expect(Object.keys(body.rateLimits).sort()).toEqual([
        'activeLimits',
        'hitCount24h',
        'topLimitedIPs',
        'totalLimits',
      ]);
    });

    it('lists a limited key under its key and an IP under its IP, with the call each hit', async () => {
      for (let i = 0; i < 4; i++) await load(`10.0.2.${i}`, 'SK-BUSY');
      for (let i = 0; i < 5; i++) await login('10.0.2.9');
      const { topLimitedIPs } = await rateLimitStatus();
      expect(topLimitedIPs).toEqual([
        { identifier: '10.0.2.9', limitType: 'login', count: 2 },
        { identifier: 'SK-BUSY', limitType: 'loader', count: 1 },
      ]);
    });

    it('shows the rate-limit status only to a signed-in admin', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/security/rate-limits' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Authentication required' });
    });
  });
}

describe('in-memory rate-limit store', () => {
  it('counts per key in fixed windows and starts again after the window', () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    expect(store.hit('a', 2, 1000)).toEqual({ count: 1, resetAt: 2_000 });
    expect(store.hit('a', 2, 1000)).toEqual({ count: 2, resetAt: 2_000 });
    expect(store.hit('b', 2, 1000)).toEqual({ count: 1, resetAt: 2_000 });
    now = 1_999;
    expect(store.hit('a', 2, 1000)).toEqual({ count: 3, resetAt: 2_000 });
    now = 2_000;
    expect(store.hit('a', 2, 1000)).toEqual({ count: 1, resetAt: 3_000 });
  });

  it('tells live windows from those over their limit, and forgets windows that ended', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now });
    for (let i = 0; i < 3; i++) store.hit('over', 2, 1000);
    store.hit('within', 2, 1000);
    now = 500;
    store.hit('late', 2, 1000);
    expect(store.stats()).toEqual({ totalLimits: 3, activeLimits: 1 });
    now = 1000;
    expect(store.stats()).toEqual({ totalLimits: 1, activeLimits: 0 });
  });

  it('holds at most maxEntries identifiers, dropping the oldest window first', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now, maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) {
      store.hit(key, 1, 10_000);
      now += 1;
    }
    store.hit('d', 1, 10_000);
    expect(store.stats().totalLimits).toBe(3);
    // 'a' was dropped, so it starts a new window; 'b' kept its count.
    expect(store.hit('b', 1, 10_000).count).toBe(2);
    expect(store.hit('a', 1, 10_000).count).toBe(1);
  });

  it('sweeps ended windows as time passes, so a flood of one-off IPs does not stay in memory', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now, sweepEveryMs: 1000 });
    for (let i = 0; i < 1000; i++) store.hit(`ip-${i}`, 10, 1000);
    expect(store.size).toBe(1000);
    now = 1000;
    store.hit('next', 10, 1000);
    expect(store.size).toBe(1);
  });
});
