import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_POOL_TEXTS } from '../../../common/server-pool.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp, useTestApp } from '../../test/helper.ts';
import {
  FLAG_BOT_AFTER_FAILED_SERVERS,
  POOL_CLAIM_TEXTS,
  POOL_HISTORY_MS,
  prunePool,
  QUARANTINE_WINDOW_MS,
} from './server-pool.service.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const PLACE = '109983668079237';

/** A bot's pool call: the bot token, no Origin (bots are not browsers). */
function botCall(t: TestApp, url: string, payload: unknown, headers: Record<string, string> = BOT) {
  return t.injectBare({ method: 'POST', url: `/api/server-pool/${url}`, payload, headers } as InjectOptions);
}

const jobIds = (n: number, prefix = 'job') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

async function addServers(t: TestApp, ids: string[], placeId = PLACE) {
  const res = await botCall(t, 'servers', { servers: ids.map((jobId) => ({ placeId, jobId })) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { added: number; ignored: number };
}

/** The bots that said hello to each app (a test's app is new each time). */
const greeted = new WeakMap<TestApp['app'], Set<string>>();

/** The bot says hello (once per app) over POST /api/bot/events, as a bot without a socket does. */
async function sayHello(t: TestApp, ghostId: string) {
  const bots = greeted.get(t.app) ?? new Set<string>();
  greeted.set(t.app, bots);
  if (bots.has(ghostId)) return;
  const res = await t.injectBare({
    method: 'POST',
    url: '/api/bot/events',
    headers: BOT,
    payload: { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  bots.add(ghostId);
}

/** A claim by a bot of the fleet: it says hello first (the pool refuses bots the fleet does not hold). */
async function claim(t: TestApp, ghostId: string, placeId?: string) {
  await sayHello(t, ghostId);
  return botCall(t, 'claim', placeId === undefined ? { ghostId } : { ghostId, placeId });
}

async function release(t: TestApp, ghostId: string, jobId: string, outcome: string, reason?: string) {
  return botCall(t, 'release', { ghostId, jobId, outcome, ...(reason ? { reason } : {}) });
}

async function stats(t: TestApp, cookie: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/server-pool/stats', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().stats;
}

/** Claims with the ghost and fails on the server it got; returns that server's job id. */
async function claimAndFail(t: TestApp, ghostId: string, reason = 'Teleport failed') {
  const claimed = await claim(t, ghostId);
  expect(claimed.statusCode, claimed.body).toBe(200);
  const { jobId } = claimed.json().server;
  const released = await release(t, ghostId, jobId, 'error', reason);
  expect(released.statusCode, released.body).toBe(200);
  return jobId as string;
}

function countStatuses(responses: { statusCode: number }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

/**
 * 200 claims at once over 100 servers, two by each of 100 bots (spread over the given apps): 100
 * distinct servers, 100 refusals, no bot past POOL_MAX_SERVERS_PER_BOT.
 */
async function raceClaims(apps: [TestApp, ...TestApp[]], cookie: string) {
  const [t] = apps;
  await addServers(t, jobIds(100));
  const bots = Array.from({ length: 100 }, (_, i) => `ghost-${i}`);
  // Each instance's fleet holds the bots (without Redis, instances do not share what they hear).
  for (const app of apps) await Promise.all(bots.map((ghostId) => sayHello(app, ghostId)));
  const responses = await Promise.all(
    Array.from({ length: 200 }, (_, i) => claim(apps[i % apps.length]!, bots[i % 100]!)),
  );
  expect(countStatuses(responses)).toEqual({ 200: 100, 404: 100 });
  const won = responses.filter((r) => r.statusCode === 200).map((r) => r.json().server);
  expect(new Set(won.map((s) => s.jobId)).size).toBe(100);
  for (const refusal of responses.filter((r) => r.statusCode === 404)) {
    expect(refusal.json()).toEqual({ error: SERVER_POOL_TEXTS.noneAvailable });
  }
  const rows = await t.ctx.db.selectFrom('pool_servers').select(['assigned_to', 'status']).execute();
  expect(rows.every((r) => r.status === 'assigned')).toBe(true);
  const held = countBy(rows.map((r) => r.assigned_to ?? ''));
  expect(Math.max(...Object.values(held))).toBeLessThanOrEqual(2);
  expect((await stats(t, cookie)).activeBots).toBe(Object.keys(held).length);
}

/** One bot claims 10 times at once over 20 servers (spread over the given apps): exactly 3 succeed. */
async function raceClaimsOfOneBot(apps: [TestApp, ...TestApp[]]) {
  const [t] = apps;
  await addServers(t, jobIds(20));
  for (const app of apps) await sayHello(app, 'ghost-greedy');
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) => claim(apps[i % apps.length]!, 'ghost-greedy')),
  );
  expect(countStatuses(responses)).toEqual({ 200: 3, 409: 7 });
  for (const refusal of responses.filter((r) => r.statusCode === 409)) {
    expect(refusal.json()).toEqual({ error: POOL_CLAIM_TEXTS.holdsTooMany('ghost-greedy', 3) });
  }
  const held = await t.ctx.db
    .selectFrom('pool_servers')
    .select('job_id')
    .where('assigned_to', '=', 'ghost-greedy')
    .execute();
  expect(held).toHaveLength(3);
}

/**
 * 50 bots claim 5 times each at once (spread over the given apps) over 200 servers: 150 win, each bot
 * exactly 3 (POOL_MAX_SERVERS_PER_BOT), no server twice, the rest 409.
 */
async function raceClaimsOfManyBots(apps: [TestApp, ...TestApp[]]) {
  const [t] = apps;
  await addServers(t, jobIds(200));
  const bots = Array.from({ length: 50 }, (_, i) => `ghost-${i}`);
  for (const app of apps) await Promise.all(bots.map((ghostId) => sayHello(app, ghostId)));
  const responses = await Promise.all(
    Array.from({ length: 250 }, (_, i) => claim(apps[i % apps.length]!, bots[i % 50]!)),
  );
  expect(countStatuses(responses)).toEqual({ 200: 150, 409: 100 });
  const won = responses.filter((r) => r.statusCode === 200).map((r) => r.json().server);
  expect(new Set(won.map((s) => s.jobId)).size).toBe(150);
  const rows = await t.ctx.db
    .selectFrom('pool_servers')
    .select(['job_id', 'assigned_to'])
    .where('status', '=', 'assigned')
    .execute();
  expect(Object.values(countBy(rows.map((r) => r.assigned_to ?? '')))).toEqual(Array(50).fill(3));
  const holder = new Map(rows.map((r) => [r.job_id, r.assigned_to]));
  expect(won.filter((s) => holder.get(s.jobId) !== s.assignedTo)).toEqual([]);
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: server pool`, () => {
    const t = useTestApp(dialect, { signIn: true });

    it('answers the stats in the spec shape: counts by status, unique bots holding servers', async () => {
      expect(await stats(t, t.cookie)).toEqual({
        total: 0,
        byStatus: { available: 0, assigned: 0, deleted: 0 },
        activeBots: 0,
        quarantined: [],
        flaggedBots: [],
      });
      await addServers(t, jobIds(6));
      const first = await claim(t, 'ghost-a');
      await claim(t, 'ghost-a');
      await claim(t, 'ghost-b');
      const notTheirs = await release(t, 'ghost-b', (await claim(t, 'ghost-c')).json().server.jobId, 'full');
      expect(notTheirs.statusCode).toBe(409);
      expect(first.statusCode).toBe(200);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/server-pool/stats',
        headers: { cookie: t.cookie },
      });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(await stats(t, t.cookie)).toMatchObject({
        total: 6,
        byStatus: { available: 2, assigned: 4, deleted: 0 },
        activeBots: 3,
      });
    });

    it('counts deleted servers as history, not capacity: total and availability are over the servers still in the pool', async () => {
      await addServers(t, jobIds(10));
      for (const ghost of jobIds(6, 'ghost-full')) {
        await release(t, ghost, (await claim(t, ghost)).json().server.jobId, 'full');
      }
      await claim(t, 'ghost-holder');
      const pool = await stats(t, t.cookie);
      // Counts are numbers on both dialects (PostgreSQL's count is a bigint, which pg hands over as text).
      expect(pool).toMatchObject({
        total: 4,
        byStatus: { available: 3, assigned: 1, deleted: 6 },
        activeBots: 1,
      });
    });

    it('refuses the stats without an admin session, and bot calls without the bot token', async () => {
      const noSession = await t.app.inject({ method: 'GET', url: '/api/server-pool/stats' });
      expect(noSession.statusCode).toBe(401);
      expect(noSession.json()).toEqual({ error: 'Authentication required' });
      const forged = await t.app.inject({
        method: 'GET',
        url: '/api/server-pool/stats',
        headers: { cookie: 'scanline_session=forged' },
      });
      expect(forged.statusCode).toBe(401);
      // The bot token is no admin session.
      const botAsAdmin = await t.app.inject({ method: 'GET', url: '/api/server-pool/stats', headers: BOT });
      expect(botAsAdmin.statusCode).toBe(401);

      const body = { servers: [{ placeId: PLACE, jobId: 'job-x' }] };
      const none = await botCall(t, 'servers', body, {});
      expect(none.statusCode).toBe(401);
      expect(none.json().error).toMatch(/Bot token required/);
      const wrong = await botCall(t, 'claim', { ghostId: 'ghost-a' }, { authorization: 'Bearer nope' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'Invalid bot token' });
      // The token is checked before the body: a caller without it learns nothing about the fields.
      for (const url of ['servers', 'claim', 'release']) {
        const bad = await botCall(t, url, { nonsense: true }, {});
        expect(bad.statusCode, url).toBe(401);
      }
      // An admin session is no bot token either.
      const adminAsBot = await t.app.inject({
        method: 'POST',
        url: '/api/server-pool/release',
        headers: { cookie: t.cookie },
        payload: { ghostId: 'ghost-a', jobId: 'job-x', outcome: 'ok' },
      });
      expect(adminAsBot.statusCode).toBe(401);
      expect((await stats(t, t.cookie)).total).toBe(0);
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const cases: [string, unknown, RegExp][] = [
        ['servers', {}, /servers/],
        ['servers', { servers: [] }, /at least one server/],
        ['servers', { servers: [{ placeId: 'abc', jobId: 'j' }] }, /placeId.*whole number|whole number/],
        ['servers', { servers: [{ placeId: PLACE }] }, /jobId/],
        [
          'servers',
          { servers: [{ placeId: PLACE, jobId: 'j', playing: -1 }] },
          /playing must not be negative/,
        ],
        ['servers', { servers: jobIds(501).map((jobId) => ({ placeId: PLACE, jobId })) }, /at most 500/],
        ['claim', {}, /ghostId/],
        ['claim', { ghostId: 'bad ghost!' }, /ghostId may hold/],
        ['claim', { ghostId: 'g', placeId: 'x1' }, /placeId|whole number/],
        ['release', { ghostId: 'g', jobId: 'j' }, /outcome/],
        [
          'release',
          { ghostId: 'g', jobId: 'j', outcome: 'maybe' },
          /outcome must be 'ok', 'full' or 'error'/,
        ],
        ['release', { ghostId: 'g', jobId: 'j', outcome: 'ok', reason: 'x'.repeat(501) }, /reason/],
      ];
      for (const [url, payload, error] of cases) {
        const res = await botCall(t, url, payload);
        expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 80)}`).toBe(400);
        expect(res.json().error, url).toMatch(error);
      }
      const notJson = await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/claim',
        headers: { ...BOT, 'content-type': 'application/json' },
        payload: '{"ghostId":',
      });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json()).toHaveProperty('error');
    });

    it('adds servers once: a repeated job id is ignored, in one call or the next', async () => {
      expect(await addServers(t, ['a', 'b', 'a'])).toEqual({ added: 2, ignored: 1 });
      expect(await addServers(t, ['b', 'c'])).toEqual({ added: 1, ignored: 1 });
      const single = await botCall(t, 'servers', {
        servers: [{ placeId: Number(PLACE.slice(0, 10)), jobId: 'd', playing: 3, maxPlayers: 8 }],
      });
      expect(single.json()).toEqual({ added: 1, ignored: 0 });
      expect((await stats(t, t.cookie)).byStatus.available).toBe(4);
    });

    it('hands a server to one bot and takes it back as the outcome says', async () => {
      await addServers(t, ['job-ok', 'job-full', 'job-error']);
      // Claims take the least recently used server: a released one waits behind those never used.
      t.clock.advance(1000);
      const claimed = await claim(t, 'ghost-1');
      expect(claimed.statusCode).toBe(200);
      expect(claimed.json()).toMatchObject({
        server: { jobId: 'job-ok', placeId: PLACE, status: 'assigned', assignedTo: 'ghost-1' },
        leaseSeconds: 120,
      });

      // Only the bot holding it may release it.
      const other = await release(t, 'ghost-2', 'job-ok', 'ok');
      expect(other.statusCode).toBe(409);
      expect(other.json()).toEqual({ error: SERVER_POOL_TEXTS.notHolder('job-ok', 'ghost-2') });
      const unknown = await release(t, 'ghost-1', 'job-nowhere', 'ok');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: SERVER_POOL_TEXTS.unknownServer('job-nowhere') });

      const ok = await release(t, 'ghost-1', 'job-ok', 'ok');
      expect(ok.statusCode).toBe(200);
      expect(ok.json().server).toMatchObject({ status: 'available', assignedTo: null });
      const twice = await release(t, 'ghost-1', 'job-ok', 'ok');
      expect(twice.statusCode).toBe(409);

      expect((await claim(t, 'ghost-2')).json().server.jobId).toBe('job-full');
      const full = await release(t, 'ghost-2', 'job-full', 'full');
      expect(full.json().server).toMatchObject({ status: 'deleted', deletedReason: 'Server full' });

      expect((await claim(t, 'ghost-3')).json().server.jobId).toBe('job-error');
      const error = await release(t, 'ghost-3', 'job-error', 'error', 'Teleport failed: 773');
      expect(error.json().server).toMatchObject({ status: 'deleted', deletedReason: 'Teleport failed: 773' });

      expect(await stats(t, t.cookie)).toMatchObject({
        total: 1,
        byStatus: { available: 1, assigned: 0, deleted: 2 },
        activeBots: 0,
      });
      // The released server is handed out again; a place with none left is refused by name.
      expect((await claim(t, 'ghost-4')).json().server.jobId).toBe('job-ok');
      const none = await claim(t, 'ghost-5', '42');
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ error: SERVER_POOL_TEXTS.noneAvailableForPlace('42') });
    });

    it('forgets deleted servers after 7 days, but keeps quarantined ones listed', async () => {
      await addServers(t, ['full-job', 'bad-job', 'kept-job']);
      await release(t, 'ghost-1', (await claim(t, 'ghost-1')).json().server.jobId, 'full');
      for (const ghost of ['ghost-2', 'ghost-3', 'ghost-4']) {
        await addServers(t, ['bad-job']);
        const claimed = await claim(t, ghost);
        expect(claimed.json().server.jobId).toBe('bad-job');
        await release(t, ghost, 'bad-job', 'error');
      }
      expect((await stats(t, t.cookie)).byStatus).toEqual({ available: 1, assigned: 0, deleted: 2 });
      t.clock.advance(POOL_HISTORY_MS + 1000);
      await prunePool(t.ctx);
      // A week on, yesterday's session has ended: sign in again.
      const pool = await stats(t, await t.adminCookie());
      expect(pool).toMatchObject({ total: 1, byStatus: { available: 1, assigned: 0, deleted: 1 } });
      expect(pool.quarantined.map((q: { jobId: string }) => q.jobId)).toEqual(['bad-job']);
    });

    it('answers exactly the fields bots and the screen read (the response schemas strip the rest)', async () => {
      await addServers(t, ['job-keys']);
      const claimed = (await claim(t, 'ghost-keys')).json();
      expect(Object.keys(claimed).sort()).toEqual(['leaseSeconds', 'server']);
      expect(Object.keys(claimed.server).sort()).toEqual([
        'assignedAt',
        'assignedTo',
        'deletedReason',
        'jobId',
        'maxPlayers',
        'placeId',
        'playing',
        'status',
      ]);
      expect(Object.keys(await stats(t, t.cookie)).sort()).toEqual([
        'activeBots',
        'byStatus',
        'flaggedBots',
        'quarantined',
        'total',
      ]);
    });

    it('claims within a place when asked', async () => {
      await addServers(t, ['other-1'], '1');
      await addServers(t, ['mine-1'], '2');
      const res = await claim(t, 'ghost-1', '2');
      expect(res.json().server).toMatchObject({ jobId: 'mine-1', placeId: '2' });
    });

    it('hands 100 servers to 200 concurrent claims: 100 distinct servers, 100 refusals', async () => {
      await raceClaims([t], t.cookie);
    });

    it('refuses a claim from a bot the fleet does not hold, naming why, and hands it nothing', async () => {
      await addServers(t, ['job-1']);
      const stranger = await botCall(t, 'claim', { ghostId: 'ghost-stranger' });
      expect(stranger.statusCode).toBe(409);
      expect(stranger.json()).toEqual({ error: 'Bot ghost-stranger is not in the fleet: say hello first' });
      expect((await stats(t, t.cookie)).byStatus).toMatchObject({ available: 1, assigned: 0 });
      // Once it has said hello, the same claim is served.
      const greetedClaim = await claim(t, 'ghost-stranger');
      expect(greetedClaim.statusCode, greetedClaim.body).toBe(200);
      expect(greetedClaim.json().server).toMatchObject({ jobId: 'job-1', assignedTo: 'ghost-stranger' });
    });

    it('lets a bot hold at most 3 servers: the 4th claim is refused until it releases one', async () => {
      await addServers(t, jobIds(5));
      const held = [];
      for (let i = 0; i < 3; i++) {
        const res = await claim(t, 'ghost-1');
        expect(res.statusCode, res.body).toBe(200);
        held.push(res.json().server.jobId as string);
      }
      const fourth = await claim(t, 'ghost-1');
      expect(fourth.statusCode).toBe(409);
      expect(fourth.json()).toEqual({
        error: 'Bot ghost-1 already holds 3 servers, the most one bot may hold: release one first',
      });
      // Another bot is not held back by it.
      expect((await claim(t, 'ghost-2')).statusCode).toBe(200);
      expect((await release(t, 'ghost-1', held[0]!, 'ok')).statusCode).toBe(200);
      expect((await claim(t, 'ghost-1')).statusCode).toBe(200);
      expect((await stats(t, t.cookie)).byStatus).toMatchObject({ available: 1, assigned: 4 });
    });

    it('changes no row when it refuses a claim or a release (a refused call is not a sign of life)', async () => {
      const poolBots = () => t.ctx.db.selectFrom('pool_bots').selectAll().orderBy('ghost_id').execute();
      await addServers(t, ['job-1']);
      const held = await claim(t, 'ghost-1');
      expect(held.statusCode, held.body).toBe(200);
      await sayHello(t, 'ghost-2');
      const before = await poolBots();
      t.clock.advance(1000);
      // Nothing left to claim; a release of a server it does not hold; a release of an unknown server.
      expect((await claim(t, 'ghost-2')).statusCode).toBe(404);
      expect((await claim(t, 'ghost-2', '42')).statusCode).toBe(404);
      expect((await release(t, 'ghost-2', 'job-1', 'full')).statusCode).toBe(409);
      expect((await release(t, 'ghost-1', 'job-unknown', 'error')).statusCode).toBe(404);
      expect(await poolBots()).toEqual(before);
    });

    it('lets 10 simultaneous claims of one bot take 3 servers, no more', async () => {
      await raceClaimsOfOneBot([t]);
    });

    it('hands 200 servers to 50 bots claiming 5 times each at once: each bot 3, no server twice', async () => {
      await raceClaimsOfManyBots([t]);
    });

    it('takes a server back when its bot neither releases nor calls within the lease', async () => {
      await addServers(t, ['job-1', 'job-2']);
      expect((await claim(t, 'ghost-quiet')).json().server.jobId).toBe('job-1');
      expect((await claim(t, 'ghost-busy')).json().server.jobId).toBe('job-2');
      t.clock.advance(100_000);
      // Any pool call keeps a bot's leases alive, a refused one too.
      await addServers(t, ['job-3']);
      expect((await release(t, 'ghost-busy', 'job-none', 'ok')).statusCode).toBe(404);
      t.clock.advance(1000);
      expect((await claim(t, 'ghost-busy')).json().server.jobId).toBe('job-3');
      t.clock.advance(29_000);

      // ghost-quiet: 130 s without a word. The pool is empty, so this claim takes its lease back.
      const taken = await claim(t, 'ghost-new');
      expect(taken.statusCode).toBe(200);
      expect(taken.json().server.jobId).toBe('job-1');
      const late = await release(t, 'ghost-quiet', 'job-1', 'ok');
      expect(late.statusCode).toBe(409);
      expect(await stats(t, t.cookie)).toMatchObject({
        byStatus: { available: 0, assigned: 3, deleted: 0 },
        activeBots: 2,
      });
      // ghost-busy was heard from 30 s ago: its servers stay its own.
      const none = await claim(t, 'ghost-other');
      expect(none.statusCode).toBe(404);
    });

    it('keeps the lease of a bot that heartbeats to the fleet instead of calling the pool', async () => {
      await addServers(t, ['job-1']);
      expect((await claim(t, 'ghost-1')).statusCode).toBe(200);
      t.clock.advance(100_000);
      const heartbeat = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: BOT,
        payload: { ghostId: 'ghost-1', events: [{ type: 'heartbeat' }] },
      });
      expect(heartbeat.statusCode, heartbeat.body).toBe(200);
      t.clock.advance(100_000);
      expect((await claim(t, 'ghost-2')).statusCode).toBe(404);
      t.clock.advance(21_000);
      expect((await claim(t, 'ghost-2')).json().server.jobId).toBe('job-1');
    });

    it('quarantines a server on which 3 different bots fail within 10 minutes', async () => {
      await addServers(t, ['bad-job']);
      for (const [i, ghost] of ['ghost-1', 'ghost-2'].entries()) {
        expect(await claimAndFail(t, ghost, `Teleport failed ${i}`)).toBe('bad-job');
        t.clock.advance(4 * 60_000);
        // Offered again by the game's server list: a plain error does not keep it out.
        expect(await addServers(t, ['bad-job'])).toEqual({ added: 1, ignored: 0 });
      }
      expect((await stats(t, t.cookie)).quarantined).toEqual([]);
      expect(await claimAndFail(t, 'ghost-3', 'Teleport failed 2')).toBe('bad-job');

      const pool = await stats(t, t.cookie);
      expect(pool.byStatus).toEqual({ available: 0, assigned: 0, deleted: 1 });
      expect(pool.quarantined).toEqual([
        {
          jobId: 'bad-job',
          placeId: PLACE,
          reason: 'Quarantined: 3 bots failed on it within 10 minutes (last: Teleport failed 2)',
          quarantinedAt: new Date(t.clock.now()).toISOString(),
        },
      ]);
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'server_quarantined')
        .execute();
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.details)).toMatchObject({ jobId: 'bad-job', bots: expect.any(Array) });
      // A quarantined server stays out, even when offered again.
      expect(await addServers(t, ['bad-job'])).toEqual({ added: 0, ignored: 1 });
      expect((await claim(t, 'ghost-4')).statusCode).toBe(404);
    });

    it('does not quarantine when the failures are spread over more than 10 minutes, or from one bot', async () => {
      await addServers(t, ['job-a']);
      await claimAndFail(t, 'ghost-1');
      t.clock.advance(QUARANTINE_WINDOW_MS / 2 + 1000);
      await addServers(t, ['job-a']);
      await claimAndFail(t, 'ghost-2');
      t.clock.advance(QUARANTINE_WINDOW_MS / 2 + 1000);
      await addServers(t, ['job-a']);
      await claimAndFail(t, 'ghost-3');
      // ghost-1's failure is over 10 minutes old: only 2 bots in the window.
      for (let i = 0; i < 3; i++) {
        await addServers(t, ['job-a']);
        await claimAndFail(t, 'ghost-3');
      }
      expect((await stats(t, t.cookie)).quarantined).toEqual([]);
    });

    it('flags a bot that fails on 10 different servers in a row; a good release lifts it', async () => {
      const ids = jobIds(FLAG_BOT_AFTER_FAILED_SERVERS + 1);
      await addServers(t, ids);
      for (let i = 0; i < FLAG_BOT_AFTER_FAILED_SERVERS - 1; i++) await claimAndFail(t, 'ghost-bad');
      // A full server is not the bot's failure: it neither counts nor breaks the streak.
      await addServers(t, ['full-job']);
      const fullClaim = await claim(t, 'ghost-bad');
      await release(t, 'ghost-bad', fullClaim.json().server.jobId, 'full');
      expect((await stats(t, t.cookie)).flaggedBots).toEqual([]);

      await claimAndFail(t, 'ghost-bad');
      expect((await stats(t, t.cookie)).flaggedBots).toEqual([
        { ghostId: 'ghost-bad', failedServers: 10, flaggedAt: new Date(t.clock.now()).toISOString() },
      ]);
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .select('details')
        .where('event_type', '=', 'bot_flagged')
        .execute();
      expect(audit.map((r) => JSON.parse(r.details))).toEqual([
        expect.objectContaining({ ghostId: 'ghost-bad', failedServers: 10 }),
      ]);
      // The live monitoring shows it as an error scanner.
      const scanner = t.ctx.services.fleet.backfill(false).scanners.find((s) => s.botId === 'ghost-bad');
      expect(scanner?.status).toBe('error');

      await addServers(t, ['good-job']);
      const good = await claim(t, 'ghost-bad');
      await release(t, 'ghost-bad', good.json().server.jobId, 'ok');
      expect((await stats(t, t.cookie)).flaggedBots).toEqual([]);
    });

    it('does not flag a bot whose 10 failures in a row were on fewer different servers', async () => {
      await addServers(t, ['same-1', 'same-2']);
      for (let i = 0; i < 10; i++) {
        const jobId = await claimAndFail(t, 'ghost-1');
        await addServers(t, [jobId]);
        t.clock.advance(QUARANTINE_WINDOW_MS);
      }
      expect((await stats(t, t.cookie)).flaggedBots).toEqual([]);
    });
  });
}

if (DIALECTS.includes('postgres')) {
  describe('postgres: claims spread over two instances on one database', () => {
    let first: TestApp;
    let second: TestApp;
    beforeEach(async () => {
      first = await buildTestApp('postgres');
      second = await buildTestApp('postgres', {}, { joinSchemaOf: first });
    });
    afterEach(async () => {
      await second?.close();
      await first?.close();
    });

    it('hands 100 servers to 200 concurrent claims on two instances: 100 distinct servers, 100 refusals', async () => {
      await raceClaims([first, second], await first.adminCookie());
    });

    it('lets 10 simultaneous claims of one bot on two instances take 3 servers, no more', async () => {
      await raceClaimsOfOneBot([first, second]);
    });

    it('hands 200 servers to 50 bots claiming 5 times each on two instances: each bot 3, no server twice', async () => {
      await raceClaimsOfManyBots([first, second]);
    });
  });
}
