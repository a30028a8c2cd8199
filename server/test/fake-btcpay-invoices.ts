import { createHmac, randomBytes } from 'node:crypto';

/*
 * The fake BTCPay Server's invoices (server/test/fake-btcpay.ts serves them over HTTP): how one is
 * created, the statuses a webhook event moves it to, how Greenfield shows it, the signed webhook
 * BTCPay posts about it, and its checkout page.
 */

export type FakeInvoiceStatus = 'New' | 'Processing' | 'Expired' | 'Invalid' | 'Settled';
export type FakeWebhookType =
  | 'InvoiceCreated'
  | 'InvoiceReceivedPayment'
  | 'InvoiceProcessing'
  | 'InvoiceSettled'
  | 'InvoiceExpired'
  | 'InvoiceInvalid';

export interface FakeInvoice {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  status: FakeInvoiceStatus;
  metadata: Record<string, unknown>;
  /** checkout.redirectURL as the app sent it. */
  redirectURL: string | null;
  checkoutLink: string;
  /** Unix seconds, as Greenfield gives them. */
  createdTime: number;
  expirationTime: number;
}

export interface WebhookOptions {
  deliveryId?: string;
  isRedelivery?: boolean;
  originalDeliveryId?: string;
  /** Signs with another secret: the app must refuse it. */
  badSignature?: boolean;
}

export interface StatusChangeOptions {
  /** Also send the matching webhook (default true); false plays a webhook that never arrived. */
  webhook?: boolean;
}

/** A webhook as BTCPay posts it: the exact body text and its headers (BTCPay-Sig among them). */
export interface FakeWebhookRequest {
  body: string;
  headers: Record<string, string>;
  deliveryId: string;
}

/** The store an invoice belongs to and the webhook that reports on it. */
export interface FakeStore {
  storeId: string;
  webhookId: string;
  webhookSecret: string;
  /** Epoch milliseconds. */
  now: () => number;
}

const SETTLED_BY: Record<FakeWebhookType, FakeInvoiceStatus | null> = {
  InvoiceCreated: null,
  InvoiceReceivedPayment: null,
  InvoiceProcessing: 'Processing',
  InvoiceSettled: 'Settled',
  InvoiceExpired: 'Expired',
  InvoiceInvalid: 'Invalid',
};

/** The invoice's status once the event `type` happened to it (created, a payment seen: unchanged). */
export function statusAfter(type: FakeWebhookType, status: FakeInvoiceStatus): FakeInvoiceStatus {
  return SETTLED_BY[type] ?? status;
}

/** A new invoice from the body of Greenfield's create call, open for `ttlMs`, checked out at `origin`. */
export function createInvoice(body: any, store: FakeStore, origin: string, ttlMs: number): FakeInvoice {
  const id = randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22);
  const created = store.now();
  return {
    id,
    storeId: store.storeId,
    amount: String(body.amount),
    currency: String(body.currency ?? 'USD'),
    status: 'New',
    metadata: body.metadata ?? {},
    redirectURL: body.checkout?.redirectURL ?? null,
    checkoutLink: `${origin}/i/${id}`,
    createdTime: Math.floor(created / 1000),
    expirationTime: Math.floor((created + ttlMs) / 1000),
  };
}

/** The invoice as Greenfield answers GET (and POST) …/invoices. */
export function invoiceData(invoice: FakeInvoice) {
  return {
    id: invoice.id,
    storeId: invoice.storeId,
    amount: invoice.amount,
    currency: invoice.currency,
    type: 'Standard',
    checkoutLink: invoice.checkoutLink,
    status: invoice.status,
    additionalStatus: 'None',
    createdTime: invoice.createdTime,
    expirationTime: invoice.expirationTime,
    monitoringExpiration: invoice.expirationTime + 3600,
    metadata: invoice.metadata,
    checkout: { redirectURL: invoice.redirectURL, redirectAutomatically: true },
  };
}

/** The webhook BTCPay posts for `type` on the invoice (unknown ones too), signed with the store's secret. */
export function signedWebhook(
  store: FakeStore,
  invoiceId: string,
  invoice: FakeInvoice | undefined,
  type: FakeWebhookType,
  opts: WebhookOptions = {},
): FakeWebhookRequest {
  const deliveryId = opts.deliveryId ?? randomBytes(12).toString('base64url');
  const body = JSON.stringify({
    deliveryId,
    webhookId: store.webhookId,
    originalDeliveryId: opts.originalDeliveryId ?? deliveryId,
    isRedelivery: opts.isRedelivery ?? false,
    type,
    timestamp: Math.floor(store.now() / 1000),
    storeId: invoice?.storeId ?? store.storeId,
    invoiceId,
    metadata: invoice?.metadata ?? {},
    ...(type === 'InvoiceSettled' ? { manuallyMarked: false, overPaid: false } : {}),
  });
  const key = opts.badSignature ? `${store.webhookSecret}-wrong` : store.webhookSecret;
  const signature = createHmac('sha256', key).update(body).digest('hex');
  return {
    body,
    deliveryId,
    headers: { 'content-type': 'application/json', 'btcpay-sig': `sha256=${signature}` },
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** The buyer's checkout page: the amount, the status, and a "Pay invoice" button. */
export function checkoutPage(invoice: FakeInvoice): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice ${escapeHtml(invoice.id)}</title></head>
<body><main>
<h1>Pay ${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)}</h1>
<p>Invoice <span data-testid="invoice-id">${escapeHtml(invoice.id)}</span>: <span data-testid="invoice-status">${invoice.status}</span></p>
<form method="post" action="/i/${encodeURIComponent(invoice.id)}/pay">
<button type="submit">Pay invoice</button>
</form>
</main></body></html>`;
}
