import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../common/public-defaults.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

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
      });
    });

    it('shows the slots and wallets the admin saved, minus the slots premium keys hold', async () => {
      const cookie = await t.adminCookie();
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie },
        payload: { totalSlots: 8, paymentWallets: { btc: 'bc1qexampleaddress', USDT: 'TXexampleaddress' } },
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
        paymentWallets: { BTC: 'bc1qexampleaddress', USDT: 'TXexampleaddress' },
      });
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
