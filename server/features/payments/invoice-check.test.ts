import { describe, expect, it } from 'vitest';
import type { Invoice } from './btcpay-client.ts';
import { paidFromPaymentMethods, readInvoice, verifySettledInvoice } from './invoice-check.ts';

const price = { amount: '40', currency: 'USD' };
const settled = (over: Partial<Invoice> = {}): Invoice => ({
  id: 'INV1',
  storeId: 'S',
  status: 'Settled',
  orderId: null,
  expiresAt: null,
  amount: '40',
  currency: 'USD',
  paidAmount: '40',
  additionalStatus: 'None',
  paymentTolerance: 0,
  ...over,
});

describe('verifySettledInvoice', () => {
  it('pays for the order when the invoice is its price and was paid in full, or more', () => {
    expect(verifySettledInvoice(price, settled())).toEqual({ status: 'paid' });
    expect(verifySettledInvoice(price, settled({ amount: '40.00', paidAmount: '40.00' }))).toEqual({
      status: 'paid',
    });
    expect(verifySettledInvoice(price, settled({ paidAmount: '52', additionalStatus: 'PaidOver' }))).toEqual({
      status: 'paid',
    });
    // Paid in another currency's coins, converted: BTCPay's rounding to cents is no shortfall.
    expect(verifySettledInvoice(price, settled({ paidAmount: '39.999999' }))).toEqual({ status: 'paid' });
  });

  it('says underpaid for an invoice below the price, or paid short of it beyond the tolerance', () => {
    expect(verifySettledInvoice(price, settled({ amount: '0.01', paidAmount: '0.01' }))).toEqual({
      status: 'underpaid',
      received: { amount: '0.01', currency: 'USD' },
    });
    expect(verifySettledInvoice(price, settled({ paidAmount: '39' }))).toEqual({
      status: 'underpaid',
      received: { amount: '39', currency: 'USD' },
    });
    // The store's payment tolerance is BTCPay's own rule for settling: within it, the order is paid.
    expect(verifySettledInvoice(price, settled({ paidAmount: '39', paymentTolerance: 5 }))).toEqual({
      status: 'paid',
    });
    expect(verifySettledInvoice(price, settled({ paidAmount: '37', paymentTolerance: 5 })).status).toBe(
      'underpaid',
    );
  });

  it('says mismatch for another currency, another amount above the price, or no amount', () => {
    expect(verifySettledInvoice(price, settled({ currency: 'EUR' }))).toEqual({
      status: 'mismatch',
      received: { amount: '40', currency: 'EUR' },
    });
    expect(verifySettledInvoice(price, settled({ currency: null })).status).toBe('mismatch');
    expect(verifySettledInvoice(price, settled({ amount: '400', paidAmount: '400' })).status).toBe(
      'mismatch',
    );
    expect(verifySettledInvoice(price, settled({ amount: null })).status).toBe('mismatch');
  });

  it("takes an invoice settled by hand in BTCPay (Marked) as the store's decision", () => {
    expect(verifySettledInvoice(price, settled({ paidAmount: '0', additionalStatus: 'Marked' }))).toEqual({
      status: 'paid',
    });
    // Not another invoice's amount, though.
    expect(
      verifySettledInvoice(price, settled({ amount: '1', paidAmount: '0', additionalStatus: 'Marked' }))
        .status,
    ).toBe('underpaid');
  });
});

describe('paidFromPaymentMethods', () => {
  it("works out what was paid in the invoice's currency from one method's totalPaid and amount", () => {
    const methods = [{ currency: 'BTC', rate: '50000', amount: '0.00080000', totalPaid: '0.00040000' }];
    expect(paidFromPaymentMethods('40', methods)).toBe('20');
    expect(paidFromPaymentMethods('40', [{ amount: '0.0008', totalPaid: '0.0008' }])).toBe('40');
    expect(
      paidFromPaymentMethods('40', [
        { amount: '0', totalPaid: '0' },
        { amount: '2', totalPaid: '1' },
      ]),
    ).toBe('20');
    expect(paidFromPaymentMethods('40', [])).toBeNull();
    expect(paidFromPaymentMethods('40', { not: 'a list' })).toBeNull();
    expect(paidFromPaymentMethods('40', [{ amount: 'lots', totalPaid: '1' }])).toBeNull();
  });
});

describe('readInvoice (what BTCPay InvoiceWatcher leaves an invoice at)', () => {
  const invoice = (status: string, additionalStatus: string, paidAmount: string) => ({
    status,
    additionalStatus,
    paidAmount,
    amount: '40',
    currency: 'USD',
    paymentTolerance: 0,
  });

  it('reads Expired + PaidLate as paid late, and Expired + PaidPartial as ended with what arrived', () => {
    expect(readInvoice(price, invoice('Expired', 'PaidLate', '40'))).toEqual({
      kind: 'paid',
      verdict: { status: 'paid' },
      late: true,
      over: null,
    });
    expect(readInvoice(price, invoice('Expired', 'PaidPartial', '10'))).toEqual({
      kind: 'ended',
      status: 'expired',
      partial: { amount: '10', currency: 'USD' },
    });
    expect(readInvoice(price, invoice('Expired', 'None', '0'))).toEqual({
      kind: 'ended',
      status: 'expired',
      partial: null,
    });
  });

  it('reads New + PaidPartial as open with what arrived, Processing as confirming, and PaidOver as paid over', () => {
    expect(readInvoice(price, invoice('New', 'PaidPartial', '15'))).toEqual({
      kind: 'open',
      partial: { amount: '15', currency: 'USD' },
    });
    expect(readInvoice(price, invoice('Processing', 'PaidOver', '55'))).toEqual({ kind: 'processing' });
    expect(readInvoice(price, invoice('Settled', 'PaidOver', '55'))).toMatchObject({
      kind: 'paid',
      late: false,
      over: { amount: '55', currency: 'USD' },
    });
  });
});
