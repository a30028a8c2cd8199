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
  | 'InvoiceInvalid'
  | 'InvoicePaymentSettled'
  | 'InvoiceExpiredPaidPartial'
  | 'InvoicePaidAfterExpiration';

export interface FakeInvoice {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  status: FakeInvoiceStatus;
  /** What the buyer paid so far, in the invoice's currency (decimal text). */
  paid: string;
  /** Settled by hand in BTCPay ("Mark as settled"): additionalStatus Marked. */
  marked: boolean;
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
  /** The event's own fields (afterExpiration, partiallyPaid, overPaid, manuallyMarked), as BTCPay adds them. */
  fields?: Record<string, unknown>;
}

export interface StatusChangeOptions {
  /** Also send the matching webhook (default true); false plays a webhook that never arrived. */
  webhook?: boolean;
  /**
   * What the buyer paid, in the invoice's currency. Settling pays the invoice's amount unless this
   * says otherwise (BTCPay settles within the store's payment tolerance, or when marked by hand).
   */
  paid?: string;
  /** Settled by hand in BTCPay's invoice list. */
  marked?: boolean;
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
  InvoicePaymentSettled: null,
  InvoiceExpiredPaidPartial: null,
  InvoicePaidAfterExpiration: null,
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
    paid: '0',
    marked: false,
    metadata: body.metadata ?? {},
    redirectURL: body.checkout?.redirectURL ?? null,
    checkoutLink: `${origin}/i/${id}`,
    createdTime: Math.floor(created / 1000),
    expirationTime: Math.floor((created + ttlMs) / 1000),
  };
}

/**
 * BTCPay's additionalStatus: what the payments say beyond the status, by InvoiceWatcher's rules
 * (BTCPayServer/HostedServices/InvoiceWatcher.cs UpdateInvoice): an Expired invoice paid in full is
 * PaidLate and stays Expired (it never becomes Processing or Settled); New or Expired with part of
 * the price paid is PaidPartial; Processing or Settled with more than the price is PaidOver.
 */
export function additionalStatus(invoice: FakeInvoice): string {
  if (invoice.marked) return 'Marked';
  const paid = Number(invoice.paid);
  const amount = Number(invoice.amount);
  if (invoice.status === 'Expired' && paid >= amount) return 'PaidLate';
  if ((invoice.status === 'New' || invoice.status === 'Expired') && paid > 0 && paid < amount)
    return 'PaidPartial';
  if ((invoice.status === 'Processing' || invoice.status === 'Settled') && paid > amount) return 'PaidOver';
  return 'None';
}

/** What is still due on the invoice (decimal text). */
export const dueOn = (invoice: FakeInvoice) =>
  String(Math.max(0, Number(invoice.amount) - Number(invoice.paid)));

/**
 * The checkout's "Pay invoice": what is due arrives (Processing, or PaidLate on an expired invoice),
 * and on a New invoice it confirms at once (Settled) unless `confirm` is false. The webhooks BTCPay sends.
 */
export function payAtCheckout(invoice: FakeInvoice, confirm: boolean) {
  const events = receivePayment(invoice, dueOn(invoice));
  if (invoice.status === 'Processing' && confirm) {
    invoice.status = 'Settled';
    events.push({ type: 'InvoiceSettled', fields: {} });
  }
  return events;
}

/** What BTCPay does when a payment of `amount` arrives on the invoice, and the webhooks it sends then. */
export function receivePayment(
  invoice: FakeInvoice,
  amount: string,
): Array<{ type: FakeWebhookType; fields: Record<string, unknown> }> {
  const wasExpired = invoice.status === 'Expired' || invoice.status === 'Invalid';
  const wasPaidLate = additionalStatus(invoice) === 'PaidLate';
  invoice.paid = String(Number((Number(invoice.paid) + Number(amount)).toFixed(8)));
  const full = Number(invoice.paid) >= Number(invoice.amount);
  const events: Array<{ type: FakeWebhookType; fields: Record<string, unknown> }> = [
    { type: 'InvoiceReceivedPayment', fields: { afterExpiration: wasExpired } },
  ];
  if (invoice.status === 'New' && full) {
    // Paid in full: Processing until the payment confirms (settle() plays the confirmation).
    invoice.status = 'Processing';
    events.push({
      type: 'InvoiceProcessing',
      fields: { overPaid: Number(invoice.paid) > Number(invoice.amount) },
    });
  } else if (invoice.status === 'Expired' && full && !wasPaidLate) {
    // Stays Expired with PaidLate: no InvoiceProcessing, no InvoiceSettled, ever.
    events.push({ type: 'InvoicePaidAfterExpiration', fields: {} });
  }
  return events;
}

/**
 * The invoice as Greenfield answers GET (and POST) …/invoices. `legacy` plays a BTCPay older than
 * 2.1.2, which does not say paidAmount (only its payment methods do).
 */
export function invoiceData(invoice: FakeInvoice, legacy = false) {
  return {
    id: invoice.id,
    storeId: invoice.storeId,
    amount: invoice.amount,
    ...(legacy ? {} : { paidAmount: invoice.paid }),
    currency: invoice.currency,
    type: 'Standard',
    checkoutLink: invoice.checkoutLink,
    status: invoice.status,
    additionalStatus: additionalStatus(invoice),
    createdTime: invoice.createdTime,
    expirationTime: invoice.expirationTime,
    monitoringExpiration: invoice.expirationTime + 3600,
    metadata: invoice.metadata,
    checkout: { redirectURL: invoice.redirectURL, redirectAutomatically: true, paymentTolerance: 0 },
  };
}

/** The fake's one exchange rate: a BTC is worth this much of any invoice currency. */
const BTC_RATE = 50_000;
const btc = (amount: number) => (amount / BTC_RATE).toFixed(8);

/**
 * GET …/invoices/{id}/payment-methods as Greenfield answers it: one on-chain BTC method whose
 * `amount` is the whole due and `totalPaid` every payment, both in BTC at the method's `rate`.
 */
export function paymentMethodsData(invoice: FakeInvoice) {
  const amount = Number(invoice.amount);
  const paid = Number(invoice.paid);
  return [
    {
      paymentMethodId: 'BTC-CHAIN',
      currency: 'BTC',
      activated: true,
      destination: 'bc1qfakefakefakefakefakefakefakefakefake',
      paymentLink: `bitcoin:bc1qfake?amount=${btc(amount)}`,
      rate: String(BTC_RATE),
      amount: btc(amount),
      totalPaid: btc(paid),
      paymentMethodPaid: btc(paid),
      due: btc(amount - paid),
      paymentMethodFee: '0',
      payments: [],
    },
  ];
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
    ...(type === 'InvoiceSettled'
      ? {
          manuallyMarked: invoice?.marked ?? false,
          overPaid: invoice ? additionalStatus(invoice) === 'PaidOver' : false,
        }
      : {}),
    ...(type === 'InvoiceExpired'
      ? { partiallyPaid: invoice ? additionalStatus(invoice) === 'PaidPartial' : false }
      : {}),
    ...opts.fields,
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
