import type { Money } from '../../../common/payments.ts';

/*
 * Whether a settled invoice, as BTCPay Server has it, pays for the order: the invoice must be in
 * the order's currency and for its price, and what was paid must reach the price (less the store's
 * payment tolerance, BTCPay's own rule for settling). Paying more is fine. Pure: no I/O.
 */

/** paid: make the code; underpaid: less than the price; mismatch: another currency or amount. */
export type PaymentVerdict = { status: 'paid' } | { status: 'underpaid' | 'mismatch'; received: Money };

/** Amounts are compared in hundredths (cents): BTCPay rounds what was paid to the currency's digits. */
const hundredths = (amount: string): number => Math.round(Number(amount) * 100);

/** What of an invoice (btcpay-client's Invoice) the check reads. */
export interface InvoicePayment {
  amount: string | null;
  currency: string | null;
  paidAmount: string | null;
  additionalStatus: string | null;
  /** Percent. */
  paymentTolerance: number;
}

/** The order's price, as it was placed. */
export interface OrderPrice {
  amount: string;
  currency: string;
}

/** What a settled invoice means for its order. */
export function verifySettledInvoice(order: OrderPrice, invoice: InvoicePayment): PaymentVerdict {
  const invoiced = invoice.amount;
  const received: Money = {
    amount: invoice.paidAmount ?? invoiced ?? '0',
    currency: invoice.currency ?? 'unknown',
  };
  if (invoice.currency === null || invoice.currency.toUpperCase() !== order.currency.toUpperCase()) {
    return { status: 'mismatch', received };
  }
  if (invoiced === null) return { status: 'mismatch', received };
  const price = hundredths(order.amount);
  if (hundredths(invoiced) < price) return { status: 'underpaid', received };
  // Not the invoice this order asked for (Scanline creates it for the price, exactly).
  if (hundredths(invoiced) > price) return { status: 'mismatch', received };
  // Settled by hand in BTCPay ("Mark as settled"): the store's operator decided it was paid.
  if (invoice.additionalStatus === 'Marked') return { status: 'paid' };
  if (invoice.paidAmount !== null) {
    const enough = price * (1 - invoice.paymentTolerance / 100);
    if (hundredths(invoice.paidAmount) < Math.floor(enough)) return { status: 'underpaid', received };
  }
  return { status: 'paid' };
}

const decimalText = (value: unknown): number | null =>
  typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : null;

/**
 * What was paid in the invoice's currency, from Greenfield's payment methods
 * (`GET …/invoices/{id}/payment-methods`), for a BTCPay too old to say `paidAmount`. Each method
 * gives `totalPaid` (every payment, converted to its currency) against `amount` (the whole due in
 * it), so one method's ratio of the two, times the invoice's amount, is what was paid. Null when the
 * answer holds no method that says both.
 */
export function paidFromPaymentMethods(invoiceAmount: string, methods: unknown): string | null {
  if (!Array.isArray(methods)) return null;
  for (const method of methods) {
    if (typeof method !== 'object' || method === null) continue;
    const { amount, totalPaid } = method as Record<string, unknown>;
    const due = decimalText(amount);
    const paid = decimalText(totalPaid);
    if (due === null || paid === null || due <= 0) continue;
    const received = (Number(invoiceAmount) * paid) / due;
    // Eight decimals at most, without trailing zeros ("40", "0.01").
    return String(Number(received.toFixed(8)));
  }
  return null;
}

/** What an invoice, as BTCPay has it now, asks of its order (applyInvoice acts on it). */
export type InvoiceReading =
  /** New: still open; `partial` when part of the price arrived (PaidPartial). */
  | { kind: 'open'; partial: Money | null }
  /** Processing: paid in full, confirming. Nothing more to pay; the slot stays held. */
  | { kind: 'processing' }
  /** Settled, or Expired + PaidLate (BTCPay never settles a late payment): paid if the amount is right. */
  | { kind: 'paid'; verdict: PaymentVerdict; late: boolean; over: Money | null }
  /** Expired or Invalid with nothing (or not enough) paid; `partial`: what arrived before it closed. */
  | { kind: 'ended'; status: 'expired' | 'invalid'; partial: Money | null };

/**
 * Reads an invoice as BTCPay's InvoiceWatcher leaves it: a payment after expiry keeps the invoice
 * `Expired` with additionalStatus `PaidLate` (and no InvoiceSettled ever comes), a partial payment
 * keeps it `New` (or `Expired` once it closes) with `PaidPartial`, and paying more says `PaidOver`
 * on `Processing` and `Settled`.
 */
export function readInvoice(order: OrderPrice, invoice: InvoicePayment & { status: string }): InvoiceReading {
  const received: Money = { amount: invoice.paidAmount ?? '0', currency: invoice.currency ?? order.currency };
  const paidSomething = invoice.paidAmount !== null && hundredths(invoice.paidAmount) > 0;
  const late = invoice.status === 'Expired' && invoice.additionalStatus === 'PaidLate';
  if (invoice.status === 'Settled' || late) {
    const verdict = verifySettledInvoice(order, invoice);
    const over =
      verdict.status === 'paid' &&
      invoice.paidAmount !== null &&
      hundredths(invoice.paidAmount) > hundredths(order.amount)
        ? received
        : null;
    return { kind: 'paid', verdict, late, over };
  }
  if (invoice.status === 'Processing') return { kind: 'processing' };
  if (invoice.status === 'Expired' || invoice.status === 'Invalid') {
    const status = invoice.status === 'Expired' ? 'expired' : 'invalid';
    return { kind: 'ended', status, partial: paidSomething ? received : null };
  }
  // New, or a status a newer BTCPay adds: still open.
  return { kind: 'open', partial: paidSomething ? received : null };
}
