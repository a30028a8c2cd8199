import { ORDER_PRICE } from '../../../common/payments.ts';
import {
  type OutboundResponse,
  OutboundTimeoutError,
  OutboundUrlError,
  sendOutbound,
} from '../notifications/outbound-request.ts';
import { paidFromPaymentMethods } from './invoice-check.ts';
import type { BtcpayConnection } from './payment-settings.service.ts';

/*
 * The Greenfield calls Scanline makes to BTCPay Server: create an invoice, read one back, read the
 * store (the admin's connection check). The API key travels only in the Authorization header and
 * appears in no error message or log line. A URL entered on the Payment Processor tab is held to
 * the notification destinations' rules at every call (public addresses only, the checked address
 * connected to); one from the environment is the operator's and is sent as it is.
 */

/** Long enough for a slow BTCPay Server, short enough that a buyer is not left waiting for nothing. */
export const BTCPAY_TIMEOUT_MS = 10_000;
/** An invoice with its payments is a few KiB; far more is not BTCPay's answer. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export const INVOICE_STATUSES = ['New', 'Processing', 'Expired', 'Invalid', 'Settled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** BTCPay Server did not answer, answered 5xx, or answered something that is not its JSON. Try again later. */
export class BtcpayUnavailableError extends Error {
  override name = 'BtcpayUnavailableError';
}

/** BTCPay Server refused the call (401/403: the API key; 404: the store or invoice; other 4xx). */
export class BtcpayRefusedError extends Error {
  override name = 'BtcpayRefusedError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CreatedInvoice {
  id: string;
  checkoutLink: string;
  status: string;
  /** Epoch milliseconds (Greenfield answers unix seconds). */
  expiresAt: number;
}

export interface Invoice {
  id: string;
  storeId: string;
  /** One of INVOICE_STATUSES, or whatever a newer BTCPay says (treated as still open). */
  status: string;
  /** metadata.orderId when it is text. */
  orderId: string | null;
  /** Epoch milliseconds. */
  expiresAt: number | null;
  /** The invoice's price (decimal text) and currency as BTCPay has them; null when it did not say. */
  amount: string | null;
  currency: string | null;
  /**
   * What was paid, in the invoice's currency: BTCPay's `paidAmount` (2.1.2 and later) or, for an
   * older BTCPay and a settled invoice, worked out from its payment methods. Null when unknown.
   */
  paidAmount: string | null;
  /** None, PaidLate, PaidPartial, Marked (settled by hand in BTCPay), PaidOver. */
  additionalStatus: string | null;
  /** The store's payment tolerance for this invoice, in percent (checkout.paymentTolerance). */
  paymentTolerance: number;
}

export interface StoreCheck {
  reachable: boolean;
  storeName: string | null;
  error: string | null;
}

function refusalText(status: number, what: string): string {
  if (status === 401) return `BTCPay Server refused the API key (401) while ${what}`;
  if (status === 403)
    return `The API key lacks a permission (403) while ${what}: it needs btcpay.store.canviewinvoices and btcpay.store.cancreateinvoice`;
  if (status === 404) return `BTCPay Server does not know the store or invoice (404) while ${what}`;
  return `BTCPay Server refused the request (${status}) while ${what}`;
}

