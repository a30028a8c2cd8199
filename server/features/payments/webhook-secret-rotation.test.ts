import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_PATH } from '../../../common/order-texts.ts';
import { loadConfig } from '../../config.ts';
import type { DialectName } from '../../db/index.ts';
import { type FakeBtcpay, startFakeBtcpay } from '../../test/fake-btcpay.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';

/*
 * Rotating the BTCPay webhook secret (issue 35, finding 8): BTCPay retries only 5xx, 408, 429 and
 * network errors, so a delivery refused with 401 while BTCPay still signs with the old secret is lost.
 * For BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES after a change the previous secret verifies too.
 */

const MINUTE = 60_000;
const GRACE_MINUTES = 90;
const NEW_SECRET = 'whsec-new-0123456789abcdefNEW1';
const NEWEST_SECRET = 'whsec-newest-0123456789abcdefNEWEST';

/** An app with an admin signed in, beside a fake BTCPay Server; `envOf` makes the app's environment. */
function useShopOnFakeBtcpay(dialect: DialectName, envOf: (fake: FakeBtcpay) => Record<string, string>) {
  const shop = {} as { fake: FakeBtcpay };
  const env: Record<string, string> = {};
  beforeAll(async () => {
    shop.fake = await startFakeBtcpay({ now: () => t.clock.now() });
    Object.assign(env, envOf(shop.fake));
  });
  afterAll(async () => {
    await shop.fake.close();
  });
  const t: TestAppSuite = useTestApp(dialect, { env, signIn: true });
  return { t, shop };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhook secret rotation`, () => {
    // The secret is the console's (the one thing that rotates here); the rest from the environment.
    const { t, shop } = useShopOnFakeBtcpay(dialect, (fake) => ({
      RATE_LIMIT_ORDER: '100',
      BTCPAY_URL: fake.origin,
      BTCPAY_STORE_ID: fake.storeId,
      BTCPAY_API_KEY: fake.apiKey,
    }));

    const settings = (payload?: Record<string, unknown>) =>
      t.app.inject({
        method: payload ? 'PUT' : 'GET',
        url: '/api/admin/payments/settings',
        headers: { cookie: t.cookie },
        ...(payload ? { payload } : {}),
      });
    /** Saves `secret` as the webhook secret, as the operator does on the Payment Processor tab. */
    const saveSecret = async (secret: string | null) => {
      const res = await settings({ webhookSecret: secret });
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };

    let buyers = 0;
    /** A settled order whose checkout the buyer opened; its invoice id and order id. */
    async function settledOrder() {
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/public/orders',
        remoteAddress: `198.51.100.${++buyers}`,
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const { orderId } = placed.json();
      const invoice = shop.fake.invoiceOfOrder(orderId);
      if (!invoice) throw new Error('no invoice');
      await shop.fake.settle(invoice.id, { webhook: false });
      return { orderId: orderId as string, invoiceId: invoice.id };
    }
    /** BTCPay's InvoiceSettled delivery, signed with `secret` (BTCPay signs with what it holds). */
    const deliverSignedWith = (secret: string, invoiceId: string) => {
      const { body, headers } = shop.fake.webhookRequest(invoiceId, 'InvoiceSettled');
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      return t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: { ...headers, 'btcpay-sig': `sha256=${signature}` },
        payload: body,
      });
    };
    const deliverBadlySigned = (invoiceId: string) => {
      const { body, headers } = shop.fake.webhookRequest(invoiceId, 'InvoiceSettled', { badSignature: true });
      return t.injectBare({ method: 'POST', url: BTCPAY_WEBHOOK_PATH, headers, payload: body });
    };
    const orderStatus = async (orderId: string) =>
      (
        await t.ctx.db
          .selectFrom('orders')
          .select('status')
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow()
      ).status;

    it('settles an order from a delivery signed with the previous secret right after a rotation, and says so', async () => {
      const old = shop.fake.webhookSecret;
      await saveSecret(old);
      const rotatedAt = t.clock.now();
      const rotated = await saveSecret(NEW_SECRET);

      t.clock.advance(5 * MINUTE);
      const { orderId, invoiceId } = await settledOrder();
      const res = await deliverSignedWith(old, invoiceId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ outcome: 'paid', orderId });
      expect(await orderStatus(orderId)).toBe('paid');

      expect(rotated.body).not.toContain(old);
      expect(rotated.json().settings.webhookSecret).toBe(`••••${NEW_SECRET.slice(-4)}`);
      expect(rotated.json().settings.previousWebhookSecret).toEqual({
        secret: `••••${old.slice(-4)}`,
        fromEnvironment: false,
        expiresAt: new Date(rotatedAt + GRACE_MINUTES * MINUTE).toISOString(),
        lastUsedAt: null,
      });

      // The operator sees the old secret still in use, and when it stops verifying.
      const read = await settings();
      expect(read.body).not.toContain(old);
      expect(read.json().settings.previousWebhookSecret).toMatchObject({
        lastUsedAt: new Date(rotatedAt + 5 * MINUTE).toISOString(),
      });

      // The new secret verifies as well.
      const second = await settledOrder();
      const withNew = await deliverSignedWith(NEW_SECRET, second.invoiceId);
      expect(withNew.statusCode, withNew.body).toBe(200);
      expect(await orderStatus(second.orderId)).toBe('paid');
    });

    it('refuses the previous secret once the grace is over; the new one still verifies', async () => {
      const old = shop.fake.webhookSecret;
      await saveSecret(old);
      await saveSecret(NEW_SECRET);
      t.clock.advance(GRACE_MINUTES * MINUTE + 1);

      const { orderId, invoiceId } = await settledOrder();
      const refused = await deliverSignedWith(old, invoiceId);
      expect(refused.statusCode).toBe(401);
      expect(await orderStatus(orderId)).toBe('pending');
      expect((await settings()).json().settings.previousWebhookSecret).toBeUndefined();

      const accepted = await deliverSignedWith(NEW_SECRET, invoiceId);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await orderStatus(orderId)).toBe('paid');
    });

    it('refuses a bad signature before, during and after the grace', async () => {
      await saveSecret(shop.fake.webhookSecret);
      const { orderId, invoiceId } = await settledOrder();
      expect((await deliverBadlySigned(invoiceId)).statusCode).toBe(401);
      await saveSecret(NEW_SECRET);
      expect((await deliverBadlySigned(invoiceId)).statusCode).toBe(401);
      expect((await deliverSignedWith('never-saved-secret-123', invoiceId)).statusCode).toBe(401);
      t.clock.advance(GRACE_MINUTES * MINUTE + 1);
      expect((await deliverBadlySigned(invoiceId)).statusCode).toBe(401);
      expect(await orderStatus(orderId)).toBe('pending');
    });

    it('keeps only the one secret before the current: a second rotation drops the oldest', async () => {
      const oldest = shop.fake.webhookSecret;
      await saveSecret(oldest);
      await saveSecret(NEW_SECRET);
      t.clock.advance(10 * MINUTE);
      const again = await saveSecret(NEWEST_SECRET);

      const { orderId, invoiceId } = await settledOrder();
      expect((await deliverSignedWith(oldest, invoiceId)).statusCode).toBe(401);
      expect(await orderStatus(orderId)).toBe('pending');
      expect((await deliverSignedWith(NEW_SECRET, invoiceId)).statusCode).toBe(200);
      expect(await orderStatus(orderId)).toBe('paid');
      expect(again.json().settings.previousWebhookSecret).toMatchObject({
        secret: `••••${NEW_SECRET.slice(-4)}`,
        expiresAt: new Date(t.clock.now() + GRACE_MINUTES * MINUTE).toISOString(),
      });
    });

    it('saving the same secret again starts no rotation, and clearing it drops the previous one too', async () => {
      await saveSecret(shop.fake.webhookSecret);
      const same = await saveSecret(shop.fake.webhookSecret);
      expect(same.json().settings.previousWebhookSecret).toBeUndefined();

      await saveSecret(NEW_SECRET);
      const cleared = await saveSecret(null);
      expect(cleared.json().settings.previousWebhookSecret).toBeUndefined();
      await saveSecret(NEWEST_SECRET);
      const { invoiceId } = await settledOrder();
      expect((await deliverSignedWith(NEW_SECRET, invoiceId)).statusCode).toBe(401);
    });
  });

  describe(`${dialect}: webhook secret rotation in the environment`, () => {
    const { t, shop } = useShopOnFakeBtcpay(dialect, (fake) => ({
      BTCPAY_URL: fake.origin,
      BTCPAY_STORE_ID: fake.storeId,
      BTCPAY_API_KEY: fake.apiKey,
      BTCPAY_WEBHOOK_SECRET: NEW_SECRET,
      BTCPAY_WEBHOOK_SECRET_PREVIOUS: fake.webhookSecret,
    }));

    it('verifies BTCPAY_WEBHOOK_SECRET_PREVIOUS while it is set, and shows it masked', async () => {
      const placed = await t.app.inject({ method: 'POST', url: '/api/public/orders' });
      expect(placed.statusCode, placed.body).toBe(201);
      const invoiceId = shop.fake.invoiceOfOrder(placed.json().orderId)?.id ?? '';
      await shop.fake.settle(invoiceId, { webhook: false });
      // The fake signs with its own secret: the previous one here, with no end to it while it is set.
      t.clock.advance(12 * 60 * MINUTE);
      const request = shop.fake.webhookRequest(invoiceId, 'InvoiceSettled');
      const res = await t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: request.headers,
        payload: request.body,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ outcome: 'paid' });

      const read = await t.app.inject({
        method: 'GET',
        url: '/api/admin/payments/settings',
        headers: { cookie: t.cookie },
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.body).not.toContain(shop.fake.webhookSecret);
      expect(read.json().settings.previousWebhookSecret).toEqual({
        secret: `••••${shop.fake.webhookSecret.slice(-4)}`,
        fromEnvironment: true,
        expiresAt: null,
        lastUsedAt: new Date(t.clock.now()).toISOString(),
      });
    });
  });
}

describe('webhook secret rotation settings', () => {
  it('defaults the grace to 90 minutes and refuses what is not a whole number of minutes', () => {
    expect(loadConfig({}).BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES).toBe(90);
    expect(loadConfig({ BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES: '0' }).BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES).toBe(
      0,
    );
    expect(() => loadConfig({ BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES: 'soon' })).toThrow(
      /BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES/,
    );
    expect(() => loadConfig({ BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES: '-5' })).toThrow(
      /BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES/,
    );
  });

  it('refuses a previous secret in the environment without the current one there', () => {
    expect(() => loadConfig({ BTCPAY_WEBHOOK_SECRET_PREVIOUS: 'old-secret' })).toThrow(
      /BTCPAY_WEBHOOK_SECRET_PREVIOUS.*BTCPAY_WEBHOOK_SECRET/,
    );
  });
});
