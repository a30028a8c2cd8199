import { afterEach, describe, expect, it } from 'vitest';
import type { FeedDiscovery, FeedResponse } from '../../../common/fleet.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { reportFinds, SMALL } from './feed.fixtures.ts';

type App = Pick<TestAppSuite, 'app' | 'injectBare'>;

async function feedOf(t: App, search: string): Promise<FeedResponse> {
  const res = await t.injectBare({ method: 'GET', url: `/api/script/feed${search}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FeedResponse;
}

const OLD = { name: 'Tralalero Tralala', value: '$900K/s' };
const SECOND = { name: 'Cappuccino Assassino', value: '$1.2M/s' };
const names = (discoveries: FeedDiscovery[]) => discoveries.map((d) => d.name);

for (const dialect of DIALECTS) {
  describe(`${dialect}: a feed read that starts at the present`, () => {
    const t = useTestApp(dialect, { signIn: true });

    it('answers only the last minute of finds, the cursor at the head, with the server time', async () => {
      await reportFinds(t, [OLD]);
      t.clock.advance(61_000);
      await reportFinds(t, [SMALL, SECOND]);
      t.clock.advance(5_000);

      for (const search of ['', '?since=now', '?wait=0']) {
        const live = await feedOf(t, search);
        expect(names(live.discoveries), search).toEqual([SMALL.name, SECOND.name]);
        expect(live.serverTime).toBe(new Date(t.clock.now()).toISOString());
        expect(live.cursor).toBe(live.discoveries.at(-1)?.seq);
      }
      // since=0 still reads from the oldest kept, and carries the server time too.
      const all = await feedOf(t, '?since=0');
      expect(names(all.discoveries)).toEqual([OLD.name, SMALL.name, SECOND.name]);
      expect(all.serverTime).toBe(new Date(t.clock.now()).toISOString());
    });

    it('keeps cursor polling from where the live read left off', async () => {
      await reportFinds(t, [OLD]);
      t.clock.advance(120_000);
      const live = await feedOf(t, '');
      expect(live.discoveries).toEqual([]);
      await reportFinds(t, [SMALL]);
      const next = await feedOf(t, `?since=${live.cursor}`);
      expect(names(next.discoveries)).toEqual([SMALL.name]);
      expect(Date.parse(next.serverTime) - Date.parse(next.discoveries[0]?.timestamp ?? '')).toBe(0);
      expect((await feedOf(t, `?since=${next.cursor}`)).discoveries).toEqual([]);
    });

    it('long-polls from the present: a find that arrives answers the wait', async () => {
      await reportFinds(t, [OLD]);
      t.clock.advance(120_000);
      const polling = feedOf(t, '?wait=5');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await reportFinds(t, [SMALL]);
      const answer = await polling;
      expect(names(answer.discoveries)).toEqual([SMALL.name]);
      expect(typeof answer.serverTime).toBe('string');
    });
  });

  describe(`${dialect}: feed socket frames carry the server time`, () => {
    const t = useTestApp(dialect, { signIn: true, listen: true });
    const clients: TestClient[] = [];
    afterEach(() => {
      for (const client of clients.splice(0)) client.ws.terminate();
    });

    it('puts serverTime in the ready frame and in every discovery frame', async () => {
      const client = await connectTestClient(`${t.socketUrl}/feed?since=now`, undefined, { origin: null });
      clients.push(client);
      const ready = await client.next((f) => f.type === 'ready');
      expect(ready.payload).toMatchObject({
        tier: 'FREE',
        serverTime: new Date(t.clock.now()).toISOString(),
      });
      await reportFinds(t, [SMALL]);
      const found = await client.next((f) => f.type === 'discovery');
      expect(found.payload).toMatchObject({
        name: SMALL.name,
        serverTime: new Date(t.clock.now()).toISOString(),
      });
    });
  });
}
