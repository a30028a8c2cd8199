import { describe, expect, it, vi } from 'vitest';
import type { PetDiscovery } from '../../../common/fleet.ts';
import { loadConfig } from '../../config.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp, useTestApp } from '../../test/helper.ts';

// No test reaches the network: Discord's host, a private name and the rest resolve as they would.
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const addresses: Record<string, string> = {
    'discord.com': '162.159.135.232',
    'canary.discordapp.com': '162.159.135.233',
    'hooks.example.com': '93.184.215.14',
    'relay.example.com': '93.184.215.15',
    'intranet.example.com': '10.0.0.7',
  };
  const lookup = async (host: string) => {
    const address = addresses[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
  return { ...actual, lookup, default: { ...actual, lookup } };
});

const TOKEN = 'tOkEn-5ecret_9f8e7d6c5b4a';
const WEBHOOK = `https://discord.com/api/webhooks/123456/${TOKEN}`;
const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

const destination = (over: Record<string, unknown> = {}) => ({
  name: 'Buyers 1M-10M',
  kind: 'discord',
  url: WEBHOOK,
  minValue: 1_000_000,
  maxValue: 10_000_000,
  ...over,
});

let jobs = 0;
/** A find as a bot reports it (each in a server of its own, so none is a duplicate). */
const find = (name: string, value: string) => ({
  type: 'pet_discovered',
  payload: { name, type: 'Secret', value, placeid: '109983668079237', jobid: `job-${++jobs}` },
});

