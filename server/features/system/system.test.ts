import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

const HOUR_MS = 60 * 60 * 1000;
// Real main-network addresses (the save checks each for its currency).
const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const ETH = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
const SOL = 'So11111111111111111111111111111111111111112';

for (const dialect of DIALECTS) {
  describe(`${dialect}: system configuration`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const getConfiguration = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/system-configuration', headers: { cookie: t.cookie } });
    const putConfiguration = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie: t.cookie },
        payload,
      });
    const getSlotUsage = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/admin/system-configuration/slot-usage',
        headers: { cookie: t.cookie },
      });
    const createKey = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { maxBindings: 1, ...payload },
      });
      expect(res.statusCode).toBe(201);
      return res.json().licenseKey as { id: number };
    };

    it('starts a fresh install with 30 slots and no wallets', async () => {
      const res = await getConfiguration();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        configuration: {
          totalSlots: 30,
          paymentWallets: {},
          hwidResetsPerWeek: 1,
          communityInviteUrl: null,
          walletProblems: {},
        },
      });
    });

    it('answers exactly the fields the screen reads (the response schemas strip the rest)', async () => {
      const configuration = (await getConfiguration()).json();
      expect(Object.keys(configuration)).toEqual(['configuration']);
      expect(Object.keys(configuration.configuration).sort()).toEqual([
        'communityInviteUrl',
        'hwidResetsPerWeek',
        'paymentWallets',
        'totalSlots',
        'walletProblems',
      ]);
      const usage = (await getSlotUsage()).json();
      expect(Object.keys(usage)).toEqual(['slotUsage']);
      expect(Object.keys(usage.slotUsage).sort()).toEqual([
        'availableSlots',
        'totalSlots',
        'usedSlots',
        'utilizationPercentage',
      ]);
    });

    it('keeps the saved configuration when the defaults are seeded again on the next start', async () => {
      await putConfiguration({ totalSlots: 12, paymentWallets: { BTC } });
      const { seedSystemConfiguration } = await import('./system.service.ts');
      await seedSystemConfiguration(t.ctx);
      expect((await getConfiguration()).json().configuration.totalSlots).toBe(12);
    });

    it('saves slots and wallets, upper-casing and trimming currencies', async () => {
      const res = await putConfiguration({
        totalSlots: 50,
        paymentWallets: { btc: ` ${BTC} `, Eth: ETH },
      });
      expect(res.statusCode).toBe(200);
      const expected = {
        totalSlots: 50,
        paymentWallets: { BTC, ETH },
        hwidResetsPerWeek: 1,
        communityInviteUrl: null,
        walletProblems: {},
      };
      expect(res.json()).toEqual({ configuration: expected });
      expect((await getConfiguration()).json()).toEqual({ configuration: expected });
    });

    it('lets the admin remove every wallet and close sales with 0 slots', async () => {
      await putConfiguration({ totalSlots: 5, paymentWallets: { SOL } });
      const res = await putConfiguration({ totalSlots: 0, paymentWallets: {} });
      expect(res.statusCode).toBe(200);
      expect(res.json().configuration).toMatchObject({
        totalSlots: 0,
        paymentWallets: {},
        hwidResetsPerWeek: 1,
      });
      expect((await getSlotUsage()).json().slotUsage).toEqual({
        usedSlots: 0,
        availableSlots: 0,
        totalSlots: 0,
        utilizationPercentage: 100,
      });
    });

    it('tells admin dashboards that the configuration changed', async () => {
      const messages: unknown[] = [];
      t.ctx.bus.subscribe('admin', (m) => messages.push(m));
      await putConfiguration({ totalSlots: 40, paymentWallets: {} });
      expect(messages).toEqual([
        { type: 'system_config_update', payload: { message: 'Configuration has been updated' } },
      ]);
    });

    it('names the saving tab (its X-Server-Id) in the notice, so that tab shows no second toast', async () => {
      const messages: unknown[] = [];
      t.ctx.bus.subscribe('admin', (m) => messages.push(m));
      const save = (id: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/admin/system-configuration',
          headers: { cookie: t.cookie, 'x-server-id': id },
          payload: { totalSlots: 40, paymentWallets: {} },
        });
      expect((await save('web-0123456789ab')).statusCode).toBe(200);
      expect((await save('<script>')).statusCode).toBe(200);
      expect(messages).toEqual([
        {
          type: 'system_config_update',
          payload: { message: 'Configuration has been updated', from: 'web-0123456789ab' },
        },
        { type: 'system_config_update', payload: { message: 'Configuration has been updated' } },
      ]);
    });

    it('refuses an address that is not one of its currency, naming the currency and why, and saves nothing', async () => {
      await putConfiguration({ totalSlots: 10, paymentWallets: { ETH } });
      const res = await putConfiguration({
        totalSlots: 20,
        paymentWallets: { BTC: 'hello world not an address', ETH, SOL: 'x'.repeat(256), LTC: ETH },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error:
          'BTC: this is not a Bitcoin address; SOL: this is not a Solana address; LTC: this is not a LiteCoin address',
        walletProblems: {
          BTC: 'BTC: this is not a Bitcoin address',
          SOL: 'SOL: this is not a Solana address',
          LTC: 'LTC: this is not a LiteCoin address',
        },
      });
      expect((await getConfiguration()).json().configuration).toMatchObject({
        totalSlots: 10,
        paymentWallets: { ETH },
      });
    });

    it('refuses a currency code with symbols or emoji, and one whose addresses cannot be checked', async () => {
      const emoji = await putConfiguration({ totalSlots: 10, paymentWallets: { 'DOGE🐶': BTC } });
      expect(emoji.statusCode).toBe(400);
      expect(emoji.json().walletProblems).toEqual({
        'DOGE🐶': 'DOGE🐶: a currency code is 2 to 10 capital letters or digits, such as BTC',
      });
      const unknown = await putConfiguration({ totalSlots: 10, paymentWallets: { XYZ: BTC, Bitcoin: BTC } });
      expect(unknown.statusCode).toBe(400);
      expect(Object.values(unknown.json().walletProblems)).toEqual([
        'XYZ: not a currency whose addresses can be checked (use its ticker, such as BTC, ETH or SOL)',
        'BITCOIN: not a currency whose addresses can be checked (use its ticker, such as BTC, ETH or SOL)',
      ]);
    });

    it('keeps a bad wallet saved before the check so slots can still be saved, and flags it', async () => {
      await t.ctx.db
        .updateTable('system_configuration')
        .set({ payment_wallets: JSON.stringify({ 'DOGE🐶': 'hello world not an address', BTC }) })
        .execute();
      const flagged = {
        'DOGE🐶': 'DOGE🐶: a currency code is 2 to 10 capital letters or digits, such as BTC',
      };
      expect((await getConfiguration()).json().configuration.walletProblems).toEqual(flagged);
      const kept = await putConfiguration({
        totalSlots: 3,
        paymentWallets: { 'DOGE🐶': 'hello world not an address', BTC },
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().configuration).toMatchObject({ totalSlots: 3, walletProblems: flagged });
      // Changing it is a new address: checked.
      const changed = await putConfiguration({
        totalSlots: 3,
        paymentWallets: { 'DOGE🐶': 'still not', BTC },
      });
      expect(changed.statusCode).toBe(400);
    });

    it('saves the community invite link, keeps it when absent, clears it with null', async () => {
      const link = 'https://discord.gg/our-shop';
      const saved = await putConfiguration({ totalSlots: 10, paymentWallets: {}, communityInviteUrl: link });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().configuration.communityInviteUrl).toBe(link);
      const kept = await putConfiguration({ totalSlots: 11, paymentWallets: {} });
      expect(kept.json().configuration.communityInviteUrl).toBe(link);
      const cleared = await putConfiguration({
        totalSlots: 11,
        paymentWallets: {},
        communityInviteUrl: null,
      });
      expect(cleared.json().configuration.communityInviteUrl).toBeNull();
    });

    it('refuses an invite link that is not https, naming the field', async () => {
      for (const communityInviteUrl of ['http://discord.gg/x', 'javascript:alert(1)', 'discord', 42]) {
        const res = await putConfiguration({ totalSlots: 10, paymentWallets: {}, communityInviteUrl });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('communityInviteUrl');
      }
    });

    it('refuses negative total slots with the spec text', async () => {
      const res = await putConfiguration({ totalSlots: -1, paymentWallets: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('Total slots must be 0 or greater');
      expect(res.json().error).toContain('totalSlots');
      expect((await getConfiguration()).json().configuration.totalSlots).toBe(30);
    });

    it('refuses fractional or non-numeric total slots', async () => {
      const fraction = await putConfiguration({ totalSlots: 2.5, paymentWallets: {} });
      expect(fraction.statusCode).toBe(400);
      expect(fraction.json().error).toContain('totalSlots');
      const text = await putConfiguration({ totalSlots: 'ten', paymentWallets: {} });
      expect(text.statusCode).toBe(400);
      expect(text.json().error).toContain('totalSlots must be a number');
    });

    it('refuses an empty wallet address with the spec text and writes nothing', async () => {
      const res = await putConfiguration({ totalSlots: 10, paymentWallets: { BTC: 'bc1q', ETH: '   ' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('Wallet address cannot be empty');
      expect(res.json().error).toContain('paymentWallets');
      expect((await getConfiguration()).json().configuration).toMatchObject({
        totalSlots: 30,
        paymentWallets: {},
      });
    });

    it('refuses a body without paymentWallets, naming the field', async () => {
      const res = await putConfiguration({ totalSlots: 10 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('paymentWallets');
    });

    it('refuses a body that is not JSON', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie: t.cookie, 'content-type': 'application/json' },
        payload: '{"totalSlots": 5,',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/JSON/);
    });

    it('counts only active, unexpired PREMIUM and VIP keys as used slots', async () => {
      await putConfiguration({ totalSlots: 4, paymentWallets: {} });
      await createKey({ keyType: 'PREMIUM' });
      await createKey({ keyType: 'VIP' });
      await createKey({ keyType: 'FREE' });
      await createKey({ keyType: 'PREMIUM', expiresAt: new Date(t.clock.now() + HOUR_MS).toISOString() });
      const revoked = await createKey({ keyType: 'VIP' });
      await t.app.inject({
        method: 'POST',
        url: `/api/admin/license-keys/${revoked.id}/revoke`,
        headers: { cookie: t.cookie },
      });

      // Before expiry: PREMIUM, VIP and the PREMIUM that expires in an hour hold slots.
      expect((await getSlotUsage()).json()).toEqual({
        slotUsage: { usedSlots: 3, availableSlots: 1, totalSlots: 4, utilizationPercentage: 75 },
      });

      t.clock.advance(HOUR_MS);
      expect((await getSlotUsage()).json().slotUsage).toEqual({
        usedSlots: 2,
        availableSlots: 2,
        totalSlots: 4,
        utilizationPercentage: 50,
      });
    });

    it('counts switched-on, unexpired PREMIUM, VIP and premium_24h script keys as used slots too', async () => {
      await putConfiguration({ totalSlots: 10, paymentWallets: {} });
      await createKey({ keyType: 'VIP' });
      const createScriptKey = async (payload: Record<string, unknown>) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/script-keys/create',
          headers: { cookie: t.cookie },
          payload,
        });
        expect(res.statusCode).toBe(201);
        return res.json().scriptKey as { id: number };
      };
      await createScriptKey({ scriptType: 'PREMIUM' });
      await createScriptKey({ scriptType: 'VIP' });
      await createScriptKey({ scriptType: 'premium_24h' }); // expires in 24 hours
      await createScriptKey({ scriptType: 'FREE' });
      await createScriptKey({ scriptType: 'PREMIUM', isActive: 0 });
      const toggled = await createScriptKey({ scriptType: 'VIP' });

      // The VIP license key, then PREMIUM, VIP, premium_24h and the VIP about to be switched off.
      expect((await getSlotUsage()).json().slotUsage).toMatchObject({ usedSlots: 5, availableSlots: 5 });

      await t.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/toggle-status',
        headers: { cookie: t.cookie },
        payload: { keyId: toggled.id },
      });
      expect((await getSlotUsage()).json().slotUsage).toMatchObject({ usedSlots: 4, availableSlots: 6 });

      t.clock.advance(24 * HOUR_MS);
      t.cookie = await t.adminCookie(); // the session lasted 24 hours too
      expect((await getSlotUsage()).json().slotUsage).toEqual({
        usedSlots: 3,
        availableSlots: 7,
        totalSlots: 10,
        utilizationPercentage: 30,
      });
    });

    it('never reports fewer than 0 available slots when capacity drops below use', async () => {
      await createKey({ keyType: 'PREMIUM' });
      await createKey({ keyType: 'PREMIUM' });
      await putConfiguration({ totalSlots: 1, paymentWallets: {} });
      expect((await getSlotUsage()).json().slotUsage).toEqual({
        usedSlots: 2,
        availableSlots: 0,
        totalSlots: 1,
        utilizationPercentage: 100,
      });
    });
  });
}
