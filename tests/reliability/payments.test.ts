import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_PATH } from '../../common/order-texts.ts';
import { reconcileOrders } from '../../server/features/payments/payments-reconciler.ts';
import { type FakeBtcpay, startFakeBtcpay } from '../../server/test/fake-btcpay.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../../server/test/helper.ts';

/*
 * Two instances of the app on one PostgreSQL database, both receiving every settled invoice's
 * webhook at the same moment (twice, as BTCPay's redelivery would) while both reconcilers sweep:
 * each paid order must end with exactly one code, and no code without its order.
 */

const ORDERS = 12;

describe.skipIf(!DIALECTS.includes('postgres'))('postgres: two instances, one code per paid order', () => {
  let fake: FakeBtcpay;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    fake = await startFakeBtcpay();
    const env = {
      BTCPAY_URL: fake.origin,
      BTCPAY_STORE_ID: fake.storeId,
      BTCPAY_API_KEY: fake.apiKey,
      BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
      RATE_LIMIT_ORDER: '1000',
    };
    first = await buildTestApp('postgres', env);
    second = await buildTestApp('postgres', env, { joinSchemaOf: first });
    // Both read the same clock's time (the fake's invoices expire by the real one).
    first.clock.set(Date.now());
    second.clock.set(Date.now());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await fake?.close();
  });

  it('makes exactly one code per order from concurrent webhooks, redeliveries and reconcilers', async () => {
    const orderIds: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const app = i % 2 === 0 ? first : second;
      // Each from a buyer of its own: one address holds one pending order at a time.
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/public/orders',
        remoteAddress: `198.51.100.${i + 1}`,
      });
      expect(res.statusCode, res.body).toBe(201);
      orderIds.push(res.json().orderId);
    }
    const invoices = orderIds.map((id) => fake.invoiceOfOrder(id)!);
    for (const invoice of invoices) await fake.settle(invoice.id, { webhook: false });

    const deliveries = invoices.flatMap((invoice) => {
      const original = fake.webhookRequest(invoice.id, 'InvoiceSettled');
      const redelivery = fake.webhookRequest(invoice.id, 'InvoiceSettled', {
        isRedelivery: true,
        originalDeliveryId: original.deliveryId,
      });
      return [original, original, redelivery];
    });
    const answers = await Promise.all([
      ...deliveries.flatMap((request) =>
        [first, second].map((t) =>
          t.injectBare({
            method: 'POST',
            url: BTCPAY_WEBHOOK_PATH,
            headers: request.headers,
            payload: request.body,
          }),
        ),
      ),
      reconcileOrders(first.ctx),
      reconcileOrders(second.ctx),
    ]);
    for (const answer of answers) {
      if ('statusCode' in answer) expect(answer.statusCode, answer.body).toBe(200);
    }

    const orders = await first.ctx.db.selectFrom('orders').selectAll().execute();
    expect(orders).toHaveLength(ORDERS);
    for (const order of orders) expect(order.status).toBe('paid');
    const codes = await first.ctx.db.selectFrom('redemption_keys').selectAll().execute();
    expect(codes).toHaveLength(ORDERS);
    expect(new Set(orders.map((o) => o.redemption_key_id)).size).toBe(ORDERS);
    expect(orders.map((o) => Number(o.redemption_key_id)).sort()).toEqual(codes.map((c) => c.id).sort());
    const paidAudits = await first.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('event_type', '=', 'order_paid')
      .execute();
    expect(paidAudits).toHaveLength(ORDERS);
    const outcomes = await first.ctx.db
      .selectFrom('payment_webhook_deliveries')
      .select('outcome')
      .where('outcome', '=', 'paid')
      .execute();
    // Each order was paid once, by a webhook or by a reconciler.
    expect(outcomes.length).toBeLessThanOrEqual(ORDERS);
  });
});