async function reportFinds(t: TestApp, finds: ReturnType<typeof find>[]) {
  const res = await t.injectBare({
    method: 'POST',
    url: '/api/bot/events',
    headers: BOT,
    payload: {
      ghostId: 'ghost-1',
      events: [{ type: 'hello', payload: { ghostId: 'ghost-1', version: '1' } }, ...finds],
    },
  });
  return res;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: notification destinations and deliveries`, () => {
    // The deliveries stay as written: no dispatcher sends them (one test below runs it).
    const t = useTestApp(dialect, { signIn: true, env: { NOTIFY_DISPATCH: 'false' } });
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: t.cookie }, ...(payload ? { payload } : {}) });
    const create = async (over: Record<string, unknown> = {}) => {
      const res = await call('POST', '/api/admin/notifications/destinations', destination(over));
      expect(res.statusCode, res.body).toBe(201);
      return res.json().destination as { id: number; url: string };
    };
    const deliveries = async (query = '') => {
      const res = await call('GET', `/api/admin/notifications/deliveries${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().deliveries as Array<Record<string, unknown>>;
    };

    it('refuses every call without an admin session', async () => {
      for (const [method, url] of [
        ['GET', '/api/admin/notifications/destinations'],
        ['POST', '/api/admin/notifications/destinations'],
        ['PATCH', '/api/admin/notifications/destinations/1'],
        ['DELETE', '/api/admin/notifications/destinations/1'],
        ['POST', '/api/admin/notifications/destinations/1/test'],
        ['GET', '/api/admin/notifications/deliveries'],
        ['POST', '/api/admin/notifications/deliveries/1/retry'],
      ] as const) {
        const res = await t.app.inject({ method, url, payload: {} });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('creates, lists, changes and deletes destinations, showing the URL masked', async () => {
      const created = await call(
        'POST',
        '/api/admin/notifications/destinations',
        destination({ petNames: ['Garama'] }),
      );
      expect(created.statusCode).toBe(201);
      expect(created.body).not.toContain(TOKEN);
      const { destination: made } = created.json();
      expect(made).toMatchObject({
        name: 'Buyers 1M-10M',
        kind: 'discord',
        url: 'https://discord.com/api/webhooks/123456/••••••',
        minValue: 1_000_000,
        maxValue: 10_000_000,
        petNames: ['Garama'],
        delaySeconds: 0,
        includeJoinData: true,
        mentionRoleId: null,
        enabled: true,
        disabledReason: null,
        stats: { sent: 0, pending: 0, failed: 0, lastError: null, p50Ms: null, p99Ms: null },
      });

      const list = await call('GET', '/api/admin/notifications/destinations');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(TOKEN);
      expect(list.json().destinations.map((d: { id: number }) => d.id)).toEqual([made.id]);
      // The server's URL settings, by which the admin's form judges a URL before sending it.
      expect(list.json().urlPolicy).toEqual({ allowHosts: [], allowPrivate: false });

      const changed = await call('PATCH', `/api/admin/notifications/destinations/${made.id}`, {
        name: 'Buyers 5M+',
        minValue: 5_000_000,
        maxValue: null,
        mentionRoleId: '998877665544',
        mentionFromValue: 50_000_000,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().destination).toMatchObject({
        name: 'Buyers 5M+',
        minValue: 5_000_000,
        maxValue: null,
        petNames: ['Garama'],
        mentionRoleId: '998877665544',
        url: 'https://discord.com/api/webhooks/123456/••••••',
      });

      const json = await create({
        kind: 'json',
        url: 'https://hooks.example.com/scanline/s3cr3t-path?sig=abc',
      });
      expect(json.url).toBe('https://hooks.example.com/••••••');

      expect((await call('DELETE', `/api/admin/notifications/destinations/${made.id}`)).statusCode).toBe(200);
      const after = await call('GET', '/api/admin/notifications/destinations');
      expect(after.json().destinations.map((d: { id: number }) => d.id)).toEqual([json.id]);
      const gone = await call('PATCH', `/api/admin/notifications/destinations/${made.id}`, { name: 'x' });
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ error: `Unknown destination: ${made.id}` });
      expect((await call('DELETE', `/api/admin/notifications/destinations/${made.id}`)).statusCode).toBe(404);

      // The audit log records what changed, never the URL's token.
      const audit = await t.ctx.db.selectFrom('audit_logs').select(['event_type', 'details']).execute();
      expect(audit.map((a) => a.event_type)).toEqual(
        expect.arrayContaining([
          'notification_destination_created',
          'notification_destination_updated',
          'notification_destination_deleted',
        ]),
      );
      expect(JSON.stringify(audit)).not.toContain(TOKEN);
      expect(JSON.stringify(audit)).not.toContain('s3cr3t-path');
    });

    it('refuses a URL that breaks a rule with a 400 naming the rule', async () => {
      const refusals: Array<[Record<string, unknown>, RegExp]> = [
        [{ url: WEBHOOK.replace('https:', 'http:') }, /url: The URL must use https/],
        [{ url: 'not a url' }, /url: The URL is not a valid URL/],
        [{ url: `https://hooks.example.com/api/webhooks/123456/${TOKEN}` }, /Discord's hosts/],
        [{ url: 'https://discord.com/api/channels/123456' }, /path \/api\/webhooks\/\{id\}\/\{token\}/],
        [{ kind: 'json', url: 'https://intranet.example.com/hook' }, /private, loopback or link-local/],
        [{ kind: 'json', url: 'https://127.0.0.1/hook' }, /private, loopback or link-local/],
        [{ kind: 'json', url: 'https://169.254.169.254/latest' }, /private, loopback or link-local/],
        [{ kind: 'json', url: 'https://nowhere.invalid/hook' }, /does not resolve/],
      ];
      for (const [over, rule] of refusals) {
        const res = await call('POST', '/api/admin/notifications/destinations', destination(over));
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(res.json().error).toMatch(rule);
      }
      // Discord's other hosts are Discord's too.
      await create({ url: `https://canary.discordapp.com/api/webhooks/42/${TOKEN}` });

      const { id } = await create();
      const patched = await call('PATCH', `/api/admin/notifications/destinations/${id}`, {
        url: 'https://hooks.example.com/x',
      });
      expect(patched.statusCode).toBe(400);
      expect(patched.json().error).toMatch(/Discord's hosts/);
      // A JSON endpoint may be any public https host.
      const toJson = await call('PATCH', `/api/admin/notifications/destinations/${id}`, {
        kind: 'json',
        url: 'https://hooks.example.com/x',
      });
      expect(toJson.statusCode, toJson.body).toBe(200);
      expect(toJson.json().destination.kind).toBe('json');
    });

    it('refuses a bad range, role id, name or unknown field', async () => {
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [
          { minValue: 5_000_000, maxValue: 1_000_000 },
          /maxValue: The maximum value must be at least the minimum/,
        ],
        [{ minValue: -1 }, /minValue: Values are 0 or more per second/],
        [{ mentionRoleId: 'everyone' }, /mentionRoleId: A Discord role id is its digits/],
        [{ name: '  ' }, /name: Name is required/],
        [{ delaySeconds: 90_000 }, /delaySeconds: The delay is at most 86400 seconds/],
        [{ kind: 'slack' }, /kind/],
        [{ colour: 'red' }, /colour/],
      ];
      for (const [over, message] of bad) {
        const res = await call('POST', '/api/admin/notifications/destinations', destination(over));
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(res.json().error).toMatch(message);
      }
      const { id } = await create();
      // The range is checked against what is stored: a maximum under the stored minimum.
      const patched = await call('PATCH', `/api/admin/notifications/destinations/${id}`, {
        maxValue: 500_000,
      });
      expect(patched.statusCode).toBe(400);
      expect(patched.json().error).toMatch(/The maximum value must be at least the minimum/);
      const badRole = await call('PATCH', `/api/admin/notifications/destinations/${id}`, {
        mentionRoleId: '<@&1>',
      });
      expect(badRole.statusCode).toBe(400);
      expect(badRole.json().error).toMatch(/A Discord role id is its digits/);
      const badId = await call('PATCH', '/api/admin/notifications/destinations/abc', { name: 'x' });
      expect(badId.statusCode).toBe(400);
    });

    it('keeps a maximum age and what to do with older finds per destination: automatic by tier, checked naming the field', async () => {
      const premium = await create();
      expect(premium).toMatchObject({ maxAgeSeconds: null, maxAgeSecondsInEffect: 60, lateMode: 'drop' });
      const free = await create({ name: 'Free', delaySeconds: 300 });
      expect(free).toMatchObject({ maxAgeSeconds: null, maxAgeSecondsInEffect: 600 });
      const changed = await call('PATCH', `/api/admin/notifications/destinations/${premium.id}`, {
        maxAgeSeconds: 120,
        lateMode: 'mark',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().destination).toMatchObject({
        maxAgeSeconds: 120,
        maxAgeSecondsInEffect: 120,
        lateMode: 'mark',
      });
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ maxAgeSeconds: 5 }, /maxAgeSeconds: The maximum age is at least 10 seconds/],
        [{ maxAgeSeconds: 30.5 }, /maxAgeSeconds: The maximum age is whole seconds/],
        [{ maxAgeSeconds: '60' }, /maxAgeSeconds/],
        [{ lateMode: 'skip' }, /lateMode/],
        [
          { delaySeconds: 300, maxAgeSeconds: 200 },
          /maxAgeSeconds: The maximum age must be more than the delay/,
        ],
      ];
      for (const [over, message] of bad) {
        const res = await call('POST', '/api/admin/notifications/destinations', destination(over));
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(res.json().error).toMatch(message);
      }
      // Checked against what is stored: a maximum age under the stored delay.
      const under = await call('PATCH', `/api/admin/notifications/destinations/${free.id}`, {
        maxAgeSeconds: 100,
      });
      expect(under.statusCode).toBe(400);
      expect(under.json().error).toMatch(/maxAgeSeconds: The maximum age must be more than the delay/);
    });

    it('writes a delivery for each enabled destination a find matches, and none for the others', async () => {
      const low = await create({ name: 'Low', minValue: 1_000_000, maxValue: 10_000_000 });
      const garama = await create({
        name: 'Garama 10M+',
        minValue: 10_000_000,
        maxValue: null,
        petNames: ['garama and madundung'],
        delaySeconds: 30,
      });
      await create({ name: 'Off', minValue: 0, maxValue: null, enabled: false });

      const res = await reportFinds(t, [
        find('Tralalero', '$500K/s'), // under every range
        find('Tralalero', '$1M/s'), // Low (inclusive at the minimum)
        find('Garama and Madundung', '$12.5M/s'), // Garama's range and name
        find('La Vacca Saturno', '$50M/s'), // Garama's range, another pet
        find('Tralalero', '$10M/s'), // Low's maximum (inclusive); Garama's minimum, but another pet
      ]);
      expect(res.statusCode, res.body).toBe(200);

      const all = await deliveries();
      const summary = all
        .map((d) => `${d.destinationName}: ${d.petName} ${d.value} ${d.state} ${d.attempts}`)
        .sort();
      expect(summary).toEqual([
        'Garama 10M+: Garama and Madundung $12.5M/s pending 0',
        'Low: Tralalero $10M/s pending 0',
        'Low: Tralalero $1M/s pending 0',
      ]);
      const delayed = all.find((d) => d.destinationId === garama.id) as { foundAt: string; dueAt: string };
      expect(Date.parse(delayed.dueAt) - Date.parse(delayed.foundAt)).toBe(30_000);
      expect(delayed.foundAt).toBe(new Date(t.clock.now()).toISOString());

      // Filters: by destination, by state, and a limit (newest first).
      expect((await deliveries(`?destinationId=${low.id}`)).map((d) => d.value)).toEqual(['$10M/s', '$1M/s']);
      expect(await deliveries('?state=sent')).toEqual([]);
      expect((await deliveries('?state=pending&limit=1')).map((d) => d.value)).toEqual(['$10M/s']);
      const badState = await call('GET', '/api/admin/notifications/deliveries?state=lost');
      expect(badState.statusCode).toBe(400);
      const badLimit = await call('GET', '/api/admin/notifications/deliveries?limit=0');
      expect(badLimit.statusCode).toBe(400);

      // The counts on the destinations' list.
      const list = (await call('GET', '/api/admin/notifications/destinations')).json().destinations;
      expect(list.find((d: { id: number }) => d.id === low.id).stats).toMatchObject({ pending: 2, sent: 0 });

      // A destination switched off takes no more finds; switched on again, it does.
      await call('PATCH', `/api/admin/notifications/destinations/${low.id}`, { enabled: false });
      await reportFinds(t, [find('Tralalero', '$2M/s')]);
      expect(await deliveries(`?destinationId=${low.id}`)).toHaveLength(2);
      await call('PATCH', `/api/admin/notifications/destinations/${low.id}`, { enabled: true });
      await reportFinds(t, [find('Tralalero', '$3M/s')]);
      expect((await deliveries(`?destinationId=${low.id}`)).map((d) => d.value)).toEqual([
        '$3M/s',
        '$10M/s',
        '$1M/s',
      ]);
    });

    it('shows sent and failed counts, the last error and find-to-post times; retries a failed delivery', async () => {
      const dest = await create();
      await reportFinds(t, [find('A', '$2M/s'), find('B', '$3M/s'), find('C', '$4M/s'), find('D', '$5M/s')]);
      const [d, c, b, a] = (await deliveries()) as Array<{ id: number; foundAt: string }>;
      // Too old when it could be posted (after an outage): dropped, and counted.
      await t.ctx.db
        .updateTable('notification_outbox')
        .set({ state: 'dropped', last_error: 'Older than the maximum age (1 min) when it could be posted' })
        .where('id', '=', d?.id ?? 0)
        .execute();
      const foundAt = Date.parse(a?.foundAt ?? '');
      // What the dispatcher does: two posted (after 200 and 800 ms), one given up.
      await t.ctx.db
        .updateTable('notification_outbox')
        .set({ state: 'sent', attempts: 1, sent_at: foundAt + 200 })
        .where('id', '=', a?.id ?? 0)
        .execute();
      await t.ctx.db
        .updateTable('notification_outbox')
        .set({ state: 'sent', attempts: 1, sent_at: foundAt + 800 })
        .where('id', '=', b?.id ?? 0)
        .execute();
      await t.ctx.db
        .updateTable('notification_outbox')
        .set({ state: 'failed', attempts: 10, last_error: 'HTTP 502' })
        .where('id', '=', c?.id ?? 0)
        .execute();
      const listed = (await call('GET', '/api/admin/notifications/destinations')).json().destinations[0];
      expect(listed.stats).toEqual({
        sent: 2,
        pending: 0,
        failed: 1,
        dropped: 1,
        lastError: 'HTTP 502',
        p50Ms: 200,
        p99Ms: 800,
      });
      expect((await deliveries('?state=failed')).map((x) => x.id)).toEqual([c?.id]);
      expect((await deliveries('?state=dropped')).map((x) => x.id)).toEqual([d?.id]);

      t.clock.advance(60_000);
      const retried = await call('POST', `/api/admin/notifications/deliveries/${c?.id}/retry`);
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json().delivery).toMatchObject({
        id: c?.id,
        destinationId: dest.id,
        state: 'pending',
        attempts: 0,
        dueAt: new Date(t.clock.now()).toISOString(),
      });
      const again = await call('POST', `/api/admin/notifications/deliveries/${c?.id}/retry`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatch(/only a failed delivery can be retried/);
      const unknown = await call('POST', '/api/admin/notifications/deliveries/999999/retry');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Unknown delivery: 999999' });
    });

    it('stores a find and its deliveries in one transaction', async () => {
      await create({ minValue: 0, maxValue: null });
      // A write that fails for one find after its rows went in: neither the find nor its delivery may remain.
      t.ctx.services.fleet.alsoWriteWithDiscoveries(async (_trx, finds) => {
        if (finds.some((f) => f.name === 'Lost')) throw new Error('refused after the outbox row');
      });
      const refused = await reportFinds(t, [find('Lost', '$2M/s')]);
      expect(refused.statusCode).toBe(422);
      const kept = await reportFinds(t, [find('Kept', '$2M/s')]);
      expect(kept.statusCode, kept.body).toBe(200);
      const finds = await t.ctx.db.selectFrom('fleet_discoveries').select('name').execute();
      expect(finds.map((f) => f.name)).toEqual(['Kept']);
      expect((await deliveries()).map((d) => d.petName)).toEqual(['Kept']);
    });

    it('keeps a find whose delivery the database refuses', async () => {
      const dest = await create({ minValue: 0, maxValue: null });
      // Deleted behind this instance's back (as by another instance a moment ago): its row is refused.
      await t.ctx.db.deleteFrom('notification_destinations').where('id', '=', dest.id).execute();
      const res = await reportFinds(t, [find('Survivor', '$2M/s')]);
      expect(res.statusCode, res.body).toBe(200);
      const finds = await t.ctx.db.selectFrom('fleet_discoveries').select('name').execute();
      expect(finds.map((f) => f.name)).toEqual(['Survivor']);
      expect(await t.ctx.db.selectFrom('notification_outbox').selectAll().execute()).toEqual([]);
    });

    it('answers Send test for an unknown destination with 404', async () => {
      const res = await call('POST', '/api/admin/notifications/destinations/4242/test');
      expect(res.statusCode).toBe(404);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: notification settings`, () => {
    it('lets NOTIFY_ALLOW_HOSTS add hosts for Discord destinations', async () => {
      const t = await buildTestApp(dialect, { NOTIFY_ALLOW_HOSTS: 'Relay.example.com, other.example.com' });
      try {
        const cookie = await t.adminCookie();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/notifications/destinations',
          headers: { cookie },
          payload: destination({ url: `https://relay.example.com/api/webhooks/7/${TOKEN}` }),
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().destination.url).toBe('https://relay.example.com/api/webhooks/7/••••••');
      } finally {
        await t.close();
      }
    });

    it('lets NOTIFY_ALLOW_PRIVATE reach private addresses, over plain http too', async () => {
      const t = await buildTestApp(dialect, {
        NOTIFY_ALLOW_PRIVATE: 'true',
        NOTIFY_ALLOW_HOSTS: '127.0.0.1',
      });
      try {
        const cookie = await t.adminCookie();
        for (const url of [
          `http://127.0.0.1:9/api/webhooks/1/${TOKEN}`,
          'https://intranet.example.com/api/webhooks/2/x',
        ]) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/admin/notifications/destinations',
            headers: { cookie },
            payload: destination({ kind: url.includes('intranet') ? 'json' : 'discord', url }),
          });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
        }
      } finally {
        await t.close();
      }
    });

    it('posts finds and Send test to the destination through the dispatcher the app runs', async () => {
      let fake: FakeDiscord | undefined;
      const t = await buildTestApp(dialect, {
        NOTIFY_ALLOW_PRIVATE: 'true',
        NOTIFY_ALLOW_HOSTS: '127.0.0.1',
      });
      try {
        fake = await startFakeDiscord();
        const hook = fake.createWebhook();
        const cookie = await t.adminCookie();
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/admin/notifications/destinations',
          headers: { cookie },
          payload: destination({ url: hook.url, minValue: 0, maxValue: null }),
        });
        expect(created.statusCode, created.body).toBe(201);
        const { id } = created.json().destination;

        const test = await t.app.inject({
          method: 'POST',
          url: `/api/admin/notifications/destinations/${id}/test`,
          headers: { cookie },
        });
        expect(test.statusCode, test.body).toBe(200);
        expect(test.json()).toMatchObject({ ok: true });
        expect(fake.received).toHaveLength(1);

        await reportFinds(t, [find('Garama and Madundung', '$12.5M/s')]);
        const posted = fake;
        await vi.waitFor(() => expect(posted.received).toHaveLength(2), { timeout: 10_000 });
        expect(JSON.stringify(posted.received[1]?.body)).toContain('Garama and Madundung');
        await vi.waitFor(async () => {
          const res = await t.app.inject({
            method: 'GET',
            url: '/api/admin/notifications/deliveries?state=sent',
            headers: { cookie },
          });
          expect(res.json().deliveries).toHaveLength(1);
        });

        // A webhook deleted on Discord's side: Send test says so.
        fake.deleteWebhook(hook.id);
        const gone = await t.app.inject({
          method: 'POST',
          url: `/api/admin/notifications/destinations/${id}/test`,
          headers: { cookie },
        });
        expect(gone.json()).toMatchObject({ ok: false, status: 404 });
      } finally {
        await t.close();
        await fake?.close();
      }
    });

    it('never writes a webhook token to the log', async () => {
      const lines: string[] = [];
      const t = await buildTestApp(
        dialect,
        {},
        { app: { logger: { level: 'debug', stream: { write: (line: string) => lines.push(line) } } } },
      );
      try {
        const cookie = await t.adminCookie();
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/admin/notifications/destinations',
          headers: { cookie },
          payload: destination(),
        });
        expect(created.statusCode).toBe(201);
        const { id } = created.json().destination;
        await t.app.inject({
          method: 'PATCH',
          url: `/api/admin/notifications/destinations/${id}`,
          headers: { cookie },
          payload: { url: `https://discord.com/api/webhooks/654321/${TOKEN}-2` },
        });
        // A token in a URL, as in a query string or a path, and logged by hand.
        await t.app.inject({
          method: 'GET',
          url: `/api/admin/notifications/deliveries?next=${encodeURIComponent(WEBHOOK)}`,
          headers: { cookie },
        });
        await t.app.inject({ method: 'GET', url: `/api/webhooks/123456/${TOKEN}` });
        t.app.log.error({ body: destination() }, 'a failure quoting a request body');

        const log = lines.join('');
        expect(log).toContain('"req":{');
        expect(log).not.toContain(TOKEN);
        expect(log).toContain('/api/webhooks/123456/[redacted]');
      } finally {
        await t.close();
      }
    });
  });
}

