import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_PATH, ORDER_LOOKUP_TEXTS, ORDER_TEXTS } from '../../common/order-texts.ts';
import type { CreateOrderResponse } from '../../common/payments.ts';
import type { RedeemResponse } from '../../common/script-access.ts';
import { type FakeBtcpay, startFakeBtcpay } from '../../server/test/fake-btcpay.ts';
import {
  configureSystem,
  freePort,
  launchBrowser,
  newPage,
  type RunningServer,
  startServer,
  toastTitled,
} from './harness.ts';
import { LONG_DEVICE } from './realistic-data.ts';

/*
 * The buyer's whole path with a payment processor connected, in a real browser: the buyer page's
 * Pay now, BTCPay's checkout (a fake on loopback, which pays the way the real one does, sends the
 * signed webhooks and sends the buyer back), and /order/{id}#{secret} showing the code, which then
 * redeems; a payment after the invoice expired (Expired + PaidLate) shows its code on the open page
 * without a reload; a confirming payment offers no way to pay again; a redeemed code says so; a lost
 * page is found by the invoice ID and the e-mail.
 */

const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** axe's serious and critical findings on the page as it is, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  // As accessibility.e2e.ts runs it: axe.run in the page, only the violations' details (the same findings, faster).
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

describe('payments in the browser (fake BTCPay Server)', () => {
  let fake: FakeBtcpay;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeBtcpay();
    // The app sends the buyer back to its public address: this server's, known before it starts.
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

  /** Places an order as the buyer page does, and returns its page's address as the checkout sends it back. */
  async function placeOrder(email?: string): Promise<{
    orderId: string;
    invoiceId: string;
    orderPage: string;
    checkoutLink: string;
  }> {
    const res = await fetch(`${server.url}/api/public/orders`, {
      method: 'POST',
      ...(email ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) } : {}),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { orderId, checkoutLink } = (await res.json()) as CreateOrderResponse;
    const invoice = fake.invoiceOfOrder(orderId);
    expect(invoice?.redirectURL).toMatch(new RegExp(`^${server.url}/order/${orderId}#[A-Za-z0-9_-]{22}$`));
    return { orderId, invoiceId: invoice!.id, orderPage: invoice!.redirectURL!, checkoutLink };
  }

  it('Pay now leads through the checkout to the order page, whose code redeems', async () => {
    await configureSystem(page, 30, { BTC });
    await page.goto('/buyer');
    // The manual path stays beside Pay now.
    await page.getByText('bc1qxy2k...fjhx0wlh').waitFor();
    expect(await page.getByText(/create a ticket and give us the transaction hash/).isVisible()).toBe(true);

    await page.getByRole('button', { name: ORDER_TEXTS.payNow }).click();
    await page.waitForURL(`${fake.origin}/i/**`);
    await page.getByRole('button', { name: 'Pay invoice' }).click();

    await page.waitForURL(/\/order\/[A-Za-z0-9_-]{16}#[A-Za-z0-9_-]{22}$/);
    expect(new URL(page.url()).origin).toBe(server.url);
    await page.getByRole('heading', { name: ORDER_TEXTS.paid }).waitFor();
    const code = (await page.locator('code', { hasText: /^SCANLINE-/ }).textContent()) ?? '';
    expect(code).toMatch(/^SCANLINE-/);
    expect(await page.locator('dl > div', { hasText: 'Key type' }).locator('dd').textContent()).toBe(
      'Premium',
    );
    expect(await page.getByRole('listitem').filter({ hasText: 'Copy your redemption code.' }).count()).toBe(
      1,
    );

    await page.getByRole('button', { name: 'Copy code' }).click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    expect(await seriousViolations(page)).toEqual([]);

    // The buyer's executor redeems the code: a script key bound to their PC.
    const redeemed = await fetch(`${server.url}/api/script/redeem`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code, hwid: 'e2e-payments-pc', device: LONG_DEVICE }),
    });
    expect(redeemed.status, await redeemed.clone().text()).toBe(200);
    expect(((await redeemed.json()) as RedeemResponse).scriptKey).toBeTruthy();

    // Opened again later, the link says the code was redeemed (and still shows it), pointing to My key.
    await page.reload();
    await page.getByRole('heading', { name: ORDER_TEXTS.redeemed }).waitFor();
    expect(await page.locator('code', { hasText: code }).count()).toBe(1);
  });

  it('follows a waiting order live until its payment settles', async () => {
    const { invoiceId, orderPage, checkoutLink } = await placeOrder();
    await page.goto(orderPage);
    await page.getByRole('heading', { name: ORDER_TEXTS.waiting }).waitFor();
    expect(await page.getByRole('link', { name: /Return to the checkout/ }).getAttribute('href')).toBe(
      checkoutLink,
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Paid elsewhere (another device, a wallet app): the page sees it on its next look.
    expect(await fake.settle(invoiceId)).toBe(200);
    await page.getByRole('heading', { name: ORDER_TEXTS.paid }).waitFor();
    expect(await page.locator('code', { hasText: /^SCANLINE-/ }).count()).toBe(1);
  });

  it('offers a new order once the invoice expires', async () => {
    const { invoiceId, orderPage } = await placeOrder();
    await page.goto(orderPage);
    await page.getByRole('heading', { name: ORDER_TEXTS.waiting }).waitFor();
    expect(await fake.expire(invoiceId)).toBe(200);
    await page.getByRole('heading', { name: ORDER_TEXTS.expired }).waitFor();
    expect(await page.getByRole('link', { name: ORDER_TEXTS.startAgain }).getAttribute('href')).toBe(
      '/buyer',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

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

  it('shows Order not found for a wrong secret', async () => {
    const { orderId } = await placeOrder();
    await page.goto(`/order/${orderId}#${'x'.repeat(22)}`);
    await page.getByRole('heading', { name: ORDER_TEXTS.notFound }).waitFor();
    expect(await page.locator('code', { hasText: /^SCANLINE-/ }).count()).toBe(0);
  });
});

describe('the buyer page without a payment processor', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('offers no Pay now: the spec page, wallets and the ticket steps', async () => {
    const { context, page } = await newPage(browser, server.url);
    try {
      await configureSystem(page, 30, { BTC });
      await page.goto('/buyer');
      await page.getByText('bc1qxy2k...fjhx0wlh').waitFor();
      await page.getByText('30/30 slots available').waitFor();
      expect(await page.getByRole('button', { name: ORDER_TEXTS.payNow }).count()).toBe(0);
      expect(await page.getByText(/Or pay now at checkout/).count()).toBe(0);
      expect(await page.getByText(/Receive your premium license key within 24 hours/).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
