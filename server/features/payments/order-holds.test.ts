import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_TEXTS } from '../../../common/order-texts.ts';
import { type FakeBtcpay, startFakeBtcpay } from '../../test/fake-btcpay.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';

/*
 * Slots are held by buyers, not by strangers (issue 34, finding 1): an unpaid order holds a slot
 * briefly until its checkout is opened, one address (an IPv6 /64) holds one pending order at a time,
 * and pending orders together hold at most PENDING_ORDERS_MAX_SHARE of the unsold slots.
 */

const MINUTE = 60_000;

/** An app connected to a fake BTCPay Server on the app's clock, with `env` added (set up per describe). */
function useConnectedApp(dialect: (typeof DIALECTS)[number], env: Record<string, string> = {}) {
  const suite = { env: { ...env } } as { env: Record<string, string>; fake: FakeBtcpay; t: TestAppSuite };
  beforeAll(async () => {
    suite.fake = await startFakeBtcpay({ now: () => suite.t.clock.now() });
    Object.assign(suite.env, {
      BTCPAY_URL: suite.fake.origin,
      BTCPAY_STORE_ID: suite.fake.storeId,
      BTCPAY_API_KEY: suite.fake.apiKey,
      BTCPAY_WEBHOOK_SECRET: suite.fake.webhookSecret,
    });
  });
  afterAll(async () => {
    await suite.fake.close();
  });
  suite.t = useTestApp(dialect, { env: suite.env });
  return suite;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: order holds`, () => {
    const suite = useConnectedApp(dialect);
    const { t } = suite;

    const placeOrder = (remoteAddress: string, cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/orders',
        remoteAddress,
        ...(cookie ? { headers: { cookie } } : {}),
      });
    const purchaseInfo = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' })).json();
    const setTotalSlots = (total: number) =>
      t.ctx.db.updateTable('system_configuration').set({ total_slots: total }).execute();
    const openCheckout = (checkoutLink: string) =>
      t.app.inject({ method: 'GET', url: new URL(checkoutLink).pathname });

    it('leaves an eighth buyer able to order after 7 addresses each placed 6 orders', async () => {
      await setTotalSlots(24);
      const flood = await Promise.all(
        Array.from({ length: 7 }, async (_, a) => {
          const answers = [];
          for (let i = 0; i < 6; i++) answers.push((await placeOrder(`198.51.100.${a + 1}`)).statusCode);
          return answers;
        }),
      );
      // Each address got one order; the rest were refused (409 naming its pending order, then 429).
      for (const answers of flood) {
        expect(answers[0]).toBe(201);
        expect(answers.filter((s) => s === 201)).toHaveLength(1);
      }
      const buyer = await placeOrder('203.0.113.8');
      expect(buyer.statusCode, buyer.body).toBe(201);
      expect((await purchaseInfo()).slots.available).toBe(16);
    });

    it('holds one pending order per address and per IPv6 /64, and hands it back to its own browser', async () => {
      const first = await placeOrder('203.0.113.5');
      expect(first.statusCode).toBe(201);
      const { orderId, checkoutLink } = first.json();
      const order = await t.ctx.db
        .selectFrom('orders')
        .select('expires_at')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();

      const again = await placeOrder('203.0.113.5');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error: expect.stringContaining('An order from your address is already waiting for payment'),
        reason: 'order_pending',
        freeAgainAt: new Date(Number(order.expires_at)).toISOString(),
      });
      expect(JSON.stringify(again.json())).not.toContain(orderId);
      // The same address written as IPv4-mapped IPv6 is the same address.
      expect((await placeOrder('::ffff:203.0.113.5')).statusCode).toBe(409);

      // The browser that placed it gets it back (its cookie), not a second slot.
      const cookie = first.headers['set-cookie'];
      expect(cookie).toBeTruthy();
      const mine = await placeOrder('203.0.113.5', String(cookie).split(';')[0]);
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toEqual({ orderId, checkoutLink });

      expect((await placeOrder('2001:db8:1:2::10')).statusCode).toBe(201);
      expect((await placeOrder('2001:db8:1:2:ffff:ffff:ffff:1')).statusCode).toBe(409);
      expect((await placeOrder('2001:db8:1:3::10')).statusCode).toBe(201);
      expect(await t.ctx.db.selectFrom('orders').select('id').execute()).toHaveLength(3);
    });

    it('holds a slot a few minutes until the checkout is opened, then for the invoice’s life', async () => {
      const before = (await purchaseInfo()).slots.available;
      const abandoned = (await placeOrder('203.0.113.1')).json();
      const opened = (await placeOrder('203.0.113.2')).json();
      expect((await purchaseInfo()).slots.available).toBe(before - 2);

      // Opening the checkout goes through the app, which then sends the buyer on to BTCPay.
      const invoice = suite.fake.invoiceOfOrder(opened.orderId);
      const redirect = await openCheckout(opened.checkoutLink);
      expect(redirect.statusCode).toBe(303);
      expect(redirect.headers.location).toBe(`${suite.fake.origin}/i/${invoice?.id}`);

      t.clock.advance(4 * MINUTE);
      // The order never taken to its checkout gave its slot back; the opened one still holds.
      expect((await purchaseInfo()).slots.available).toBe(before - 1);
      const late = await openCheckout(abandoned.checkoutLink);
      expect(late.statusCode).toBe(303);
      expect(late.headers.location).toBe('/buyer');
      // Its address may order again.
      expect((await placeOrder('203.0.113.1')).statusCode).toBe(201);

      t.clock.advance(10 * MINUTE);
      expect((await purchaseInfo()).slots.available).toBe(before - 1);
      t.clock.advance(2 * MINUTE);
      expect((await purchaseInfo()).slots.available).toBe(before);
    });

    it('lets pending orders hold at most half of the unsold slots, so the rest stay for sale', async () => {
      await setTotalSlots(4);
      const answers = [];
      for (let a = 1; a <= 6; a++) answers.push((await placeOrder(`198.51.100.${a}`)).statusCode);
      expect(answers).toEqual([201, 201, 201, 201, 201, 201]);
      const info = await purchaseInfo();
      expect(info.slots).toEqual({ available: 2, total: 4, utilizationPercentage: 50 });
      expect(info.reserved).toEqual({ slots: 2, freeAgainAt: expect.any(String) });
    });

    it('says the last slot is reserved by a pending payment, and when it frees; Sold Out only when sold', async () => {
      const used = (await purchaseInfo()).slots;
      await setTotalSlots(used.total - used.available + 1);
      expect((await placeOrder('198.51.100.1')).statusCode).toBe(201);
      const freeAgainAt = new Date(t.clock.now() + 3 * MINUTE).toISOString();

      const held = await placeOrder('198.51.100.2');
      expect(held.statusCode).toBe(409);
      expect(held.json()).toEqual({
        error: '1 slot reserved by pending payments, free again by 12:03 UTC',
        reason: 'slots_reserved',
        reservedSlots: 1,
        freeAgainAt,
      });
      const info = await purchaseInfo();
      expect(info.slots.available).toBe(0);
      expect(info.reserved).toEqual({ slots: 1, freeAgainAt });

      t.clock.advance(3 * MINUTE);
      expect((await purchaseInfo()).reserved).toBeUndefined();
      expect((await placeOrder('198.51.100.2')).statusCode).toBe(201);

      // Sold for real (a premium key takes the slot): the spec's Sold Out.
      t.clock.advance(3 * MINUTE);
      const key = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: await t.adminCookie() },
        payload: { keyType: 'PREMIUM' },
      });
      expect(key.statusCode).toBe(201);
      const soldOut = await placeOrder('198.51.100.3');
      expect(soldOut.statusCode).toBe(409);
      expect(soldOut.json()).toEqual({ error: ORDER_TEXTS.soldOut });
      expect((await purchaseInfo()).reserved).toBeUndefined();
    });

    it('answers 404 for the checkout of an unknown order', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/public/orders/${'A'.repeat(16)}/checkout` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: ORDER_TEXTS.notFound });
    });
  });

  describe(`${dialect}: order holds with every free slot holdable`, () => {
    const { t } = useConnectedApp(dialect, { PENDING_ORDERS_MAX_SHARE: '100', ORDER_HOLD_MINUTES: '10' });

    it('refuses the order past the share with the reserved slots and when they free', async () => {
      await t.ctx.db.updateTable('system_configuration').set({ total_slots: 2 }).execute();
      const order = (ip: string) =>
        t.app.inject({ method: 'POST', url: '/api/public/orders', remoteAddress: ip });
      expect((await order('198.51.100.1')).statusCode).toBe(201);
      t.clock.advance(MINUTE);
      expect((await order('198.51.100.2')).statusCode).toBe(201);
      const third = await order('198.51.100.3');
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({
        error: '2 slots reserved by pending payments, free again by 12:10 UTC',
        reservedSlots: 2,
      });
    });
  });
}
