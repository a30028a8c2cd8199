import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_MESSAGE } from '../../common/text.ts';
import { TEST_PLACE_ID } from '../features/feed/feed.fixtures.ts';
import { insertTestScriptKey, loaderStatus } from '../features/loader/script-access.fixtures.ts';
import { DIALECTS, TEST_BOT_TOKEN, type TestAppSuite, useTestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };
const JOB_ID = '00000000-0000-4000-8000-000000000001';
/** A JSON text whose string holds a lone high surrogate (JSON.stringify would escape it the same way). */
const loneSurrogateJson = (json: string) => json.replace('LONE', '\\ud800');

const refusal = (field: string) => `${field}: ${UNSAFE_TEXT_MESSAGE}`;

function expectRefused(res: LightMyRequestResponse, error: string): void {
  expect([res.statusCode, res.json()]).toEqual([400, { error }]);
}

/** Every audit row as text, to look for a NUL however the dialect stores it (raw or JSON-escaped). */
async function auditText(t: TestAppSuite): Promise<string> {
  await t.app.pendingWrites.flush();
  const rows = await t.ctx.db.selectFrom('audit_logs').selectAll().execute();
  return JSON.stringify(rows);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: text is checked at the door (U+0000, lone surrogates)`, () => {
    const t = useTestApp(dialect, { signIn: true });

    it('refuses a NUL or a lone surrogate in a body field with a 400 naming it', async () => {
      expectRefused(
        await t.injectBare({
          method: 'POST',
          url: '/api/script/redeem',
          payload: { code: 'A\u0000', hwid: 'd' },
        }),
        refusal('code'),
      );
      expectRefused(
        await t.injectBare({
          method: 'POST',
          url: '/api/script/redeem',
          headers: { 'content-type': 'application/json' },
          payload: loneSurrogateJson('{"code":"ABC","hwid":"LONE"}'),
        }),
        refusal('hwid'),
      );
      expectRefused(
        await t.injectBare({
          method: 'POST',
          url: '/api/script/challenge',
          payload: { key: 'SK-\u0000', hwid: 'd' },
        }),
        refusal('key'),
      );
      // Nested fields and keys too, named by their path (the bad characters of a key are not echoed).
      expectRefused(
        await t.injectBare({
          method: 'POST',
          url: '/api/script/redeem',
          payload: { code: 'ABC', hwid: 'd', device: { os: 'x', extra: ['ok', 'b\u0000'] } },
        }),
        refusal('device.extra.1'),
      );
      expectRefused(
        await t.injectBare({
          method: 'POST',
          url: '/api/script/redeem',
          payload: { code: 'ABC', 'h\u0000': 'd' },
        }),
        refusal('h\uFFFD'),
      );
    });

    it('refuses one in a query, params or admin field, on routes with and without schemas', async () => {
      const feed = await t.injectBare({ method: 'GET', url: '/api/script/feed?key=%00&hwid=d' });
      expectRefused(feed, refusal('querystring key'));
      const search = await t.app.inject({
        method: 'GET',
        url: '/api/admin/license-keys?search=a%00b',
        headers: { cookie: t.cookie },
      });
      expectRefused(search, refusal('querystring search'));
      const notes = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType: 'PREMIUM', notes: 'paid\u0000' },
      });
      expectRefused(notes, refusal('notes'));
      const params = await t.app.inject({
        method: 'DELETE',
        url: '/api/admin/license-keys/1%00',
        headers: { cookie: t.cookie },
      });
      expectRefused(params, refusal('params id'));
      // A route that reads no query at all, and a query key.
      const unused = await t.injectBare({ method: 'GET', url: '/api/public/scripts-page-config?x%00=1' });
      expectRefused(unused, refusal('querystring x\uFFFD'));
      // Nothing was written: no key with those notes.
      const keys = await t.app.inject({
        method: 'GET',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
      });
      expect(keys.json().licenseKeys).toEqual([]);
    });

    it('answers the loader in Lua, still before any key or device check', async () => {
      const key = await insertTestScriptKey(t);
      for (const [query, field] of [
        [`script=premium&key=${key.scriptKey}%00`, 'querystring key'],
        [`script=premium&key=${key.scriptKey}&hwid=%00`, 'querystring hwid'],
      ] as const) {
        const res = await t.injectBare({ method: 'GET', url: `/api/script/loader?${query}` });
        // An executor gets 200 and Lua that prints the reason; the status rides in a header.
        expect(res.statusCode, query).toBe(200);
        expect(res.headers['x-scanline-refusal']).toBe('400 bad-request');
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.body).toContain(`Bad loader request: ${refusal(field)}`);
        const json = await t.injectBare({
          method: 'GET',
          url: `/api/script/loader?${query}`,
          headers: { accept: 'application/json' },
        });
        expect(json.statusCode, query).toBe(400);
        expect(json.json()).toEqual({ error: `Bad loader request: ${refusal(field)}` });
      }
      expect(await auditText(t)).not.toContain('\\u0000');
    });

    it('refuses a NUL jobId on pool release and a NUL pet name in bot events, keeping nothing', async () => {
      const release = await t.injectBare({
        method: 'POST',
        url: '/api/server-pool/release',
        headers: BOT,
        payload: { ghostId: 'ghost-a', jobId: 'job\u0000', outcome: 'ok' },
      });
      expectRefused(release, refusal('jobId'));

      const find = (name: string) => ({
        type: 'pet_discovered',
        payload: { name, value: '$1M/s', placeid: TEST_PLACE_ID, jobid: JOB_ID },
      });
      const events = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: BOT,
        payload: { ghostId: 'ghost-a', events: [find('Cat'), find('Dog\u0000')] },
      });
      expectRefused(events, refusal('events.1.payload.name'));
      const surrogate = await t.injectBare({
        method: 'POST',
        url: '/api/bot/events',
        headers: { ...BOT, 'content-type': 'application/json' },
        payload: loneSurrogateJson(JSON.stringify({ ghostId: 'ghost-a', events: [find('Cat LONE')] })),
      });
      expectRefused(surrogate, refusal('events.0.payload.name'));
      expect(t.ctx.services.fleet.backfill(false).discoveries).toEqual([]);
    });

    it('refuses a body nested deeper than any stack without a 5xx', async () => {
      const depth = 200_000;
      const res = await t.injectBare({
        method: 'POST',
        url: '/api/script/redeem',
        headers: { 'content-type': 'application/json' },
        payload: `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: refusal('0.0.0.0.0.0.0.0.….0.0.0.0.0.0.0') });
    });
  });

  describe(`${dialect}: a rate-limited loader call with unsafe text`, () => {
    const t = useTestApp(dialect, { env: { RATE_LIMIT_LOADER: '1' } });

    it('is refused with 400 before the rate limit counts or audits it', async () => {
      const call = async (hwid: string) => {
        const res = await t.injectBare({
          method: 'GET',
          url: `/api/script/loader?script=premium&hwid=${hwid}`,
          remoteAddress: '10.7.0.1',
        });
        return { statusCode: loaderStatus(res), body: res.body };
      };
      expect((await call('device-1')).statusCode).not.toBe(429);
      expect((await call('device-1')).statusCode).toBe(429);
      const hits = async () => {
        await t.app.pendingWrites.flush();
        const rows = await t.ctx.db
          .selectFrom('audit_logs')
          .select(['hardware_id', 'details'])
          .where('event_type', '=', 'rate_limit_hit')
          .execute();
        return rows.map((r) => ({ hardwareId: r.hardware_id, count: JSON.parse(r.details ?? '{}').count }));
      };
      expect(await hits()).toEqual([{ hardwareId: 'device-1', count: 1 }]);

      for (const hwid of ['%00', 'a%00b']) {
        const res = await call(hwid);
        expect(res.statusCode).toBe(400);
        expect(res.body).toContain(refusal('querystring hwid'));
      }
      expect(await hits()).toEqual([{ hardwareId: 'device-1', count: 1 }]);
      expect(await auditText(t)).not.toContain('\\u0000');
      // The good caller's next call is still only rate-limited, and the write path still works.
      expect((await call('device-1')).statusCode).toBe(429);
      expect(await hits()).toEqual([{ hardwareId: 'device-1', count: 2 }]);
    });
  });

  describe(`${dialect}: text is checked on sockets`, () => {
    const t = useTestApp(dialect, { listen: true });
    const clients: TestClient[] = [];
    afterEach(() => {
      for (const client of clients.splice(0)) client.ws.terminate();
    });
    const open = async (url: string) => {
      const client = await connectTestClient(url, undefined, { origin: null });
      clients.push(client);
      return client;
    };

    it('refuses a socket upgrade whose query holds a NUL, on /ws and /ws/feed', async () => {
      await expect(open(`${t.socketUrl}/feed?key=%00&hwid=d`)).rejects.toThrow('refused with 400');
      await expect(open(`${t.socketUrl}?token=${TEST_BOT_TOKEN}%00`)).rejects.toThrow('refused with 400');
      const res = await t.injectBare({ method: 'GET', url: '/ws/feed?hwid=%00' });
      expectRefused(res, refusal('querystring hwid'));
    });

    it('answers a bot frame holding a NUL or lone surrogate with an error frame naming the field', async () => {
      const bot = await open(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`);
      bot.send({ type: 'hello', payload: { ghostId: 'ghost-s', version: '1.0.0' } });
      await bot.next((f) => f.type === 'hello');
      const find = (name: string) =>
        JSON.stringify({
          type: 'pet_discovered',
          payload: { name, value: '$1M/s', placeid: TEST_PLACE_ID, jobid: JOB_ID },
          id: 'e1',
        });

      let from = bot.frames.length;
      bot.send(find('Dog\u0000'));
      const nul = await bot.next((f) => f.type === 'error', { from });
      expect(nul.payload).toEqual({ error: `Invalid frame: ${refusal('payload.name')}` });

      from = bot.frames.length;
      bot.send(loneSurrogateJson(find('Dog LONE')));
      const lone = await bot.next((f) => f.type === 'error', { from });
      expect(lone.payload).toEqual({ error: `Invalid frame: ${refusal('payload.name')}` });

      // The socket stays open and a good find is still taken.
      bot.send(find('Dog'));
      bot.send({ type: 'heartbeat', payload: {} });
      await bot.next((f) => f.type === 'heartbeat');
      expect(bot.closed).toBeNull();
      expect(t.ctx.services.fleet.backfill(false).discoveries.map((d) => d.name)).toEqual(['Dog']);
    });
  });
}
