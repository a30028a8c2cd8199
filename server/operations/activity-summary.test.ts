import type { InjectOptions } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hopEvent } from '../features/fleet/fleet.fixtures.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../test/helper.ts';
import {
  ACTIVITY_SUMMARY_EVERY_MS,
  activityBetween,
  anythingHappened,
  describeActivity,
} from './activity-summary.ts';
import type { MetricTotals } from './metrics.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const INFO = 30;
const ERROR = 50;

interface LogLine {
  level: number;
  msg: string;
  req?: unknown;
  err?: unknown;
  activity?: Record<string, unknown>;
}

/** A bot's call as the simulator makes it: the bot token, no Origin. */
function botPost(t: TestApp, url: string, payload: unknown) {
  return t.injectBare({ method: 'POST', url, payload, headers: BOT } as InjectOptions);
}

let finds = 0;
const find = () => ({
  type: 'pet_discovered',
  payload: { name: 'Los Tralaleritos', type: 'Secret', value: '$6M/s', placeid: '1', jobid: `j-${++finds}` },
});

/**
 * `bots` bots as the simulator runs them, `rounds` times each: claim a server, report the hop (every
 * second one failed) and a find, release the server. Returns how many requests it made.
 */
async function botTraffic(t: TestApp, bots: number, rounds: number): Promise<number> {
  let requests = 0;
  const ok = async (url: string, payload: unknown) => {
    const res = await botPost(t, url, payload);
    requests++;
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const servers = Array.from({ length: bots * rounds }, (_, i) => ({ placeId: '1', jobId: `job-${i}` }));
  await ok('/api/server-pool/servers', { servers });
  const ghosts = Array.from({ length: bots }, (_, i) => `ghost-${i + 1}`);
  for (const ghostId of ghosts)
    await ok('/api/bot/events', { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1' } }] });
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      ghosts.map(async (ghostId) => {
        const claimed = await ok('/api/server-pool/claim', { ghostId });
        const { jobId } = claimed.json().server;
        const hop = hopEvent(round, { success: round % 2 === 0 });
        await ok('/api/bot/events', { ghostId, events: [hop, find()] });
        await ok('/api/server-pool/release', { ghostId, jobId, outcome: 'ok' });
      }),
    );
  }
  return requests;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the log at the default level (info)`, () => {
    let t: TestApp | undefined;
    const lines: string[] = [];
    afterEach(async () => {
      await t?.close();
      t = undefined;
      lines.length = 0;
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    async function start(): Promise<TestApp> {
      // The summary's minute is a setInterval the test moves; the app's own clock is the fake one.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      t = await buildTestApp(
        dialect,
        // No notification dispatcher: its "dispatching for the cluster" line would come at any time.
        { NOTIFY_DISPATCH: 'false' },
        { app: { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } } },
      );
      return t;
    }
    const logged = () => lines.map((line) => JSON.parse(line) as LogLine);
    const summaries = () => logged().filter((l) => l.activity !== undefined);

    it('writes no line per bot request, and one summary line a minute with what they did', async () => {
      const app = await start();
      // The simulator's fleet: 70 bots.
      const requests = await botTraffic(app, 70, 2);

      // Claims, releases, hops, finds: not one line at info.
      expect(logged().filter((l) => l.req !== undefined)).toEqual([]);
      expect(lines.join('')).not.toMatch(/server-pool|bot\/events/);

      vi.advanceTimersByTime(ACTIVITY_SUMMARY_EVERY_MS);
      await vi.waitFor(() => expect(summaries()).toHaveLength(1));
      const [summary] = summaries();
      expect(summary?.level).toBe(INFO);
      expect(summary?.activity).toMatchObject({
        requests: { total: requests, '2xx': requests, '4xx': 0, '5xx': 0 },
        hops: { total: 140, failed: 70 },
        finds: 140,
        claims: { claimed: 140, none_available: 0, refused: 0, failed: 0 },
        bots: expect.objectContaining({ active: 70 }),
      });
      expect(summary?.msg).toMatch(
        /^last minute: \d+ requests \(2xx \d+\), slowest POST \/api\/[a-z/-]+ [\d.]+ ms, 140 hops \(failed 70\), 140 finds, 140 pool claims, 70 bots \(active 70\)$/,
      );
      // Nothing else: the summary is the only line the traffic wrote, a small part of the budget
      // (200 KB for 10 minutes of 70 bots: 20 KB a minute) however busy the minute was.
      expect(logged().filter((l) => l.level >= INFO)).toHaveLength(1);
      expect(Buffer.byteLength(lines.join(''))).toBeLessThan(2_000);
    });

    it('writes nothing for a quiet minute, and counts only the minute since the last line', async () => {
      const app = await start();
      await botTraffic(app, 2, 1);
      vi.advanceTimersByTime(ACTIVITY_SUMMARY_EVERY_MS);
      await vi.waitFor(() => expect(summaries()).toHaveLength(1));

      vi.advanceTimersByTime(ACTIVITY_SUMMARY_EVERY_MS); // nothing happened
      await app.injectBare({ method: 'GET', url: '/healthz' });
      vi.advanceTimersByTime(ACTIVITY_SUMMARY_EVERY_MS);
      await vi.waitFor(() => expect(summaries()).toHaveLength(2));
      expect(summaries()[1]?.activity).toMatchObject({
        requests: { total: 1, '2xx': 1 },
        hops: { total: 0 },
      });
    });

    it("keeps hostile clients' refusals out of info: they are counted in the summary", async () => {
      const app = await start();
      const refused = [
        // Wrong bot token, a forged admin change from another origin, an unknown route, a bad login.
        ...Array.from({ length: 20 }, () =>
          app.injectBare({
            method: 'POST',
            url: '/api/server-pool/claim',
            headers: { authorization: 'Bearer wrong' },
            payload: { ghostId: 'ghost-1' },
          }),
        ),
        ...Array.from({ length: 20 }, () =>
          app.injectBare({
            method: 'POST',
            url: '/api/admin/create-redemption-key',
            headers: { origin: 'https://evil.example' },
            payload: {},
          }),
        ),
        ...Array.from({ length: 20 }, (_, i) => app.injectBare({ method: 'GET', url: `/wp-admin/${i}.php` })),
        ...Array.from({ length: 5 }, () =>
          app.injectBare({ method: 'POST', url: '/api/admin/login', payload: { adminSecret: 'guess' } }),
        ),
      ];
      const answers = await Promise.all(refused);
      expect(answers.every((r) => r.statusCode >= 400 && r.statusCode < 500)).toBe(true);
      expect(logged().filter((l) => l.level >= INFO)).toEqual([]);

      vi.advanceTimersByTime(ACTIVITY_SUMMARY_EVERY_MS);
      await vi.waitFor(() => expect(summaries()).toHaveLength(1));
      expect(summaries()[0]?.activity).toMatchObject({
        requests: { total: answers.length, '4xx': answers.length },
      });
    });

    it('writes a failure (5xx) at error with what was asked, and counts it', async () => {
      const app = await start();
      vi.spyOn(app.ctx.db, 'selectFrom').mockImplementationOnce(() => {
        throw new Error('a bug');
      });
      const failed = await app.injectBare({ method: 'GET', url: '/api/public/purchase-info?from=test' });
      expect(failed.statusCode).toBe(500);
      expect(logged().filter((l) => l.level >= INFO)).toEqual([
        expect.objectContaining({
          level: ERROR,
          msg: 'request failed',
          req: expect.objectContaining({ method: 'GET', url: '/api/public/purchase-info?from=test' }),
          err: expect.objectContaining({ message: 'a bug' }),
        }),
      ]);
      vi.advanceTimersByTime(ACTIVITY_SUMMARY_EVERY_MS);
      await vi.waitFor(() => expect(summaries()).toHaveLength(1));
      expect(summaries()[0]?.activity).toMatchObject({ requests: { total: 1, '5xx': 1 } });
    });

    it("logs an admin's change at info, with the secret values redacted", async () => {
      const app = await start();
      const cookie = await app.adminCookie();
      const created = await app.app.inject({
        method: 'POST',
        url: '/api/admin/create-redemption-key',
        headers: { cookie },
        payload: {},
      });
      expect(created.statusCode, created.body).toBeLessThan(300);
      await app.app.inject({ method: 'GET', url: '/api/admin/redemption-keys', headers: { cookie } });

      const info = logged().filter((l) => l.level === INFO);
      expect(info.map((l) => l.msg)).toEqual([
        expect.stringMatching(/^admin: POST \/api\/admin\/login 200 \([\d.]+ ms\)$/),
        expect.stringMatching(/^admin: POST \/api\/admin\/create-redemption-key 201 \([\d.]+ ms\)$/),
      ]);
      expect(lines.join('')).not.toContain('test-admin-secret');
    });
  });
}

describe('the summary of notification deliveries', () => {
  const totals = (sent: number, failed: number, retried: number): MetricTotals => ({
    requests: [],
    hops: { success: 0, failure: 0 },
    finds: 0,
    claims: { claimed: 0, none_available: 0, refused: 0, failed: 0 },
    feedDeliveries: 0,
    notifications: { sent, failed, retried },
    rateLimitRefusals: 0,
  });

  it('says how many finds and alerts were sent, failed or wait for a retry in the minute', () => {
    const counts = activityBetween(totals(2, 0, 1), totals(9, 1, 3));
    expect(counts.notifications).toEqual({ sent: 7, failed: 1, retried: 2 });
    expect(anythingHappened(counts)).toBe(true);
    const line = describeActivity({
      ...counts,
      bots: { active: 0, scanning: 0, hopping: 0, inactive: 0, error: 0 },
      sockets: {},
    });
    expect(line).toContain('7 notifications sent (failed 1, to retry 2)');
  });

  it('counts a minute with only deliveries as one in which something happened', () => {
    expect(anythingHappened(activityBetween(totals(0, 0, 0), totals(0, 0, 0)))).toBe(false);
    expect(anythingHappened(activityBetween(totals(0, 0, 0), totals(1, 0, 0)))).toBe(true);
  });
});
