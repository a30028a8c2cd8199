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

/** BTCPay Server's webhook, which the operator enters in the store's Webhooks settings. */
export const BTCPAY_WEBHOOK_PATH = '/api/payments/btcpay/webhook';

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
