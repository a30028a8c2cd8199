import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../common/public-defaults.ts';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';

const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const USDT = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
const HOUR_MS = 60 * 60 * 1000;
const DEFAULT_OFFER = { priceUsd: 40, validityHours: 24, maxDevices: 1 };

for (const dialect of DIALECTS) {
  describe(`${dialect}: public purchase info and scripts page`, () => {
    const t = useTestApp(dialect);

    const purchaseInfo = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' });
      expect(res.statusCode).toBe(200);
      return res.json();
    };

    it('offers 30 free slots and no wallets on a fresh install, without a session', async () => {
      expect(await purchaseInfo()).toEqual({
        slots: { available: 30, total: 30, utilizationPercentage: 0 },
        paymentWallets: {},
        offer: DEFAULT_OFFER,
        nextFreeAt: null,
        communityInviteUrl: null,
        fleet: { state: 'down' },
      });
    });

    it('shows the slots and wallets the admin saved, minus the slots premium keys hold', async () => {
      const cookie = await t.adminCookie();
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie },
        payload: { totalSlots: 8, paymentWallets: { btc: BTC, USDT } },
      });
      expect(put.statusCode).toBe(200);
      for (const keyType of ['PREMIUM', 'VIP', 'FREE']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/license-keys',
          headers: { cookie },
          payload: { keyType },
        });
        expect(res.statusCode).toBe(201);
      }
      expect(await purchaseInfo()).toEqual({
        slots: { available: 6, total: 8, utilizationPercentage: 25 },
        paymentWallets: { BTC, USDT },
        offer: DEFAULT_OFFER,
        nextFreeAt: null,
        communityInviteUrl: null,
        fleet: { state: 'down' },
      });
    });

    it('states the validity and device limit a payment delivers, from the delivery settings', async () => {
      const cookie = await t.adminCookie();
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/payments/settings',
        headers: { cookie },
        payload: { delivery: { keyType: 'VIP', validityHours: 72, maxHardwareBindings: 3 } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await purchaseInfo()).offer).toEqual({ priceUsd: 40, validityHours: 72, maxDevices: 3 });
    });

    it('never publishes a wallet saved before addresses were checked', async () => {
      await t.ctx.db
        .updateTable('system_configuration')
        .set({
          payment_wallets: JSON.stringify({
            BTC,
            ETH: 'hello world not an address',
            'DOGE🐶': 'D8vFz4p1L37jdg47HXKtSHA5uYLYxbGgPD',
            LTC: 'x'.repeat(256),
          }),
        })
        .execute();
      expect((await purchaseInfo()).paymentWallets).toEqual({ BTC });
    });

    it('with no free slot shows no wallet and says when the first held slot ends, then offers them again', async () => {
      const cookie = await t.adminCookie();
      const admin = (url: string, payload: object) =>
        t.app.inject({
          method: url.endsWith('configuration') ? 'PUT' : 'POST',
          url,
          headers: { cookie },
          payload,
        });
      expect(
        (await admin('/api/admin/system-configuration', { totalSlots: 2, paymentWallets: { BTC } }))
          .statusCode,
      ).toBe(200);
      const inTwoDays = new Date(t.clock.now() + 48 * HOUR_MS).toISOString();
      const inFiveHours = new Date(t.clock.now() + 5 * HOUR_MS).toISOString();
      expect(
        (await admin('/api/admin/license-keys', { keyType: 'PREMIUM', expiresAt: inTwoDays })).statusCode,
      ).toBe(201);
      expect(
        (await admin('/api/admin/license-keys', { keyType: 'VIP', expiresAt: inFiveHours })).statusCode,
      ).toBe(201);

      const full = await purchaseInfo();
      expect(full.slots).toEqual({ available: 0, total: 2, utilizationPercentage: 100 });
      expect(full.paymentWallets).toEqual({});
      expect(full.nextFreeAt).toBe(inFiveHours);

      t.clock.advance(5 * HOUR_MS);
      const freed = await purchaseInfo();
      expect(freed.slots.available).toBe(1);
      expect(freed.paymentWallets).toEqual({ BTC });
      expect(freed.nextFreeAt).toBeNull();
    });

    it('says "check back later" (no time) when every held slot is held for good', async () => {
      const cookie = await t.adminCookie();
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie },
        payload: { totalSlots: 1, paymentWallets: { BTC } },
      });
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie },
        payload: { keyType: 'PREMIUM' },
      });
      expect(await purchaseInfo()).toMatchObject({ paymentWallets: {}, nextFreeAt: null });
    });

    it('names the community invite link the admin saved', async () => {
      const cookie = await t.adminCookie();
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie },
        payload: { totalSlots: 5, paymentWallets: {}, communityInviteUrl: 'https://discord.gg/our-shop' },
      });
      expect((await purchaseInfo()).communityInviteUrl).toBe('https://discord.gg/our-shop');
    });

    it("tells visitors the network's state, the word only: down, live, stopped", async () => {
      const report = (ghostId: string) =>
        t.injectBare({
          method: 'POST',
          url: '/api/bot/events',
          headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
          payload: { ghostId, events: [{ type: 'scanner_status', payload: { status: 'scanning' } }] },
        });
      // No bot has reported yet: not LIVE.
      expect((await purchaseInfo()).fleet).toEqual({ state: 'down' });
      expect((await report('ghost-07')).statusCode).toBe(200);
      expect((await purchaseInfo()).fleet).toEqual({ state: 'live' });
      t.clock.advance(t.ctx.config.FLEET_INACTIVE_AFTER_MS + 1);
      expect((await purchaseInfo()).fleet).toEqual({ state: 'down' });
      expect((await report('ghost-07')).statusCode).toBe(200);
      const stop = await t.app.inject({
        method: 'POST',
        url: '/api/admin/configurations/emergency-stop',
        headers: { cookie: await t.adminCookie() },
        payload: { reason: 'Game update' },
      });
      expect(stop.statusCode, stop.body).toBe(200);
      // Who stopped it and why stay with the operator.
      expect((await purchaseInfo()).fleet).toEqual({ state: 'stopped' });
    });

    it('serves the default scripts page config on a fresh install, without a session', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/public/scripts-page-config' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ config: DEFAULT_SCRIPTS_PAGE_CONFIG });
    });

    it('serves the stored scripts page config', async () => {
      const { key: _key, ...content } = DEFAULT_SCRIPTS_PAGE_CONFIG;
      await t.ctx.db
        .updateTable('scripts_page_config')
        .set({ config: JSON.stringify({ ...content, headerTitle: 'Get the scanner' }) })
        .where('key', '=', 'default')
        .execute();
      const res = await t.app.inject({ method: 'GET', url: '/api/public/scripts-page-config' });
      expect(res.json().config).toMatchObject({ key: 'default', headerTitle: 'Get the scanner' });
    });
  });
}
