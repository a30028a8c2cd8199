import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_EVENTS, clockTime, orderCheckoutPath, slotsReservedText } from './order-texts.ts';

describe('order texts', () => {
  it('reads a time as a 24-hour clock in the given zone', () => {
    expect(clockTime('2026-12-01T14:05:00.000Z', 'UTC')).toBe('14:05');
    expect(clockTime('2026-12-01T00:30:00.000Z', 'UTC')).toBe('00:30');
    expect(clockTime('2026-12-01T14:05:00.000Z', 'America/New_York')).toBe('09:05');
  });

  it('counts reserved slots in the right number', () => {
    expect(slotsReservedText(1, '14:05')).toBe('1 slot reserved by pending payments, free again by 14:05');
    expect(slotsReservedText(3, '14:05')).toBe('3 slots reserved by pending payments, free again by 14:05');
  });

  it("names an order's checkout under the public orders API", () => {
    expect(orderCheckoutPath('AbCdEfGhIjKlMnOp')).toBe('/api/public/orders/AbCdEfGhIjKlMnOp/checkout');
  });

  it('asks for the webhook events the manual names, in its words', () => {
    const manual = readFileSync(new URL('../docs/payments.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const event of BTCPAY_WEBHOOK_EVENTS) expect(manual).toContain(`*${event}*`);
  });
});
