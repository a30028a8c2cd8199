import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BTCPAY_WEBHOOK_PATH, ORDER_ID_PATTERN, ORDER_TEXTS } from '../../../common/order-texts.ts';
import { type FakeBtcpay, type FakeWebhookType, startFakeBtcpay } from '../../test/fake-btcpay.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { RECONCILER_LEASE, reconcileOrders } from './payments-reconciler.ts';

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: payments through BTCPay Server`, () => {
    let fake: FakeBtcpay;
    const env: Record<string, string> = { RATE_LIMIT_ORDER: '100' };
    beforeAll(async () => {
      fake = await startFakeBtcpay({ now: () => t.clock.now() });
      Object.assign(env, {
        BTCPAY_URL: fake.origin,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
      });
    });
    afterAll(async () => {
      await fake.close();
    });
    const t: TestAppSuite = useTestApp(dialect, { env });

    // Each order from a buyer of its own: one address holds one pending order (order-holds.test.ts).
    let buyers = 0;
    const placeOrder = () =>
      t.app.inject({ method: 'POST', url: '/api/public/orders', remoteAddress: `198.51.100.${++buyers}` });
    /**
     * Places an order, opens its checkout as the buyer does (which holds the slot for the invoice's
     * life) and returns its id, invoice id and the secret from its redirect's fragment.
     */
    async function order() {
      const res = await placeOrder();
      expect(res.statusCode, res.body).toBe(201);
      const { orderId, checkoutLink } = res.json();
      const invoice = fake.invoiceOfOrder(orderId);
      if (!invoice) throw new Error('no invoice');
      expect(checkoutLink).toBe(`http://localhost:80/api/public/orders/${orderId}/checkout`);
      const checkout = await t.app.inject({ method: 'GET', url: new URL(checkoutLink).pathname });
      expect(checkout.headers.location).toBe(`${fake.origin}/i/${invoice.id}`);
      const secret = new URL(invoice.redirectURL ?? '').hash.slice(1);
      return { orderId: orderId as string, invoiceId: invoice.id, secret };
    }
    const status = (orderId: string, secret: string) =>
      t.app.inject({ method: 'POST', url: `/api/public/orders/${orderId}/status`, payload: { secret } });
    /** BTCPay's delivery, as BTCPay posts it (no Origin: server to server). */
    const deliver = (invoiceId: string, type: FakeWebhookType, options = {}) => {
      const request = fake.webhookRequest(invoiceId, type, options);
      return t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: request.headers,
        payload: request.body,
      });
    };
    const settle = (invoiceId: string) => fake.settle(invoiceId, { webhook: false });
    const codes = () => t.ctx.db.selectFrom('redemption_keys').selectAll().execute();
    const auditRows = (eventType: string) =>
      t.ctx.db.selectFrom('audit_logs').selectAll().where('event_type', '=', eventType).execute();
    const deliveries = () => t.ctx.db.selectFrom('payment_webhook_deliveries').selectAll().execute();
    const availableSlots = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' })).json().slots
        .available as number;

    it('turns a settled invoice into exactly one code, which redeems through the script', async () => {
      const { orderId, invoiceId, secret } = await order();
      expect(orderId).toMatch(ORDER_ID_PATTERN);
      expect(fake.invoices.get(invoiceId)).toMatchObject({
        amount: '40',
        currency: 'USD',
        metadata: { orderId },
        redirectURL: `http://localhost:80/order/${orderId}#${secret}`,
      });
      const pending = await status(orderId, secret);
      expect(pending.json()).toMatchObject({
        status: 'pending',
        keyType: 'PREMIUM',
        validityHours: 24,
        checkoutLink: `http://localhost:80/api/public/orders/${orderId}/checkout`,
      });
      expect(pending.json().code).toBeUndefined();

      await settle(invoiceId);
      const res = await deliver(invoiceId, 'InvoiceSettled');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ outcome: 'paid', orderId });

      const paid = (await status(orderId, secret)).json();
      expect(paid).toMatchObject({ status: 'paid', keyType: 'PREMIUM', validityHours: 24 });
      expect(paid.checkoutLink).toBeUndefined();
      const [code] = await codes();
      expect(paid.code).toBe(code?.redemption_code);
      expect(code).toMatchObject({ key_type: 'PREMIUM', validity_duration: 24, max_hardware_bindings: 1 });
      expect(code?.notes).toBe(`Order ${orderId} (BTCPay invoice ${invoiceId})`);

      const redeemed = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code: paid.code, hwid: 'buyer-device-1' },
      });
      expect(redeemed.statusCode, redeemed.body).toBe(200);
      expect(redeemed.json()).toMatchObject({ success: true, scriptType: 'PREMIUM' });

      expect(await auditRows('order_created')).toHaveLength(1);
      expect(await auditRows('order_paid')).toHaveLength(1);
      // The secret reaches no audit row.
      const all = await t.ctx.db.selectFrom('audit_logs').selectAll().execute();
      expect(JSON.stringify(all)).not.toContain(secret);
    });

    it('answers an unknown order and a wrong secret with the same 404', async () => {
      const { orderId } = await order();
      const wrong = await status(orderId, 'A'.repeat(22));
      const unknown = await status('B'.repeat(16), 'A'.repeat(22));
      expect(wrong.statusCode).toBe(404);
      expect(unknown.statusCode).toBe(404);
      expect(wrong.json()).toEqual({ error: ORDER_TEXTS.notFound });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('refuses a missing or wrong signature with 401, audits it with the IP, and changes nothing', async () => {
      const { orderId, invoiceId, secret } = await order();
      await settle(invoiceId);
      const wrong = await deliver(invoiceId, 'InvoiceSettled', { badSignature: true });
      expect(wrong.statusCode).toBe(401);
      const request = fake.webhookRequest(invoiceId, 'InvoiceSettled');
      const missing = await t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json' },
        payload: request.body,
      });
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toBeTruthy();
      // Both in one minute from one address: one row, counting them.
      const rejected = await auditRows('webhook_rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toMatchObject({ success: 0, ip_address: '127.0.0.1' });
      expect(JSON.parse(rejected[0]!.details)).toMatchObject({ ip: '127.0.0.1', count: 2 });
      expect(await codes()).toHaveLength(0);
      expect(await deliveries()).toHaveLength(0);
      expect((await status(orderId, secret)).json().status).toBe('pending');
    });

    it('audits 200 forged posts from one address in one minute as one row counting 200', async () => {
      const { invoiceId } = await order();
      t.clock.set(Date.parse('2026-11-22T12:30:00.000Z'));
      for (let i = 0; i < 200; i++) {
        const res = await deliver(invoiceId, 'InvoiceSettled', { badSignature: true });
        expect(res.statusCode).toBe(401);
        if (i === 100) t.clock.advance(30_000);
      }
      const rows = await auditRows('webhook_rejected');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ success: 0, ip_address: '127.0.0.1' });
      expect(JSON.parse(rows[0]!.details)).toEqual({
        reason: 'BTCPay-Sig does not match the body',
        ip: '127.0.0.1',
        count: 200,
        minute: '2026-11-22T12:30:00.000Z',
      });
      // The next minute starts a row of its own, which posts arriving at once add up in.
      t.clock.advance(30_000);
      await Promise.all(
        Array.from({ length: 20 }, () => deliver(invoiceId, 'InvoiceSettled', { badSignature: true })),
      );
      const next = await auditRows('webhook_rejected');
      expect(next.map((row) => JSON.parse(row.details).count)).toEqual([200, 20]);
      expect(await codes()).toHaveLength(0);
    });

    it('makes no code from a Settled invoice of 0.01 for a 40 USD order: it waits as underpaid with the figures', async () => {
      const { orderId, invoiceId, secret } = await order();
      // An invoice for the order that says 0.01 (one the shop did not create, say), paid and settled.
      fake.invoices.get(invoiceId)!.amount = '0.01';
      await settle(invoiceId);
      const res = await deliver(invoiceId, 'InvoiceSettled');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ outcome: 'underpaid', orderId });
      expect(await codes()).toHaveLength(0);
      expect((await status(orderId, secret)).json()).toMatchObject({
        status: 'underpaid',
        expected: { amount: '40', currency: 'USD' },
        received: { amount: '0.01', currency: 'USD' },
      });
      expect((await status(orderId, secret)).json().code).toBeUndefined();
      const [row] = await auditRows('order_payment_mismatch');
      expect(JSON.parse(row!.details)).toMatchObject({
        orderId,
        invoiceId,
        status: 'underpaid',
        expected: { amount: '40', currency: 'USD' },
        received: { amount: '0.01', currency: 'USD' },
        via: 'webhook',
      });
      // A redelivery and the reconciler change nothing: the operator decides.
      expect((await deliver(invoiceId, 'InvoiceSettled')).json().outcome).toBe('unchanged');
      expect((await reconcileOrders(t.ctx)).paid).toBe(0);
      expect(await codes()).toHaveLength(0);
    });

    it('holds a settled invoice in another currency as mismatch', async () => {
      const { orderId, invoiceId, secret } = await order();
      fake.invoices.get(invoiceId)!.currency = 'EUR';
      await settle(invoiceId);
      expect((await deliver(invoiceId, 'InvoiceSettled')).json()).toEqual({ outcome: 'mismatch', orderId });
      expect((await status(orderId, secret)).json()).toMatchObject({
        status: 'mismatch',
        expected: { amount: '40', currency: 'USD' },
        received: { amount: '40', currency: 'EUR' },
      });
      expect(await codes()).toHaveLength(0);
    });

    it('holds, in the reconciler too, an invoice settled for less than the price; an overpaid one is a sale', async () => {
      const short = await order();
      const over = await order();
      await fake.settle(short.invoiceId, { webhook: false, paid: '30' });
      await fake.settle(over.invoiceId, { webhook: false, paid: '55.5' });
      expect(await reconcileOrders(t.ctx)).toMatchObject({ paid: 1, held: 1 });
      expect((await status(short.orderId, short.secret)).json()).toMatchObject({
        status: 'underpaid',
        received: { amount: '30', currency: 'USD' },
      });
      expect((await status(over.orderId, over.secret)).json()).toMatchObject({
        status: 'paid',
        code: expect.any(String),
      });
      const [row] = await auditRows('order_payment_mismatch');
      expect(JSON.parse(row!.details)).toMatchObject({ orderId: short.orderId, via: 'reconciler' });
    });

    it("lets the operator issue a held order's code anyway, or record it refunded, once", async () => {
      const cookie = await t.adminCookie();
      const resolve = (orderId: string, action: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/orders/${orderId}/resolve`,
          headers: { cookie },
          payload: { action },
        });
      const short = await order();
      const other = await order();
      const open = await order();
      for (const held of [short, other]) await fake.settle(held.invoiceId, { webhook: false, paid: '1' });
      await reconcileOrders(t.ctx);

      const issued = await resolve(short.orderId, 'issue_code');
      expect(issued.statusCode, issued.body).toBe(200);
      expect(issued.json().order).toMatchObject({
        id: short.orderId,
        status: 'paid',
        received: { amount: '1', currency: 'USD' },
        redemptionCode: expect.any(String),
      });
      expect((await status(short.orderId, short.secret)).json()).toMatchObject({
        status: 'paid',
        code: (await codes())[0]?.redemption_code,
      });
      expect((await resolve(other.orderId, 'refunded')).json().order.status).toBe('refunded');
      expect((await status(other.orderId, other.secret)).json().status).toBe('refunded');

      const again = await resolve(short.orderId, 'refunded');
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toContain('this one is paid');
      expect((await resolve(open.orderId, 'issue_code')).statusCode).toBe(409);
      expect((await resolve('N'.repeat(16), 'issue_code')).statusCode).toBe(404);
      expect((await resolve(short.orderId, 'give_away')).statusCode).toBe(400);
      expect(await codes()).toHaveLength(1);
      const resolved = await auditRows('order_resolved');
      expect(resolved.map((r) => JSON.parse(r.details).action).sort()).toEqual(['issue_code', 'refunded']);
      expect((await auditRows('order_paid')).map((r) => JSON.parse(r.details).via)).toEqual(['admin']);
    });

    it('makes one code from a redelivery and from two identical deliveries at once', async () => {
      const { orderId, invoiceId, secret } = await order();
      await settle(invoiceId);
      const first = fake.webhookRequest(invoiceId, 'InvoiceSettled');
      const twins = await Promise.all(
        [first, first].map((request) =>
          t.injectBare({
            method: 'POST',
            url: BTCPAY_WEBHOOK_PATH,
            headers: request.headers,
            payload: request.body,
          }),
        ),
      );
      expect(twins.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(twins.map((r) => r.json().outcome).sort()).toEqual(['already_paid', 'paid']);
      const again = await deliver(invoiceId, 'InvoiceSettled', {
        isRedelivery: true,
        originalDeliveryId: first.deliveryId,
      });
      expect(again.json().outcome).toBe('already_paid');
      // Out of order (an old Expired event after the payment): BTCPay's invoice says Settled, nothing changes.
      expect((await deliver(invoiceId, 'InvoiceExpired')).json().outcome).toBe('already_paid');
      expect(await codes()).toHaveLength(1);
      expect((await status(orderId, secret)).json().status).toBe('paid');
      const rows = await deliveries();
      expect(rows).toHaveLength(4);
      expect(rows.find((r) => r.is_redelivery === 1)).toMatchObject({
        original_delivery_id: first.deliveryId,
        order_id: orderId,
      });
    });

    it('delivers a payment whose webhook never came at the next reconcile', async () => {
      const { orderId, invoiceId, secret } = await order();
      await settle(invoiceId);
      expect((await status(orderId, secret)).json().status).toBe('pending');
      const summary = await reconcileOrders(t.ctx);
      expect(summary).toMatchObject({ paid: 1, unavailable: false });
      const paid = (await status(orderId, secret)).json();
      expect(paid.status).toBe('paid');
      expect(paid.code).toBeTruthy();
      expect((await reconcileOrders(t.ctx)).paid).toBe(0);
      expect(await codes()).toHaveLength(1);
    });

    it('frees the slot when the invoice expires, and when its time runs out', async () => {
      const before = await availableSlots();
      const expiring = await order();
      const timed = await order();
      expect(await availableSlots()).toBe(before - 2);
      await fake.expire(expiring.invoiceId, { webhook: false });
      expect((await deliver(expiring.invoiceId, 'InvoiceExpired')).json().outcome).toBe('expired');
      expect((await status(expiring.orderId, expiring.secret)).json().status).toBe('expired');
      expect(await availableSlots()).toBe(before - 1);

      t.clock.advance(16 * MINUTE);
      expect(await availableSlots()).toBe(before);
      expect((await status(timed.orderId, timed.secret)).json().status).toBe('expired');
      expect(await auditRows('order_expired')).toHaveLength(2);

      // A late payment of an expired invoice is still a sale.
      await settle(timed.invoiceId);
      expect((await deliver(timed.invoiceId, 'InvoiceSettled')).json().outcome).toBe('paid');
      expect((await status(timed.orderId, timed.secret)).json().status).toBe('paid');
    });

    it('keeps the slot of a paid invoice waiting for confirmations', async () => {
      const { orderId, invoiceId, secret } = await order();
      await fake.process(invoiceId, { webhook: false });
      expect((await deliver(invoiceId, 'InvoiceProcessing')).json().outcome).toBe('unchanged');
      t.clock.advance(60 * MINUTE);
      expect((await status(orderId, secret)).json().status).toBe('pending');
    });

    it('still delivers an order that ran out of time while its payment confirmed, its webhooks lost', async () => {
      const { orderId, invoiceId, secret } = await order();
      await fake.process(invoiceId, { webhook: false });
      t.clock.advance(16 * MINUTE);
      expect((await status(orderId, secret)).json().status).toBe('expired');
      // BTCPay says Processing: the order holds its slot again, and is watched until it settles.
      await reconcileOrders(t.ctx);
      expect((await status(orderId, secret)).json().status).toBe('pending');
      await settle(invoiceId);
      expect((await reconcileOrders(t.ctx)).paid).toBe(1);
      expect((await status(orderId, secret)).json()).toMatchObject({
        status: 'paid',
        code: expect.any(String),
      });
    });

    it('asks BTCPay once about an order that ran out of time unpaid', async () => {
      const { orderId, invoiceId, secret } = await order();
      t.clock.advance(16 * MINUTE);
      expect((await status(orderId, secret)).json().status).toBe('expired');
      await fake.expire(invoiceId, { webhook: false });
      const before = fake.requests;
      await reconcileOrders(t.ctx);
      await reconcileOrders(t.ctx);
      expect(fake.requests - before).toBe(1);
    });

    it('sells the last slot once when two buyers order at the same moment', async () => {
      const used = (await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' })).json().slots;
      await t.ctx.db
        .updateTable('system_configuration')
        .set({ total_slots: used.total - used.available + 1 })
        .execute();
      const both = await Promise.all([placeOrder(), placeOrder()]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      // Unsold but held by the first buyer's pending order: not Sold Out.
      expect(both.find((r) => r.statusCode === 409)?.json()).toMatchObject({
        error: '1 slot reserved by pending payments, free again by 12:03 UTC',
      });
      expect(await availableSlots()).toBe(0);
    });

    it('answers 503 when BTCPay is down while ordering, and holds no slot', async () => {
      const before = await availableSlots();
      fake.takeDown();
      const res = await placeOrder();
      fake.bringUp();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: ORDER_TEXTS.processorUnavailable });
      expect(await availableSlots()).toBe(before);
      const rows = await t.ctx.db.selectFrom('orders').select(['status', 'ended_at']).execute();
      expect(rows).toEqual([{ status: 'invalid', ended_at: expect.anything() }]);
    });

    it('answers 503 when BTCPay is down during a webhook, recording nothing; the retry works', async () => {
      const { orderId, invoiceId, secret } = await order();
      await settle(invoiceId);
      const request = fake.webhookRequest(invoiceId, 'InvoiceSettled');
      const send = () =>
        t.injectBare({
          method: 'POST',
          url: BTCPAY_WEBHOOK_PATH,
          headers: request.headers,
          payload: request.body,
        });
      fake.takeDown();
      const down = await send();
      fake.bringUp();
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('10');
      expect(await deliveries()).toHaveLength(0);
      expect((await status(orderId, secret)).json().status).toBe('pending');
      const retry = await send();
      expect(retry.json().outcome).toBe('paid');
      expect(await codes()).toHaveLength(1);
    });

    it('answers 200 unknown_invoice for an invoice no order has, and 400 for a body that is no event', async () => {
      const invoiceId = 'NoSuchInvoice';
      const res = await deliver(invoiceId, 'InvoiceSettled');
      expect(res.statusCode).toBe(200);
      expect(res.json().outcome).toBe('unknown_invoice');
      const body = 'not json';
      const { createHmac } = await import('node:crypto');
      const sig = createHmac('sha256', fake.webhookSecret).update(body).digest('hex');
      const bad = await t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', 'btcpay-sig': `sha256=${sig}` },
        payload: body,
      });
      expect(bad.statusCode).toBe(400);
    });

    it('offers Pay now on the buyer page', async () => {
      const info = (await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' })).json();
      expect(info.payNow).toBe(true);
    });
  });

  describe(`${dialect}: payments with a BTCPay Server older than 2.1.2 (no paidAmount)`, () => {
    let fake: FakeBtcpay;
    const env: Record<string, string> = { RATE_LIMIT_ORDER: '100' };
    beforeAll(async () => {
      fake = await startFakeBtcpay({ legacy: true, now: () => t.clock.now() });
      Object.assign(env, {
        BTCPAY_URL: fake.origin,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
      });
    });
    afterAll(async () => {
      await fake.close();
    });
    const t = useTestApp(dialect, { env });

    it("reads what was paid from the invoice's payment methods", async () => {
      let buyer = 0;
      const place = async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/public/orders',
            remoteAddress: `198.51.100.${++buyer}`,
          })
        ).json().orderId as string;
      const short = await place();
      const full = await place();
      await fake.settle(fake.invoiceOfOrder(short)!.id, { webhook: false, paid: '39.5' });
      await fake.settle(fake.invoiceOfOrder(full)!.id, { webhook: false });
      expect(await reconcileOrders(t.ctx)).toMatchObject({ paid: 1, held: 1 });
      const rows = await t.ctx.db
        .selectFrom('orders')
        .select(['id', 'status', 'received_amount', 'received_currency'])
        .orderBy('created_at')
        .execute();
      expect(rows.find((r) => r.id === short)).toMatchObject({
        status: 'underpaid',
        received_amount: '39.5',
        received_currency: 'USD',
      });
      expect(rows.find((r) => r.id === full)?.status).toBe('paid');
      expect(fake.received.filter((r) => r.path.endsWith('/payment-methods'))).toHaveLength(2);
    });
  });

  describe(`${dialect}: payments limits and without a connection`, () => {
    let fake: FakeBtcpay;
    const env: Record<string, string> = {};
    beforeAll(async () => {
      fake = await startFakeBtcpay();
      Object.assign(env, {
        BTCPAY_URL: fake.origin,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
        RATE_LIMIT_ORDER: '2',
      });
    });
    afterAll(async () => {
      await fake.close();
    });
    const t = useTestApp(dialect, { env });

    it('limits orders per IP (429) but not the status polling', async () => {
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push(await t.app.inject({ method: 'POST', url: '/api/public/orders' }));
      // The second waits behind the first (one pending order per address), the third is over the limit.
      expect(answers.map((r) => r.statusCode)).toEqual([201, 409, 429]);
      const { orderId } = answers[0]!.json();
      const secret = new URL(fake.invoiceOfOrder(orderId)?.redirectURL ?? '').hash.slice(1);
      for (let i = 0; i < 30; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/public/orders/${orderId}/status`,
          payload: { secret },
        });
        expect(res.statusCode).toBe(200);
      }
    });
  });

  describe(`${dialect}: the reconciler's timer`, () => {
    let fake: FakeBtcpay;
    const env: Record<string, string> = { PAYMENTS_RECONCILE_MS: '1000' };
    beforeAll(async () => {
      fake = await startFakeBtcpay();
      Object.assign(env, {
        BTCPAY_URL: fake.origin,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
      });
    });
    afterAll(async () => {
      await fake.close();
    });
    const t = useTestApp(dialect, { env });

    it('delivers a missed payment on its own while holding the lease, and gives the lease up on close', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/public/orders' });
      const { orderId } = res.json();
      await fake.settle(fake.invoiceOfOrder(orderId)!.id, { webhook: false });
      const orderStatus = async () =>
        (
          await t.ctx.db
            .selectFrom('orders')
            .select('status')
            .where('id', '=', orderId)
            .executeTakeFirstOrThrow()
        ).status;
      await vi.waitFor(async () => expect(await orderStatus()).toBe('paid'), {
        timeout: 10_000,
        interval: 100,
      });
      const lease = () =>
        t.ctx.db.selectFrom('leases').selectAll().where('name', '=', RECONCILER_LEASE).executeTakeFirst();
      expect(Number((await lease())?.expires_at)).toBeGreaterThan(t.clock.now());
      await t.app.close();
      expect(Number((await lease())?.expires_at)).toBe(0);
    });
  });

  describe(`${dialect}: payments not connected`, () => {
    const t = useTestApp(dialect);

    it('refuses orders with 404 and keeps the purchase info exactly the spec', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/public/orders' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: ORDER_TEXTS.notAvailable });
      const info = (await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' })).json();
      expect(info).not.toHaveProperty('payNow');
    });

    it('answers a webhook with 503 and Retry-After, which BTCPay retries (it drops a 404 for good)', async () => {
      const res = await t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', 'btcpay-sig': 'sha256=00' },
        payload: JSON.stringify({ deliveryId: 'd1', type: 'InvoiceSettled', invoiceId: 'inv-1' }),
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('10');
      expect(res.json()).toEqual({ error: 'Payments are not configured on this server' });
    });
  });
}