/** One Greenfield call: its JSON answer, or a typed error saying why not. */
async function greenfield(
  connection: BtcpayConnection,
  method: 'GET' | 'POST',
  path: string,
  what: string,
  body?: unknown,
): Promise<unknown> {
  let res: OutboundResponse;
  try {
    res = await sendOutbound(
      `${connection.url}/api/v1${path}`,
      {
        method,
        headers: {
          authorization: `token ${connection.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: BTCPAY_TIMEOUT_MS,
        maxAnswerBytes: MAX_ANSWER_BYTES,
      },
      connection.policy,
    );
  } catch (error) {
    const reason =
      error instanceof OutboundTimeoutError
        ? `no answer within ${BTCPAY_TIMEOUT_MS / 1000} s`
        : error instanceof OutboundUrlError
          ? `its address is refused: ${error.message}`
          : error instanceof Error
            ? error.message
            : 'the connection failed';
    throw new BtcpayUnavailableError(`BTCPay Server did not answer while ${what}: ${reason}`);
  }
  if (res.status >= 500 || res.status === 429) {
    throw new BtcpayUnavailableError(`BTCPay Server answered ${res.status} while ${what}`);
  }
  if (res.status >= 400) throw new BtcpayRefusedError(res.status, refusalText(res.status, what));
  if (res.status < 200 || res.status >= 300) {
    throw new BtcpayUnavailableError(`BTCPay Server answered ${res.status} while ${what}`);
  }
  try {
    return JSON.parse(res.body);
  } catch {
    throw new BtcpayUnavailableError(`BTCPay Server's answer was not JSON while ${what}`);
  }
}

/** A Greenfield answer that must be one object. */
async function greenfieldObject(...args: Parameters<typeof greenfield>): Promise<Record<string, unknown>> {
  const answer = await greenfield(...args);
  if (typeof answer === 'object' && answer !== null && !Array.isArray(answer)) {
    return answer as Record<string, unknown>;
  }
  throw new BtcpayUnavailableError(`BTCPay Server's answer was not JSON while ${args[3]}`);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const secondsToMs = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) : null;

const storePath = (connection: BtcpayConnection) => `/stores/${encodeURIComponent(connection.storeId)}`;

/** Creates the order's 40 USD invoice; the checkout sends the buyer back to `redirectUrl`. */
export async function createInvoice(
  connection: BtcpayConnection,
  orderId: string,
  redirectUrl: string,
): Promise<CreatedInvoice> {
  const what = 'creating an invoice';
  const answer = await greenfieldObject(connection, 'POST', `${storePath(connection)}/invoices`, what, {
    amount: ORDER_PRICE.amount,
    currency: ORDER_PRICE.currency,
    metadata: { orderId },
    checkout: { redirectURL: redirectUrl, redirectAutomatically: true },
  });
  const id = text(answer.id);
  const checkoutLink = text(answer.checkoutLink);
  const expiresAt = secondsToMs(answer.expirationTime);
  if (!id || !checkoutLink || expiresAt === null) {
    throw new BtcpayUnavailableError(
      `BTCPay Server's answer lacked the invoice's id, link or expiry while ${what}`,
    );
  }
  return { id, checkoutLink, status: text(answer.status) ?? 'New', expiresAt };
}

/** Decimal text as Greenfield writes amounts ("40", "0.01"); null for anything else. */
const decimal = (value: unknown): string | null =>
  typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? value.trim() : null;

/**
 * Reads an invoice back (what the webhook and the reconciler act on), with what was paid. Null when
 * BTCPay does not know it (404).
 */
export async function getInvoice(connection: BtcpayConnection, invoiceId: string): Promise<Invoice | null> {
  const path = `${storePath(connection)}/invoices/${encodeURIComponent(invoiceId)}`;
  let answer: Record<string, unknown>;
  try {
    answer = await greenfieldObject(connection, 'GET', path, 'reading an invoice');
  } catch (error) {
    if (error instanceof BtcpayRefusedError && error.status === 404) return null;
    throw error;
  }
  const id = text(answer.id);
  const status = text(answer.status);
  if (!id || !status) throw new BtcpayUnavailableError("BTCPay Server's invoice lacked its id or status");
  const metadata = answer.metadata;
  const orderId =
    typeof metadata === 'object' && metadata !== null
      ? text((metadata as Record<string, unknown>).orderId)
      : null;
  const checkout = (answer.checkout ?? {}) as Record<string, unknown>;
  const tolerance = Number(checkout.paymentTolerance ?? 0);
  const amount = decimal(answer.amount);
  let paidAmount = decimal(answer.paidAmount);
  if (paidAmount === null && status === 'Settled' && amount !== null) {
    // A BTCPay older than 2.1.2 says what was paid only per payment method.
    const methods = await greenfield(connection, 'GET', `${path}/payment-methods`, 'reading its payments');
    paidAmount = paidFromPaymentMethods(amount, methods);
  }
  return {
    id,
    storeId: text(answer.storeId) ?? connection.storeId,
    status,
    orderId,
    expiresAt: secondsToMs(answer.expirationTime),
    amount,
    currency: text(answer.currency),
    paidAmount,
    additionalStatus: text(answer.additionalStatus),
    paymentTolerance: Number.isFinite(tolerance) && tolerance > 0 && tolerance <= 100 ? tolerance : 0,
  };
}

/** Why BTCPay refused the store, in words an operator can act on. */
function storeRefusal(status: number, storeId: string): string {
  if (status === 401)
    return 'BTCPay Server refused the API key (401): check the key in your account’s API keys';
  if (status === 403)
    return 'The API key lacks a permission for this store (403): give it btcpay.store.canviewstoresettings, btcpay.store.cancreateinvoice and btcpay.store.canviewinvoices';
  if (status === 404)
    return `BTCPay Server has no store ${storeId} (404): check the store ID in the store's settings`;
  return `BTCPay Server answered ${status} when asked for the store`;
}

/** Whether BTCPay Server answers for the store with this key: the admin's connection check. */
export async function checkBtcpayStore(connection: BtcpayConnection): Promise<StoreCheck> {
  try {
    const store = await greenfieldObject(connection, 'GET', storePath(connection), 'reading the store');
    return { reachable: true, storeName: text(store.name), error: null };
  } catch (error) {
    if (error instanceof BtcpayRefusedError) {
      return { reachable: false, storeName: null, error: storeRefusal(error.status, connection.storeId) };
    }
    if (error instanceof BtcpayUnavailableError)
      return { reachable: false, storeName: null, error: error.message };
    throw error;
  }
}
