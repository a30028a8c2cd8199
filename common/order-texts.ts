/*
 * What the buyer's side of payments says and shares with the server, free of zod so the public
 * pages (buyer, /order/{id}) can import it without the schemas (see common/payments.ts for those).
 */

/**
 * pending: waiting for payment (holds a slot); paid: the code is ready; expired / invalid: ended.
 * underpaid / mismatch: BTCPay settled an invoice that does not match the order's price (less paid,
 * or another currency or amount), so no code was made and the operator decides; refunded: the
 * operator gave such a payment back.
 */
export const ORDER_STATUSES = [
  'pending',
  'paid',
  'expired',
  'invalid',
  'underpaid',
  'mismatch',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * What BTCPay says about an order's payment beyond its status (its invoice's status and
 * additionalStatus): processing: paid in full, waiting for confirmations (nothing more to pay);
 * partial: part of the price arrived; late: paid in full after the invoice expired (a sale all the
 * same); over: more than the price arrived (the code is made; the difference is the operator's).
 */
export const ORDER_PAYMENT_STATES = ['processing', 'partial', 'late', 'over'] as const;
export type OrderPaymentState = (typeof ORDER_PAYMENT_STATES)[number];

/** The code's mail: due (to send, or to retry), sent, failed (given up after retries or refused). */
export const ORDER_MAIL_STATES = ['due', 'sent', 'failed'] as const;
export type OrderMailState = (typeof ORDER_MAIL_STATES)[number];

/** BTCPay Server's webhook, which the operator enters in the store's Webhooks settings. */
export const BTCPAY_WEBHOOK_PATH = '/api/payments/btcpay/webhook';

/**
 * The webhook's events Scanline needs, as BTCPay Server names them in the store's webhook settings
 * and docs/payments.md lists them (a payment after expiry comes only as a payment event, never as
 * settled). System Configuration's Payment Processor tab lists the same.
 */
export const BTCPAY_WEBHOOK_EVENTS = [
  'An invoice has been settled',
  'An invoice is processing',
  'An invoice has received a payment',
  'A payment has been settled',
  'An invoice has expired',
  'An invoice became invalid',
] as const;

/** The order's page; its secret follows in the fragment (`/order/{id}#{secret}`) so it never reaches a log. */
export const ORDER_PAGE_PREFIX = '/order/';

/**
 * Where the buyer opens an order's checkout: the app holds the order's slot for its invoice's life
 * from then on, and sends the buyer on to BTCPay's checkout page.
 */
export function orderCheckoutPath(orderId: string): string {
  return `/api/public/orders/${encodeURIComponent(orderId)}/checkout`;
}

/** An order id: 16 URL-safe characters (96 random bits). */
export const ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;
/** An order secret: 22 URL-safe characters (128 random bits). */
export const ORDER_SECRET_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** How often the order page asks for its order's status while it waits for the payment. */
export const ORDER_POLL_MS = 3_000;
/**
 * How long after the checkout closed an expired or invalid order is still asked about every
 * ORDER_POLL_MS (a late payment, or the operator's decision); after it, every ORDER_OPERATOR_POLL_MS.
 */
export const ORDER_LATE_WATCH_MS = 60 * 60_000;
/** How often it asks while an underpaid or mismatched payment waits for the operator's decision. */
export const ORDER_OPERATOR_POLL_MS = 60_000;

export const ORDER_TEXTS = {
  payNow: 'Pay now',
  /** POST /api/public/orders when no slot is free (409), as the landing page's button reads. */
  soldOut: 'Sold Out',
  /** POST /api/public/orders when no processor is connected (404). */
  notAvailable: 'Online payment is not available',
  /** BTCPay Server did not answer or refused the invoice (503). */
  processorUnavailable: 'The payment processor is not answering. Please try again in a minute.',
  /** An unknown order, or a wrong secret (the same 404). */
  notFound: 'Order not found',
  waiting: 'Waiting for payment',
  paid: 'Payment received',
  expired: 'This order has expired',
  invalid: 'This payment was not accepted',
  /** underpaid and mismatch: the payment did not match the order, so no code was made. */
  mismatch: 'Your payment did not match this order',
  mismatchHelp:
    'No code was made automatically. Open a ticket in the community chat with your order ID: we will check the payment and either send your code or refund it.',
  refunded: 'This payment was refunded',
  startAgain: 'Start a new order',
  /** Processing: paid in full, the network confirms it. No way to pay again is offered. */
  processing: 'Payment received — waiting for confirmations',
  processingHelp:
    'Your payment reached the checkout and the network is confirming it. There is nothing more to pay: keep this page open and your code shows here once it is confirmed.',
  /** Part of the price arrived while the checkout is still open. */
  partial: 'Part of your payment arrived',
  partialHelp:
    'Pay the rest at the checkout before it closes, with the same invoice. If the checkout closes first, open a ticket in the community chat with your order ID: the operator completes the order or refunds what arrived.',
  /** Paid in full after the checkout closed: accepted. */
  paidLate: 'Your payment arrived after the checkout closed; it was accepted all the same.',
  /** More than the price arrived: the code is made. */
  paidOver:
    'You paid more than the price. Your code is below; for the difference, open a ticket in the community chat with your order ID.',
  /** The code was redeemed: the key it made is what the buyer holds now. */
  redeemed: 'Your code was redeemed',
  redeemedHelp:
    'Premium was activated with this code. Your key, its time left and its devices are on My key, where the order link or the code finds it.',
  /** Expired, but a late payment may still come: the page keeps checking. */
  expiredWatching:
    'If you paid after the checkout closed, keep this page open: an accepted late payment shows its code here.',
  failedToLoad: 'Failed to load the order',
} as const;

/** Why POST /api/public/orders answered 409 besides Sold Out (its `reason` field). */
export const ORDER_REFUSAL_REASONS = {
  /** The address (an IPv6 /64) already has an order waiting for payment. */
  orderPending: 'order_pending',
  /** Slots are unsold, but pending orders hold them all. */
  slotsReserved: 'slots_reserved',
} as const;

/** A time as a clock shows it, 24-hour ("14:05"): the buyer's own zone, or `timeZone` ('UTC' for the server's words). */
export function clockTime(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone,
  });
}

