import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_PATH, ORDER_LOOKUP_TEXTS, ORDER_TEXTS } from '../../common/order-texts.ts';
import type { CreateOrderResponse } from '../../common/payments.ts';
import { type FakeBtcpay, startFakeBtcpay } from '../../server/test/fake-btcpay.ts';
import { freePort, launchBrowser, newPage, type RunningServer, startServer } from './harness.ts';

/*
 * The order page after the checkout, in a real browser against the real server and the fake BTCPay
 * (which pays the way the real one does): a payment after the invoice expired (Expired + PaidLate)
 * shows its code on the open page without a reload; a confirming payment offers no way to pay
 * again; a redeemed code says so; a lost page is found by the invoice ID and the e-mail.
 */

describe('the order page after the checkout (fake BTCPay Server)', () => {
  let fake: FakeBtcpay;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeBtcpay();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    fake.setWebhookUrl(`${url}${BTCPAY_WEBHOOK_PATH}`);
    [server, browser] = await Promise.all([
      startServer({
        PORT: String(port),
        PUBLIC_URL: url,
        BTCPAY_URL: fake.origin,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
        RATE_LIMIT_ORDER: '1000',
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });
  beforeEach(async () => {
    ({ context, page } = await newPage(browser, server.url));
  });
  afterEach(async () => {
    await context.close();
  });

  /** Each test's order ends before the next is placed (one waiting order per address). */
  async function placeOrder(email?: string) {
    const res = await fetch(`${server.url}/api/public/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(email ? { email } : {}),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { orderId } = (await res.json()) as CreateOrderResponse;
    const invoice = fake.invoiceOfOrder(orderId);
    return { orderId, invoiceId: invoice!.id, orderPage: invoice!.redirectURL! };
  }
  const code = () => page.locator('code', { hasText: /^SCANLINE-/ });

  it('shows the code of a payment made after the invoice expired on the open page, without a reload', async () => {
    const { invoiceId, orderPage } = await placeOrder();
    await page.goto(orderPage);
    await page.getByRole('heading', { name: ORDER_TEXTS.waiting }).waitFor();
    expect(await fake.expire(invoiceId)).toBe(200);
    await page.getByRole('heading', { name: ORDER_TEXTS.expired }).waitFor();
    await page.getByText(ORDER_TEXTS.expiredWatching).waitFor();

    // BTCPay keeps the invoice Expired + PaidLate and sends no InvoiceSettled.
    expect(await fake.pay(invoiceId)).toBe(200);
    expect(fake.invoices.get(invoiceId)?.status).toBe('Expired');
    await page.getByRole('heading', { name: ORDER_TEXTS.paid }).waitFor();
    expect(await code().count()).toBe(1);
    expect(await page.getByText(ORDER_TEXTS.paidLate).isVisible()).toBe(true);
  });

  it('reads a confirming payment as received with no way to pay again, then the code; redeemed, it says so', async () => {
    const { invoiceId, orderPage } = await placeOrder();
    await page.goto(orderPage);
    await page.getByRole('heading', { name: ORDER_TEXTS.waiting }).waitFor();
    expect(await fake.pay(invoiceId)).toBe(200);
    await page.getByRole('heading', { name: ORDER_TEXTS.processing }).waitFor();
    expect(await page.getByRole('link', { name: /checkout/i }).count()).toBe(0);
    expect(await page.getByText('Pay before').count()).toBe(0);

    expect(await fake.settle(invoiceId)).toBe(200);
    await page.getByRole('heading', { name: ORDER_TEXTS.paid }).waitFor();
    const redeemed = await fetch(`${server.url}/api/script/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: await code().textContent(), hwid: 'e2e-order-page-pc' }),
    });
    expect(redeemed.status, await redeemed.clone().text()).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: ORDER_TEXTS.redeemed }).waitFor();
    expect(await page.getByText(/is ready/).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Open My key' }).getAttribute('href')).toBe('/key');
  });

  it('finds a lost order page by the invoice ID and the e-mail', async () => {
    const { orderId, invoiceId } = await placeOrder('lost.page@example.com');
    expect(await fake.settle(invoiceId)).toBe(200);
    await page.goto(`/order/${orderId}`);
    await page.getByRole('heading', { name: ORDER_LOOKUP_TEXTS.title }).waitFor();
    await page.getByLabel(ORDER_LOOKUP_TEXTS.invoiceLabel).fill(invoiceId);
    await page.getByLabel(ORDER_LOOKUP_TEXTS.emailLabel).fill('lost.page@example.com');
    await page.getByRole('button', { name: ORDER_LOOKUP_TEXTS.submit }).click();
    await page.getByRole('heading', { name: ORDER_TEXTS.paid }).waitFor();
    expect(await code().count()).toBe(1);
  });
});
