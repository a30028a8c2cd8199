import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  makeInteractionSigner,
  pingInteraction,
  postInteraction,
  slashCommand,
  startFollowupRecorder,
} from '../../test/fake-discord-interactions.ts';
import { insertScriptKeyBinding, insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

const signer = makeInteractionSigner();
const ADMIN_ROLE = '4400000000000000001';
const BUYER = '2200000000000000001';
const OTHER = '2200000000000000002';
const EPHEMERAL = 64;

let recorder: Awaited<ReturnType<typeof startFollowupRecorder>>;
beforeAll(async () => {
  recorder = await startFollowupRecorder();
});
afterAll(() => recorder.close());

for (const dialect of DIALECTS) {
  describe(`${dialect}: Discord interactions`, () => {
    const t = useTestApp(dialect, {
      signIn: true,
      listen: true,
      env: {
        DISCORD_PUBLIC_KEY: signer.publicKeyHex,
        DISCORD_APPLICATION_ID: signer.applicationId,
        DISCORD_ADMIN_ROLE_ID: ADMIN_ROLE,
        get DISCORD_API_URL() {
          return recorder.apiUrl;
        },
      },
    });
    let url = '';
    beforeEach(() => {
      url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    const nowS = () => Math.floor(t.clock.now() / 1000);
    const post = (body: unknown) => postInteraction(signer, url, body, nowS());
    const run = async (name: string, given: Parameters<typeof slashCommand>[2] = {}) => {
      const answer = await post(slashCommand(signer, name, given));
      expect(answer.status).toBe(200);
      return answer.json as { type: number; data: { content: string; flags?: number } };
    };
    const newCode = async (keyType = 'PREMIUM', validityDuration = 24) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/create-redemption-key',
        headers: { cookie: t.cookie },
        payload: { keyType, validityDuration, maxHardwareBindings: 1 },
      });
      expect(res.statusCode).toBe(201);
      return res.json().redemptionKey.redemptionCode as string;
    };
    const keysOf = (userId: string) =>
      t.ctx.db
        .selectFrom('discord_links')
        .innerJoin('script_keys', 'script_keys.id', 'discord_links.script_key_id')
        .select([
          'script_keys.id',
          'script_keys.script_key',
          'script_keys.is_active',
          'script_keys.expires_at',
        ])
        .where('discord_user_id', '=', userId)
        .execute();

    it('answers a signed PING with PONG', async () => {
      const answer = await post(pingInteraction(signer));
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ type: 1 });
    });

    it('refuses a wrong, missing or stale signature with 401', async () => {
      const body = JSON.stringify(pingInteraction(signer));
      const other = makeInteractionSigner();
      const wrong = await postInteraction(other, url, body, nowS());
      expect(wrong.status).toBe(401);
      expect(wrong.json.error).toBe('invalid request signature');
      const tampered = await postInteraction(signer, url, body, nowS(), (signed) => ({
        ...signed,
        'x-signature-timestamp': String(nowS() + 1),
      }));
      expect(tampered.status).toBe(401);
      const missing = await postInteraction(signer, url, body, nowS(), () => ({
        'content-type': 'application/json',
      }));
      expect(missing.status).toBe(401);
      expect(missing.json.error).toMatch(/X-Signature-Ed25519/);
      const stale = await postInteraction(signer, url, body, nowS() - 301);
      expect(stale.status).toBe(401);
      expect(stale.json.error).toMatch(/300 s/);
      const fresh = await postInteraction(signer, url, body, nowS() - 299);
      expect(fresh.status).toBe(200);
    });

    it('answers 400 naming what is wrong with a signed body that is not an interaction', async () => {
      const notJson = await post('{"type": 1');
      expect(notJson.status).toBe(400);
      expect(notJson.json.error).toMatch(/not JSON/);
      const noToken = await post({ id: '1', application_id: signer.applicationId, type: 1 });
      expect(noToken.status).toBe(400);
      expect(noToken.json.error).toMatch(/^token: /);
    });

    it('/redeem with a fresh code makes a key, links it to the user and shows it with the loader', async () => {
      const code = await newCode();
      const answer = await run('redeem', { options: [{ name: 'code', type: 3, value: code.toLowerCase() }] });
      expect(answer.type).toBe(4);
      expect(answer.data.flags).toBe(EPHEMERAL);
      const [linked] = await keysOf(BUYER);
      expect(linked).toBeDefined();
      expect(answer.data.content).toContain(linked?.script_key);
      expect(answer.data.content).toContain(`loadstring(game:HttpGet("${url}/api/script/loader?script=`);
      expect(answer.data.content).toContain('Devices 0/1');
      // The code is spent: a second /redeem by someone else finds the key taken.
      const again = await run('redeem', { userId: OTHER, options: [{ name: 'code', type: 3, value: code }] });
      expect(again.data.flags).toBe(EPHEMERAL);
      expect(again.data.content).toMatch(/linked to another Discord account/);
      expect(await keysOf(OTHER)).toEqual([]);
    });

    it('/redeem with a second code renews the running key rather than making another', async () => {
      await run('redeem', { options: [{ name: 'code', type: 3, value: await newCode('PREMIUM', 24) }] });
      const [before] = await keysOf(BUYER);
      const answer = await run('redeem', {
        options: [{ name: 'code', type: 3, value: await newCode('PREMIUM', 48) }],
      });
      expect(answer.data.content).toMatch(/^Added 48 hours to your key/);
      const after = await keysOf(BUYER);
      expect(after).toHaveLength(1);
      expect(Number(after[0]?.expires_at)).toBe(Number(before?.expires_at) + 48 * 3600_000);
    });

    it('/resethwid spends the budget the web reset spends', async () => {
      const key = await insertTestScriptKey(t, { expiresAt: t.clock.now() + 86_400_000 });
      await insertScriptKeyBinding(t, key.id, 'old-pc');
      await run('redeem', { options: [{ name: 'code', type: 3, value: key.scriptKey }] });
      const reset = await run('resethwid');
      expect(reset.data.flags).toBe(EPHEMERAL);
      expect(reset.data.content).toMatch(/^Removed 1 device .*Resets left: 0\./);
      const web = await t.injectBare({
        method: 'POST',
        url: '/api/script/reset-hwid',
        payload: { key: key.scriptKey },
      });
      expect(web.statusCode).toBe(429);
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .select('details')
        .where('event_type', '=', 'hwid_reset')
        .execute();
      expect(audit).toHaveLength(1);
      const rows = await t.ctx.db.selectFrom('hwid_resets').selectAll().execute();
      expect(rows.map((r) => r.reset_by)).toEqual(['buyer']);
      const none = await run('resethwid');
      expect(none.data.flags).toBe(EPHEMERAL);
      expect(none.data.content).toMatch(/^No device reset left: the next one is possible <t:\d+:R>\./);
    });

    it('/resethwid after the web reset finds no reset left', async () => {
      const key = await insertTestScriptKey(t, { expiresAt: t.clock.now() + 86_400_000 });
      await run('redeem', { options: [{ name: 'code', type: 3, value: key.scriptKey }] });
      const web = await t.injectBare({
        method: 'POST',
        url: '/api/script/reset-hwid',
        payload: { key: key.scriptKey },
      });
      expect(web.statusCode).toBe(200);
      const answer = await run('resethwid');
      expect(answer.data.content).toMatch(/^No device reset left/);
    });

    it('answers every failure ephemerally', async () => {
      const answers = [
        await run('key'),
        await run('resethwid'),
        await run('redeem', { options: [{ name: 'code', type: 3, value: 'SCANLINE-AAAA-BBBB-CCCC-DDDD' }] }),
        await run('frobnicate'),
        await run('whitelist', { options: [{ name: 'user', type: 6, value: OTHER }] }),
        await run('lookup', { guildId: null, options: [{ name: 'user', type: 6, value: OTHER }] }),
      ];
      for (const answer of answers) {
        expect(answer.type).toBe(4);
        expect(answer.data.flags).toBe(EPHEMERAL);
      }
      expect(answers.map((a) => a.data.content.split(/[.:]/)[0])).toEqual([
        'No key is linked to your Discord account',
        'No key is linked to your Discord account',
        'That is not a code, key or order link this server knows',
        '`/frobnicate` is not a command this server knows',
        'This command is for admins only (the admin role set in System Configuration → Discord)',
        'This command is for admins only (the admin role set in System Configuration → Discord)',
      ]);
      // An expired key resets nothing; a spent code says so.
      const expired = await insertTestScriptKey(t, { expiresAt: t.clock.now() + 1000 });
      await run('redeem', { options: [{ name: 'code', type: 3, value: expired.scriptKey }] });
      t.clock.advance(2000);
      const late = await run('resethwid');
      expect(late.data).toMatchObject({
        flags: EPHEMERAL,
        content: 'This key has expired; it cannot reset its devices',
      });
      const shown = await run('key');
      expect(shown.data.content).toContain('Expired, expired');
    });

    it('lets an admin whitelist, look up and unwhitelist a member', async () => {
      const admin = { userId: '2200000000000000009', roles: [ADMIN_ROLE] };
      const user = { name: 'user', type: 6, value: OTHER };
      const made = await run('whitelist', {
        ...admin,
        options: [user, { name: 'type', type: 3, value: 'VIP' }, { name: 'hours', type: 4, value: 72 }],
      });
      expect(made.data).toMatchObject({ flags: EPHEMERAL });
      expect(made.data.content).toMatch(/^Made a VIP key for <@2200000000000000002>/);
      const [key] = await keysOf(OTHER);
      expect(Number(key?.expires_at)).toBe(t.clock.now() + 72 * 3600_000);
      const mine = await run('key', { userId: OTHER });
      expect(mine.data.content).toContain(key?.script_key);
      const lookup = await run('lookup', { ...admin, options: [user] });
      expect(lookup.data.content).toMatch(
        /\*\*VIP\*\* `…\w{4}` on, .* devices 0\/1 · 0 addresses, 0 networks/,
      );
      const off = await run('unwhitelist', { ...admin, options: [user] });
      expect(off.data.content).toMatch(/^Switched off 1 of/);
      expect((await keysOf(OTHER))[0]?.is_active).toBe(0);
    });

    it('/status tells the channel the fleet in one line', async () => {
      const answer = await run('status');
      expect(answer).toEqual({
        type: 4,
        data: { content: 'Fleet: 0 bots online · 0 finds in the last hour', allowed_mentions: { parse: [] } },
      });
    });

    it('defers a slow command and sends its answer as the follow-up', async () => {
      t.ctx.services.discordDesk.deferAfterMs = 0;
      const command = slashCommand(signer, 'key');
      const answer = await post(command);
      expect(answer.json).toEqual({ type: 5, data: { flags: EPHEMERAL } });
      const followup = await recorder.next();
      expect(followup).toMatchObject({
        applicationId: signer.applicationId,
        token: command.token,
        body: { flags: EPHEMERAL, content: expect.stringMatching(/^No key is linked/) },
      });
    });
  });

  describe(`${dialect}: Discord settings`, () => {
    const t = useTestApp(dialect, { signIn: true, listen: true });

    it('answers 503 with Retry-After until a public key is set, then verifies with the stored key', async () => {
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const nowS = Math.floor(t.clock.now() / 1000);
      const before = await postInteraction(signer, url, pingInteraction(signer), nowS);
      expect(before.status).toBe(503);
      expect(before.headers.get('retry-after')).toBe('300');
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/discord/settings',
        headers: { cookie: t.cookie },
        payload: { publicKey: signer.publicKeyHex.toUpperCase(), botToken: 'MTE.bot-token-value-1234' },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().settings).toMatchObject({
        publicKey: signer.publicKeyHex,
        botToken: '••••1234',
        interactionsPath: '/api/discord/interactions',
        interactionsReady: true,
      });
      const after = await postInteraction(signer, url, pingInteraction(signer), nowS);
      expect(after.json).toEqual({ type: 1 });
    });

    it('refuses a malformed setting with 400 naming it', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/discord/settings',
        headers: { cookie: t.cookie },
        payload: { guildId: 'my-guild' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/guildId must be a Discord id/);
    });
  });
}