/** While only pending orders' holds stop a buyer (Sold Out stays for slots really sold). */
export function slotsReservedText(slots: number, freeAgainBy: string): string {
  return `${slots} ${slots === 1 ? 'slot' : 'slots'} reserved by pending payments, free again by ${freeAgainBy}`;
}

/** A second order from an address whose first is still waiting for payment. */
export function orderPendingText(until: string): string {
  return `An order from your address is already waiting for payment: finish it at its checkout, or order again after ${until}.`;
}

/** The steps the order page shows with the code once it is paid. */
export const REDEEM_STEPS = [
  'Copy your redemption code.',
  'Load the Scanline script in your executor (the loader on the Scripts page).',
  "Paste the code into the script's redeem panel and press 'Redeem & load premium'.",
  'Premium activates on this device at once. Check your key and its devices on My key.',
] as const;

/** The lookup for a lost order page (POST /api/public/orders/lookup): the invoice id plus the e-mail. */
export const ORDER_LOOKUP_TEXTS = {
  title: 'Lost your order page?',
  help: 'Enter the invoice ID from the BTCPay Server receipt and the e-mail you gave at Pay now: the order page opens again.',
  invoiceLabel: 'Invoice ID',
  emailLabel: 'E-mail',
  submit: 'Find my order',
  /** The same answer (404) for an unknown invoice, a wrong e-mail and an order without one. */
  notFound: 'No order matches this invoice ID and e-mail',
} as const;

/** The Pay now form's optional e-mail. */
export const ORDER_EMAIL_TEXTS = {
  label: 'E-mail (optional)',
  help: 'For this order only: we send your code and your order link there once you paid, and with the invoice ID it finds your order page again.',
  invalid: 'email must be an e-mail address like you@example.com',
} as const;

/** An e-mail as the Orders screen shows it: the name's first character, then the domain (j***@example.com). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
