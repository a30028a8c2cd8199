import { afterEach, describe, expect, it } from 'vitest';
import type { FeedDiscovery, FeedResponse } from '../../../common/fleet.ts';
import type { ScriptKeyType } from '../../../common/script-keys.ts';
import { insertScriptKeyBinding } from '../../test/fixtures.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { ACCESS_TEXTS } from '../loader/loader-access.ts';
import { HOUR_MS, insertTestScriptKey, scriptKeyBindings } from '../loader/script-access.fixtures.ts';
import {
  HUGE,
  LARGE,
  MIDDLE,
  NEXT_MINUTE,
  reportFinds,
  reportNextMinute,
  SMALL,
  UNREADABLE,
} from './feed.fixtures.ts';
import { FEED_TEXTS } from './feed.service.ts';

type App = Pick<TestAppSuite, 'app' | 'injectBare'>;

async function getFeed(t: App, query: Record<string, string | number>, remoteAddress?: string) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return t.injectBare({ method: 'GET', url: `/api/script/feed?${search}`, remoteAddress });
}

async function feedOf(t: App, query: Record<string, string | number>): Promise<FeedResponse> {
  const res = await getFeed(t, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FeedResponse;
}

/** RATE_LIMIT_FEED_PREMIUM in the rate-limit tests. */
const PREMIUM_LIMIT = 8;

const names = (discoveries: FeedDiscovery[]) => discoveries.map((d) => d.name);
const joinData = (discoveries: FeedDiscovery[]) =>
  Object.fromEntries(discoveries.map((d) => [d.name, d.jobid === null ? null : 'jobid']));

for (const dialect of DIALECTS) {
  describe(`${dialect}: the discovery feed over HTTP`, () => {
    const t = useTestApp(dialect, { signIn: true });

    it('gives a keyless client only finds below 10M/s, without join data from 5M/s', async () => {
      await reportFinds(t, [SMALL, LARGE, MIDDLE, HUGE]);
      // The 5–10M/s find comes with the first find of a later minute (feed-free-tier.test.ts).
      await reportNextMinute(t);
      const feed = await feedOf(t, { since: 0 });
      expect(feed.tier).toBe('FREE');
      expect(names(feed.discoveries)).toEqual([SMALL.name, MIDDLE.name, NEXT_MINUTE.name]);
      expect(joinData(feed.discoveries)).toEqual({
        [SMALL.name]: 'jobid',
        [MIDDLE.name]: null,
        [NEXT_MINUTE.name]: 'jobid',
      });
      expect(feed.discoveries[0]).toMatchObject({ value: SMALL.value, numericValue: 850_000 });
    });

    it('keeps a find whose value does not parse for PREMIUM keys: never free, never its join data', async () => {
      const [unreadableJob] = await reportFinds(t, [
        UNREADABLE,
        SMALL,
        { ...UNREADABLE, name: 'Unpriced', value: 'priceless' },
      ]);
      const keyless = await feedOf(t, { since: 0 });
      expect(names(keyless.discoveries)).toEqual([SMALL.name]);
      const free = await insertTestScriptKey(t, { scriptType: 'FREE' });
      const freeFeed = await feedOf(t, { since: 0, key: free.scriptKey, hwid: 'free-device' });
      expect(names(freeFeed.discoveries)).toEqual([SMALL.name]);
      // Long-polled: the find arriving during the wait is not handed to the free tier either.
      const waiting = feedOf(t, { since: keyless.cursor, wait: 1 });
      await reportFinds(t, [{ ...UNREADABLE, name: 'Later' }]);
      expect(names((await waiting).discoveries)).toEqual([]);

      const premium = await insertTestScriptKey(t);
      const premiumFeed = await feedOf(t, { since: 0, key: premium.scriptKey, hwid: 'device-1' });
      expect(names(premiumFeed.discoveries)).toEqual([UNREADABLE.name, SMALL.name, 'Unpriced', 'Later']);
      expect(premiumFeed.discoveries[0]).toMatchObject({ value: '$3Qa/s', jobid: unreadableJob });
    });

    it('gives a FREE key the free tier, and binds no device for it', async () => {
      const key = await insertTestScriptKey(t, { scriptType: 'FREE' });
      await reportFinds(t, [HUGE, SMALL, MIDDLE]);
      await reportNextMinute(t, [HUGE]);
      const feed = await feedOf(t, { since: 0, key: key.scriptKey, hwid: 'free-device' });
      expect(feed.tier).toBe('FREE');
      expect(names(feed.discoveries)).toEqual([SMALL.name, MIDDLE.name]);
      expect(joinData(feed.discoveries)).toEqual({ [SMALL.name]: 'jobid', [MIDDLE.name]: null });
      expect(await scriptKeyBindings(t, key.id)).toEqual([]);
    });

    for (const scriptType of ['PREMIUM', 'VIP', 'premium_24h'] as ScriptKeyType[]) {
      it(`gives a ${scriptType} key every find with its join data, and binds the device`, async () => {
        const key = await insertTestScriptKey(t, { scriptType });
        await reportFinds(t, [SMALL, HUGE, MIDDLE, LARGE]);
        const feed = await feedOf(t, { since: 0, key: key.scriptKey, hwid: 'device-1' });
        expect(feed.tier).toBe('PREMIUM');
        expect(names(feed.discoveries)).toEqual([SMALL.name, HUGE.name, MIDDLE.name, LARGE.name]);
        expect(feed.discoveries.every((d) => typeof d.jobid === 'string')).toBe(true);
        expect((await scriptKeyBindings(t, key.id)).map((b) => b.hardware_id)).toEqual(['device-1']);
      });
    }

    it('takes the device id from X-Hardware-Id too', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [HUGE]);
      const res = await t.injectBare({
        method: 'GET',
        url: `/api/script/feed?since=0&key=${key.scriptKey}`,
        headers: { 'x-hardware-id': 'header-device' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(names((res.json() as FeedResponse).discoveries)).toEqual([HUGE.name]);
    });

    it('refuses keys the loader would refuse, with the reason', async () => {
      const inactive = await insertTestScriptKey(t, { isActive: 0 });
      const expired = await insertTestScriptKey(t, { expiresAt: t.clock.now() - HOUR_MS });
      const expiredFree = await insertTestScriptKey(t, { scriptType: 'FREE', expiresAt: t.clock.now() - 1 });
      const full = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      await insertScriptKeyBinding(t, full.id, 'first-device');
      const cases: Array<[Record<string, string>, number, string]> = [
        [{ key: 'SK-not-a-key', hwid: 'd' }, 403, ACCESS_TEXTS.unknownKey],
        [{ key: inactive.scriptKey, hwid: 'd' }, 403, ACCESS_TEXTS.inactiveKey],
        [{ key: expired.scriptKey, hwid: 'd' }, 403, ACCESS_TEXTS.expiredKey],
        [{ key: expiredFree.scriptKey, hwid: 'd' }, 403, ACCESS_TEXTS.expiredKey],
        [{ key: full.scriptKey, hwid: 'second-device' }, 403, ACCESS_TEXTS.deviceLimit(1)],
        [{ key: full.scriptKey }, 400, FEED_TEXTS.hwidRequired],
      ];
      for (const [query, status, error] of cases) {
        const res = await getFeed(t, { since: 0, ...query });
        expect([res.statusCode, res.json()], JSON.stringify(query)).toEqual([status, { error }]);
      }
    });

    it('refuses a device the admin revoked, though it was served before', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [HUGE]);
      expect((await feedOf(t, { since: 0, key: key.scriptKey, hwid: 'device-1' })).tier).toBe('PREMIUM');
      const [binding] = await scriptKeyBindings(t, key.id);
      const revoked = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license/revoke-binding',
        headers: { cookie: t.cookie },
        payload: { bindingId: binding?.id },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);

      const res = await getFeed(t, { since: 0, key: key.scriptKey, hwid: 'device-1' });
      expect([res.statusCode, res.json()]).toEqual([403, { error: ACCESS_TEXTS.revokedDevice }]);
    });

    it('pages with the cursor: each answer holds only what came after the previous one', async () => {
      await reportFinds(t, [SMALL, MIDDLE]);
      await reportNextMinute(t);
      const first = await feedOf(t, { since: 0 });
      expect(names(first.discoveries)).toEqual([SMALL.name, MIDDLE.name, NEXT_MINUTE.name]);
      expect(first.cursor).toBe(first.discoveries.at(-1)?.seq);

      expect(await feedOf(t, { since: first.cursor })).toMatchObject({
        discoveries: [],
        cursor: first.cursor,
      });

      // Finds a FREE client may not see still move its cursor past them.
      await reportFinds(t, [HUGE, { name: 'Tralalero Tralala', value: '$2.5M/s' }, LARGE]);
      const second = await feedOf(t, { since: first.cursor });
      expect(names(second.discoveries)).toEqual(['Tralalero Tralala']);
      expect(second.cursor).toBeGreaterThan(second.discoveries[0]?.seq ?? 0);
      expect((await feedOf(t, { since: second.cursor })).discoveries).toEqual([]);
    });

    it('long-polls: the answer comes as soon as a find the client may see arrives', async () => {
      await reportFinds(t, [SMALL]);
      const { cursor } = await feedOf(t, { since: 0 });
      // wait=25: a poll that waited its whole time would fail the test's own 5 s limit.
      const polling = feedOf(t, { since: cursor, wait: 25 });
      await reportFinds(t, [HUGE]); // not for a FREE client: the poll keeps waiting
      await reportFinds(t, [MIDDLE]); // held until a find of a later minute: still waiting
      await reportNextMinute(t, [LARGE]);
      const answer = await polling;
      expect(names(answer.discoveries)).toEqual([MIDDLE.name]);
      expect(answer.discoveries[0]?.jobid).toBeNull();
    });

    it('answers a long-poll with what is already there at once', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [HUGE]);
      const feed = await feedOf(t, { since: 0, wait: 25, key: key.scriptKey, hwid: 'd' });
      expect(names(feed.discoveries)).toEqual([HUGE.name]);
    });

    it('ends a waiting long-poll with an empty answer when the server closes', async () => {
      const polling = feedOf(t, { since: 0, wait: 25 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.app.close();
      expect((await polling).discoveries).toEqual([]);
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ since: 'abc' }, 'since'],
        [{ since: '-1' }, 'since'],
        [{ since: '1.5' }, 'since'],
        [{ since: '0', wait: '26' }, 'wait'],
        [{ since: '0', wait: 'soon' }, 'wait'],
        [{ since: '0', key: '' }, 'key'],
        [{ since: '0', key: 'SK-x', hwid: 'h'.repeat(201) }, 'hwid'],
      ];
      for (const [query, field] of cases) {
        const res = await getFeed(t, query);
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
        expect((res.json() as { error: string }).error, JSON.stringify(query)).toContain(field);
      }
    });
  });

  describe(`${dialect}: the discovery feed's rate limit`, () => {
    const t = useTestApp(dialect, {
      env: { RATE_LIMIT_FEED: '3', RATE_LIMIT_FEED_PREMIUM: String(PREMIUM_LIMIT) },
    });

    it('answers 429 past the limit, per IP and per key', async () => {
      for (let i = 0; i < 3; i++) expect((await getFeed(t, { since: 0 }, '10.0.0.1')).statusCode).toBe(200);
      const limited = await getFeed(t, { since: 0 }, '10.0.0.1');
      expect(limited.statusCode).toBe(429);
      expect((limited.json() as { error: string }).error).toMatch(/^Too many requests/);
      expect((await getFeed(t, { since: 0 }, '10.0.0.2')).statusCode).toBe(200);

      // A FREE key: the free tier's limit (a PREMIUM key's polls count apart, below).
      const key = await insertTestScriptKey(t, { scriptType: 'FREE' });
      for (let i = 0; i < 3; i++) {
        const res = await getFeed(t, { since: 0, key: key.scriptKey, hwid: 'd' }, `10.1.0.${i}`);
        expect(res.statusCode).toBe(200);
      }
      expect((await getFeed(t, { since: 0, key: key.scriptKey, hwid: 'd' }, '10.1.0.9')).statusCode).toBe(
        429,
      );
    });

    it("counts a PREMIUM key's polls from its bound device apart, against RATE_LIMIT_FEED_PREMIUM", async () => {
      const key = await insertTestScriptKey(t);
      const poll = (address: string) => getFeed(t, { since: 0, key: key.scriptKey, hwid: 'd' }, address);
      // The first call binds the device (from another address: it counts as a free one there).
      expect((await poll('10.3.0.9')).statusCode).toBe(200);
      // A premium script on a busy fleet polls again after every answer: past RATE_LIMIT_FEED (3).
      for (let i = 0; i < PREMIUM_LIMIT; i++)
        expect((await poll('10.3.0.1')).statusCode, `poll ${i}`).toBe(200);
      const limited = await poll('10.3.0.1');
      expect(limited.statusCode).toBe(429);
      expect((limited.json() as { error: string }).error).toMatch(/^Too many requests/);
      // The free tier's limit at that address is its own, as it was.
      for (let i = 0; i < 3; i++) expect((await getFeed(t, { since: 0 }, '10.3.0.1')).statusCode).toBe(200);
      expect((await getFeed(t, { since: 0 }, '10.3.0.1')).statusCode).toBe(429);
    });

    it('counts socket upgrades too', async () => {
      const upgrade = () => t.injectBare({ method: 'GET', url: '/ws/feed', remoteAddress: '10.2.0.1' });
      for (let i = 0; i < 3; i++) await upgrade();
      const limited = await upgrade();
      expect(limited.statusCode).toBe(429);
      expect((limited.json() as { error: string }).error).toMatch(/^Too many requests/);
    });
  });

  describe(`${dialect}: the discovery feed socket /ws/feed`, () => {
    const t = useTestApp(dialect, { signIn: true, listen: true });
    const clients: TestClient[] = [];
    afterEach(() => {
      for (const client of clients.splice(0)) client.ws.terminate();
    });

    async function open(query: Record<string, string>): Promise<TestClient> {
      const url = `${t.socketUrl}/feed?${new URLSearchParams(query)}`;
      const client = await connectTestClient(url, undefined, { origin: null });
      clients.push(client);
      return client;
    }

    const discoveryNames = (client: TestClient) =>
      client.ofType('discovery').map((f) => (f.payload as FeedDiscovery).name);

    it('streams a keyless client finds below 10M/s only, without join data from 5M/s', async () => {
      const client = await open({});
      expect((await client.next((f) => f.type === 'ready')).payload).toMatchObject({ tier: 'FREE' });
      await reportFinds(t, [HUGE, SMALL, LARGE, MIDDLE]);
      await reportNextMinute(t, [HUGE]);
      const middle = await client.next(
        (f) => f.type === 'discovery' && (f.payload as FeedDiscovery).name === MIDDLE.name,
      );
      expect(discoveryNames(client)).toEqual([SMALL.name, MIDDLE.name]);
      expect((middle.payload as FeedDiscovery).jobid).toBeNull();
    });

    it('never streams a find whose value does not parse to the free tier; a PREMIUM key gets it', async () => {
      const premium = await insertTestScriptKey(t);
      const [free, paid] = await Promise.all([open({}), open({ key: premium.scriptKey, hwid: 'd' })]);
      await Promise.all([free, paid].map((c) => c.next((f) => f.type === 'ready')));
      const [unreadableJob] = await reportFinds(t, [UNREADABLE, SMALL]);
      await free.next((f) => f.type === 'discovery' && (f.payload as FeedDiscovery).name === SMALL.name);
      await paid.next((f) => f.type === 'discovery' && (f.payload as FeedDiscovery).name === SMALL.name);
      expect(discoveryNames(free)).toEqual([SMALL.name]);
      expect(discoveryNames(paid)).toEqual([UNREADABLE.name, SMALL.name]);
      expect(paid.ofType('discovery')[0]?.payload).toMatchObject({ jobid: unreadableJob });
      expect(JSON.stringify(free.frames)).not.toContain(unreadableJob);
    });

    it('streams a PREMIUM key every find with its join data, and resumes after since=', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [SMALL]);
      const { cursor } = await feedOf(t, { since: 0, key: key.scriptKey, hwid: 'd' });
      await reportFinds(t, [HUGE]); // missed while not connected

      const client = await open({ key: key.scriptKey, hwid: 'd', since: String(cursor) });
      expect((await client.next((f) => f.type === 'ready')).payload).toMatchObject({ tier: 'PREMIUM' });
      await reportFinds(t, [LARGE]);
      await client.next((f) => f.type === 'discovery' && (f.payload as FeedDiscovery).name === LARGE.name);
      expect(discoveryNames(client)).toEqual([HUGE.name, LARGE.name]);
      expect(
        client.ofType('discovery').every((f) => typeof (f.payload as FeedDiscovery).jobid === 'string'),
      ).toBe(true);
    });

    it('sends a refused key an error frame, then closes', async () => {
      const client = await open({ key: 'SK-not-a-key', hwid: 'd' });
      const error = await client.next((f) => f.type === 'error');
      expect(error.payload).toEqual({ error: ACCESS_TEXTS.unknownKey });
      expect((await client.waitClosed()).code).toBe(1008);
    });

    it('closes an open socket when the admin revokes its device', async () => {
      const key = await insertTestScriptKey(t);
      const client = await open({ key: key.scriptKey, hwid: 'd' });
      await client.next((f) => f.type === 'ready');
      await reportFinds(t, [HUGE]);
      await client.next((f) => f.type === 'discovery');
      const [binding] = await scriptKeyBindings(t, key.id);
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/license/revoke-binding',
        headers: { cookie: t.cookie },
        payload: { bindingId: binding?.id },
      });
      const error = await client.next((f) => f.type === 'error');
      expect(error.payload).toEqual({ error: ACCESS_TEXTS.revokedDevice });
      await client.waitClosed();
    });

    it('sends bad input an error frame naming the field, then closes', async () => {
      const client = await open({ since: 'soon' });
      const error = await client.next((f) => f.type === 'error');
      expect((error.payload as { error: string }).error).toContain('since');
      expect((await client.waitClosed()).code).toBe(1008);
    });
  });
}