describe('notification configuration', () => {
  it('reads the allowed hosts, private addresses and the join link template', () => {
    const config = loadConfig({
      NOTIFY_ALLOW_HOSTS: ' Relay.example.com,,fake-discord.test ',
      NOTIFY_ALLOW_PRIVATE: 'true',
      NOTIFY_JOIN_URL_TEMPLATE: 'https://example.com/join?placeId={placeId}&gameInstanceId={jobId}',
    });
    expect(config.NOTIFY_ALLOW_HOSTS).toEqual(['relay.example.com', 'fake-discord.test']);
    expect(config.NOTIFY_ALLOW_PRIVATE).toBe(true);
    expect(config.NOTIFY_JOIN_URL_TEMPLATE).toBe(
      'https://example.com/join?placeId={placeId}&gameInstanceId={jobId}',
    );
    const defaults = loadConfig({});
    expect(defaults.NOTIFY_ALLOW_HOSTS).toEqual([]);
    expect(defaults.NOTIFY_ALLOW_PRIVATE).toBe(false);
    expect(defaults.NOTIFY_JOIN_URL_TEMPLATE).toBeUndefined();
  });

  it('refuses a join link template that is not https', () => {
    expect(() =>
      loadConfig({ NOTIFY_JOIN_URL_TEMPLATE: 'http://example.com/join?placeId={placeId}' }),
    ).toThrow(
      /NOTIFY_JOIN_URL_TEMPLATE: http:\/\/example.com\/join\?placeId=\{placeId\} is not an https URL/,
    );
    expect(() => loadConfig({ NOTIFY_ALLOW_PRIVATE: 'yes' })).toThrow(/NOTIFY_ALLOW_PRIVATE/);
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
if (DIALECTS.includes('postgres') && REDIS_URL) {
  describe('postgres + redis: two instances', () => {
    it('writes deliveries on an instance for a destination another one created', async () => {
      const env = { REDIS_URL, NOTIFY_DISPATCH: 'false' };
      const first = await buildTestApp('postgres', env);
      const second = await buildTestApp('postgres', env, { joinSchemaOf: first });
      try {
        const cookie = await first.adminCookie();
        const created = await first.app.inject({
          method: 'POST',
          url: '/api/admin/notifications/destinations',
          headers: { cookie },
          payload: destination({ minValue: 0, maxValue: null }),
        });
        expect(created.statusCode, created.body).toBe(201);
        // The bus tells the second instance, which reloads its destinations.
        const probe: PetDiscovery = {
          id: 'probe',
          seq: 1,
          name: 'Probe',
          type: 'Secret',
          value: '$1M/s',
          numericValue: 1_000_000,
          count: 1,
          timestamp: new Date(0).toISOString(),
          placeid: '1',
          jobid: 'job-probe',
          scannerId: 'ghost-1',
          botId: 'ghost-1',
        };
        await vi.waitFor(() =>
          expect(second.ctx.services.notificationOutbox.rowsFor([probe])).toHaveLength(1),
        );
        const res = await reportFinds(second, [find('Garama and Madundung', '$12.5M/s')]);
        expect(res.statusCode, res.body).toBe(200);
        const rows = await first.ctx.db.selectFrom('notification_outbox').select('payload').execute();
        expect(rows.map((r) => JSON.parse(r.payload).name)).toEqual(['Garama and Madundung']);
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
