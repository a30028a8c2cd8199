import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_PATH, ORDER_EMAIL_TEXTS, ORDER_LOOKUP_TEXTS } from '../../../common/order-texts.ts';
import { type FakeBtcpay, type FakeWebhookType, startFakeBtcpay } from '../../test/fake-btcpay.ts';
import { buildTestApp, DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink.ts';
import { MAIL_RETRY_MS } from './order-mail.ts';
import { reconcileOrders } from './payments-reconciler.ts';

/*
 * Everything BTCPay reports after the buyer paid (a payment confirming, partial, late, over the
 * price), the order's e-mail (its mail, through a loopback SMTP server, and finding a lost order page
 * by the invoice id plus the e-mail), and a redeemed code's page.
 */

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: what BTCPay reports after the buyer paid`, () => {
    let fake: FakeBtcpay;
    let sink: SmtpSink;
    const env: Record<string, string> = { RATE_LIMIT_ORDER: '100', RATE_LIMIT_KEY: '100' };
    beforeAll(async () => {
      fake = await startFakeBtcpay({
        now: () => t.clock.now(),
        post: async (request) =>
          (
            await t.injectBare({
              method: 'POST',
              url: BTCPAY_WEBHOOK_PATH,
              headers: request.headers,
              payload: request.body,
            })
          ).statusCode,
      });
      sink = await startSmtpSink();
      Object.assign(env, {
        BTCPAY_URL: fake.origin,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
        SMTP_URL: sink.url,
        SMTP_FROM: 'Scanline <shop@example.com>',
      });
    });
    afterAll(async () => {
      await fake.close();
      await sink.close();
    });
    const t: TestAppSuite = useTestApp(dialect, { env });

    let buyers = 0;
    /** Places an order (with `email` when given) and opens its checkout, as the buyer does. */
    async function order(email?: string) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/public/orders',
        remoteAddress: `203.0.113.${++buyers}`,
        ...(email === undefined ? {} : { payload: { email } }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const { orderId, checkoutLink } = res.json();
      await t.app.inject({ method: 'GET', url: new URL(checkoutLink).pathname });
      const invoice = fake.invoiceOfOrder(orderId);
      if (!invoice) throw new Error('no invoice');
      const link = invoice.redirectURL ?? '';
      return { orderId: orderId as string, invoiceId: invoice.id, secret: new URL(link).hash.slice(1), link };
    }
    const status = async (o: { orderId: string; secret: string }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/public/orders/${o.orderId}/status`,
        payload: { secret: o.secret },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const deliver = (invoiceId: string, type: FakeWebhookType) => {
      const request = fake.webhookRequest(invoiceId, type);
      return t.injectBare({
        method: 'POST',
        url: BTCPAY_WEBHOOK_PATH,
        headers: request.headers,
        payload: request.body,
      });
    };
    const adminOrder = async (orderId: string) => {
      const cookie = await t.adminCookie();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders?search=${orderId}`,
        headers: { cookie },
      });
      return res.json().orders[0];
    };
    const codes = () => t.ctx.db.selectFrom('redemption_keys').selectAll().execute();
    const lookUp = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/public/orders/lookup', payload: payload as object });

    it('makes a payment after expiry (Expired + PaidLate, no InvoiceSettled) its code, by webhook and by the reconciler', async () => {
      const byWebhook = await order();
      const byReconciler = await order();
      await fake.expire(byWebhook.invoiceId);
      await fake.expire(byReconciler.invoiceId, { webhook: false });
      t.clock.advance(16 * MINUTE);
      expect((await status(byWebhook)).status).toBe('expired');
      expect((await status(byReconciler)).status).toBe('expired');
      await reconcileOrders(t.ctx);

      // The real BTCPay's webhooks for a late payment: InvoiceReceivedPayment (afterExpiration) and InvoicePaidAfterExpiration.
      t.clock.advance(20 * MINUTE);
      expect(await fake.pay(byWebhook.invoiceId)).toBe(200);
      expect(fake.invoices.get(byWebhook.invoiceId)?.status).toBe('Expired');
      const paid = await status(byWebhook);
      expect(paid).toMatchObject({ status: 'paid', payment: 'late', code: expect.any(String) });

      // Its webhooks lost: the reconciler still reads the expired order's invoice again, and its additionalStatus.
      await fake.pay(byReconciler.invoiceId, { webhook: false });
      const summary = await reconcileOrders(t.ctx);
      expect(summary.paid).toBe(1);
      expect(await status(byReconciler)).toMatchObject({ status: 'paid', payment: 'late' });
      expect(await codes()).toHaveLength(2);
      expect((await adminOrder(byWebhook.orderId)).paymentState).toBe('late');
    });

    it('tells the operator when a late payment finds no free slot, and still delivers it', async () => {
      await t.ctx.db.updateTable('system_configuration').set({ total_slots: 2 }).execute();
      const late = await order();
      await fake.expire(late.invoiceId);
      const first = await order();
      await fake.settle(first.invoiceId);
      await t.ctx.db.updateTable('system_configuration').set({ total_slots: 1 }).execute();
      await fake.pay(late.invoiceId);
      expect(await status(late)).toMatchObject({ status: 'paid', payment: 'late' });
      expect(await adminOrder(late.orderId)).toMatchObject({ status: 'paid', slotShortfall: true });
      expect(await adminOrder(first.orderId)).toMatchObject({ slotShortfall: false });
      const audit = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'order_paid_without_slot')
        .execute();
      expect(audit).toHaveLength(1);
    });

    it('shows a confirming payment as received, with no way to pay again', async () => {
      const o = await order();
      await fake.pay(o.invoiceId);
      expect(fake.invoices.get(o.invoiceId)?.status).toBe('Processing');
      const confirming = await status(o);
      expect(confirming).toMatchObject({ status: 'pending', payment: 'processing' });
      expect(confirming.checkoutLink).toBeUndefined();
      await fake.settle(o.invoiceId);
      expect(await status(o)).toMatchObject({ status: 'paid', code: expect.any(String) });
    });

    it('shows a partial payment with what arrived; once the checkout closes on it, the operator decides', async () => {
      const o = await order();
      await fake.pay(o.invoiceId, { amount: '15' });
      const partial = await status(o);
      expect(partial).toMatchObject({
        status: 'pending',
        payment: 'partial',
        expected: { amount: '40', currency: 'USD' },
        received: { amount: '15', currency: 'USD' },
        checkoutLink: expect.any(String),
      });
      await fake.expire(o.invoiceId);
      expect(await status(o)).toMatchObject({
        status: 'underpaid',
        received: { amount: '15', currency: 'USD' },
      });
      expect(await adminOrder(o.orderId)).toMatchObject({
        status: 'underpaid',
        received: { amount: '15' },
        paymentState: null,
      });

      // The rest arrives after the checkout closed: BTCPay says PaidLate, and the order is paid.
      await fake.pay(o.invoiceId);
      expect(fake.invoices.get(o.invoiceId)).toMatchObject({ status: 'Expired', paid: '40' });
      expect(await status(o)).toMatchObject({ status: 'paid', payment: 'late', code: expect.any(String) });
      expect(await adminOrder(o.orderId)).toMatchObject({ status: 'paid', received: null });
    });

    it('makes the code of an overpaid invoice and says what arrived (PaidOver)', async () => {
      const o = await order();
      await fake.pay(o.invoiceId, { amount: '55' });
      await fake.settle(o.invoiceId);
      expect(await status(o)).toMatchObject({
        status: 'paid',
        payment: 'over',
        received: { amount: '55', currency: 'USD' },
        code: expect.any(String),
      });
      expect(await adminOrder(o.orderId)).toMatchObject({ paymentState: 'over', received: { amount: '55' } });
    });

    it('says a redeemed code was redeemed', async () => {
      const o = await order();
      await fake.settle(o.invoiceId);
      const paid = await status(o);
      expect(paid.redeemed).toBeUndefined();
      const redeemed = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code: paid.code, hwid: 'buyer-pc-1' },
      });
      expect(redeemed.statusCode, redeemed.body).toBe(200);
      expect(await status(o)).toMatchObject({ status: 'paid', redeemed: true });
    });

    it('refuses an e-mail that is not one with a 400 naming it', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/public/orders',
        remoteAddress: '203.0.113.250',
        payload: { email: 'not an address' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(ORDER_EMAIL_TEXTS.invalid);
    });

    it('finds a lost order page by the invoice id and the e-mail, and answers every wrong pair the same', async () => {
      const o = await order('Buyer.One@example.com');
      const found = await lookUp({ invoiceId: o.invoiceId, email: ' buyer.one@example.com ' });
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toEqual({ orderId: o.orderId, orderLink: o.link });
      expect(
        await status({ orderId: o.orderId, secret: new URL(found.json().orderLink).hash.slice(1) }),
      ).toMatchObject({
        status: 'pending',
      });

      const without = await order();
      const answers = await Promise.all([
        lookUp({ invoiceId: o.invoiceId, email: 'someone.else@example.com' }),
        lookUp({ invoiceId: 'NoSuchInvoice12345678', email: 'buyer.one@example.com' }),
        lookUp({ invoiceId: without.invoiceId, email: 'buyer.one@example.com' }),
      ]);
      for (const res of answers) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: ORDER_LOOKUP_TEXTS.notFound });
      }
      const bad = await lookUp({ invoiceId: '', email: 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/invoiceId/);
      // The e-mail reaches no audit row.
      const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().execute();
      expect(JSON.stringify(audit).toLowerCase()).not.toContain('buyer.one@example.com');
    });

    it('mails the code and the order link once when the order is paid, whatever the duplicates', async () => {
      const sentBefore = sink.messages.length;
      const o = await order('mail.buyer@example.com');
      await fake.settle(o.invoiceId, { webhook: false });
      // Two deliveries at once, a reconciler round and a redelivery: one code, one mail.
      await Promise.all([deliver(o.invoiceId, 'InvoiceSettled'), deliver(o.invoiceId, 'InvoiceSettled')]);
      await t.ctx.services.orderMail.idle();
      await Promise.all([reconcileOrders(t.ctx), t.ctx.services.orderMail.send(o.orderId)]);
      await deliver(o.invoiceId, 'InvoiceSettled');
      await t.ctx.services.orderMail.idle();
      const mails = sink.messages.slice(sentBefore);
      expect(mails).toHaveLength(1);
      const { code } = await status(o);
      expect(mails[0]).toMatchObject({ to: ['mail.buyer@example.com'], from: 'shop@example.com' });
      expect(mails[0]?.text).toContain(code);
      expect(mails[0]?.text).toContain(o.link);
      expect(await adminOrder(o.orderId)).toMatchObject({
        email: 'm***@example.com',
        mail: { state: 'sent', attempts: 1, error: null },
      });
    });

    // Two instances share a database only on PostgreSQL (an in-memory SQLite database is one process's).
    if (dialect === 'postgres')
      it('mails once when two instances settle the same order at once', async () => {
        const second = await buildTestApp(dialect, env, { joinSchemaOf: t });
        try {
          const sentBefore = sink.messages.length;
          const o = await order('two.instances@example.com');
          await fake.settle(o.invoiceId, { webhook: false });
          const request = fake.webhookRequest(o.invoiceId, 'InvoiceSettled');
          const post = (app: typeof t.app) =>
            app.inject({
              method: 'POST',
              url: BTCPAY_WEBHOOK_PATH,
              headers: request.headers,
              payload: request.body,
            });
          const answers = await Promise.all([post(t.app), post(second.app)]);
          expect(answers.map((a) => a.json().outcome).sort()).toEqual(['already_paid', 'paid']);
          await Promise.all([t.ctx.services.orderMail.idle(), second.ctx.services.orderMail.idle()]);
          await Promise.all([reconcileOrders(t.ctx), reconcileOrders(second.ctx)]);
          expect(sink.messages.slice(sentBefore).map((m) => m.to)).toEqual([['two.instances@example.com']]);
        } finally {
          await second.close();
        }
      });

    it('never lets a mail failure stop the code: a refused recipient is given up, a server that is down is retried', async () => {
      sink.refuseRecipient('nobody@example.com');
      const refused = await order('nobody@example.com');
      expect(await fake.settle(refused.invoiceId)).toBe(200);
      await t.ctx.services.orderMail.idle();
      expect(await status(refused)).toMatchObject({ status: 'paid', code: expect.any(String) });
      const refusedRow = await adminOrder(refused.orderId);
      expect(refusedRow.mail).toMatchObject({ state: 'failed', attempts: 1 });
      expect(refusedRow.mail.error).toMatch(/550/);
      expect(refusedRow.mail.error).not.toContain('nobody@');

      await sink.takeDown();
      const sentBefore = sink.messages.length;
      const later = await order('later@example.com');
      expect(await fake.settle(later.invoiceId)).toBe(200);
      await t.ctx.services.orderMail.idle();
      expect(await status(later)).toMatchObject({ status: 'paid' });
      expect((await adminOrder(later.orderId)).mail).toMatchObject({ state: 'due', attempts: 1 });
      await sink.bringUp();
      // Not yet due again: nothing is sent before its pause ran out.
      await reconcileOrders(t.ctx);
      expect(sink.messages.length).toBe(sentBefore);
      t.clock.advance(MAIL_RETRY_MS);
      expect((await reconcileOrders(t.ctx)).mailed).toBe(1);
      expect(sink.messages.slice(sentBefore).map((m) => m.to)).toEqual([['later@example.com']]);
      expect((await adminOrder(later.orderId)).mail).toMatchObject({ state: 'sent', attempts: 2 });
    });
  });
}
