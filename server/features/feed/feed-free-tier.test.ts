import { afterEach, describe, expect, it } from 'vitest';
import type { FeedResponse } from '../../../common/fleet.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { insertTestScriptKey } from '../loader/script-access.fixtures.ts';
import { MIDDLE, NEXT_MINUTE, reportFinds, reportNextMinute } from './feed.fixtures.ts';

/*
 * Finding 7 of the abuse issue: a 5–10M/s find hid its job id from the free tier but kept its bot id
 * and exact timestamp, so a $1M find from the same bot and scan, shown in clear, gave the job away.
 */

type App = Pick<TestAppSuite, 'app' | 'injectBare'>;
type FeedItem = FeedResponse['discoveries'][number];

/** Shown to the free tier in clear (below 5M/s), reported in the same batch as MIDDLE. */
const SAME_SCAN = { name: 'Tung Tung Tung Sahur', value: '$1M/s' };

async function feedOf(t: App, query: Record<string, string | number>): Promise<FeedResponse> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await t.injectBare({ method: 'GET', url: `/api/script/feed?${search}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FeedResponse;
}

const named = (items: FeedItem[], name: string) => items.find((d) => d.name === name);

/** What could tie a find to another: none of it may be shared between a hidden find and a visible one. */
function expectUnlinkable(hidden: FeedItem | undefined, visible: FeedItem | undefined) {
  expect(hidden).toMatchObject({ name: MIDDLE.name, value: MIDDLE.value, jobid: null });
  expect(visible).toMatchObject({ name: SAME_SCAN.name, botId: 'ghost-01' });
  if (!hidden || !visible) return;
  expect(hidden.botId).toBeNull();
  expect(hidden.scannerId).toBeNull();
  expect(hidden.placeid).toBeNull();
  // The minute only, not the millisecond the bot's batch arrived in.
  expect(hidden.timestamp).toBe('2026-11-22T12:00:00.000Z');
  expect(hidden.timestamp).not.toBe(visible.timestamp);
  // Its position is the later find's that released it, not the one next to its batch mate.
  expect(Math.abs(hidden.seq - visible.seq)).toBeGreaterThan(1);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the free tier cannot link a find hidden from it to the finds it sees`, () => {
    const t = useTestApp(dialect, { listen: true });
    const clients: TestClient[] = [];
    afterEach(() => {
      for (const client of clients.splice(0)) client.ws.terminate();
    });

    it('over HTTP: a 5–10M/s find comes after its minute, without bot, place or exact time', async () => {
      const start = await feedOf(t, { since: 0 });
      t.clock.advance(12_345);
      const [sameScanJob] = await reportFinds(t, [SAME_SCAN, MIDDLE]);
      const sameMinute = await feedOf(t, { since: start.cursor });
      // The job id of the find shown in clear, and nothing of the hidden one beside it yet.
      expect(sameMinute.discoveries.map((d) => d.name)).toEqual([SAME_SCAN.name]);
      expect(named(sameMinute.discoveries, SAME_SCAN.name)?.jobid).toBe(sameScanJob);

      await reportNextMinute(t);
      const nextMinute = await feedOf(t, { since: sameMinute.cursor });
      expect(nextMinute.discoveries.map((d) => d.name)).toEqual([MIDDLE.name, NEXT_MINUTE.name]);
      expectUnlinkable(
        named(nextMinute.discoveries, MIDDLE.name),
        named(sameMinute.discoveries, SAME_SCAN.name),
      );
      expect(named(nextMinute.discoveries, MIDDLE.name)?.seq).toBe(
        named(nextMinute.discoveries, NEXT_MINUTE.name)?.seq,
      );
      // Read again from the start, it is the same answer: nothing depends on when the client asked.
      const again = await feedOf(t, { since: start.cursor });
      expect(again.discoveries.map((d) => d.name)).toEqual([SAME_SCAN.name, MIDDLE.name, NEXT_MINUTE.name]);
      expect(named(again.discoveries, MIDDLE.name)).toEqual(named(nextMinute.discoveries, MIDDLE.name));
      // Nor does a cursor that lands between the two finds of the batch.
      const between = await feedOf(t, { since: named(again.discoveries, SAME_SCAN.name)?.seq ?? 0 });
      expect(between.discoveries.map((d) => d.name)).toEqual([MIDDLE.name, NEXT_MINUTE.name]);
      expect(await feedOf(t, { since: nextMinute.cursor })).toMatchObject({ discoveries: [] });
      // A read that starts at the present (the last minute) holds it where it was released too.
      const live = await feedOf(t, {});
      expect(live.discoveries).toEqual(again.discoveries);

      // A PREMIUM key still gets the find whole, where it happened.
      const premium = await insertTestScriptKey(t);
      const paid = await feedOf(t, { since: start.cursor, key: premium.scriptKey, hwid: 'd' });
      expect(named(paid.discoveries, MIDDLE.name)).toMatchObject({
        botId: 'ghost-01',
        scannerId: 'ghost-01',
        timestamp: '2026-11-22T12:00:12.345Z',
      });
      expect(named(paid.discoveries, MIDDLE.name)?.jobid).toEqual(expect.any(String));
    });

    it('on /ws/feed: the same, and a socket opened after the batch gets it too', async () => {
      const open = async () => {
        const client = await connectTestClient(`${t.socketUrl}/feed`, undefined, { origin: null });
        clients.push(client);
        await client.next((f) => f.type === 'ready');
        return client;
      };
      const early = await open();
      t.clock.advance(12_345);
      await reportFinds(t, [SAME_SCAN, MIDDLE]);
      await early.next((f) => f.type === 'discovery');
      const late = await open();
      await reportNextMinute(t);

      for (const client of [early, late]) {
        await client.next((f) => f.type === 'discovery' && (f.payload as FeedItem).name === NEXT_MINUTE.name);
      }
      const items = (client: TestClient) => client.ofType('discovery').map((f) => f.payload as FeedItem);
      expect(items(early).map((d) => d.name)).toEqual([SAME_SCAN.name, MIDDLE.name, NEXT_MINUTE.name]);
      expectUnlinkable(named(items(early), MIDDLE.name), named(items(early), SAME_SCAN.name));
      // The hidden find's frame says when it was released, not when it arrived.
      const hiddenFrame = early.ofType('discovery')[1];
      expect(hiddenFrame?.payload).toMatchObject({ serverTime: '2026-11-22T12:01:12.345Z' });
      expect(hiddenFrame?.timestamp).toBe('2026-11-22T12:01:12.345Z');
      expect(items(late).map((d) => d.name)).toEqual([MIDDLE.name, NEXT_MINUTE.name]);
      expect(named(items(late), MIDDLE.name)).toEqual(named(items(early), MIDDLE.name));
    });
  });
}
