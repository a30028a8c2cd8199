import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leavePageFor } from '@/lib/navigation.ts';
import { json, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { ORDER_EMAIL_TEXTS } from '../../../common/order-texts.ts';
import { PayNow } from './buyer-pay-now.tsx';
import type { SlotView } from './slot-availability.tsx';

vi.mock('@/lib/navigation.ts', () => ({ leavePageFor: vi.fn() }));

const SLOTS: SlotView = {
  available: 3,
  total: 30,
  known: true,
  soldOut: false,
  freePercent: 10,
  reserved: null,
  heldOnly: false,
};

afterEach(() => {
  vi.mocked(leavePageFor).mockClear();
  vi.unstubAllGlobals();
});

/** The bodies POST /api/public/orders received. */
function orderServer(answer: (body: unknown) => Response) {
  const bodies: unknown[] = [];
  mockFetch({
    'POST /api/public/orders': (init) => {
      const body = init?.body === undefined ? undefined : JSON.parse(String(init.body));
      bodies.push(body);
      return answer(body);
    },
  });
  return bodies;
}

describe('PayNow', () => {
  it('asks for an optional e-mail and sends it with the order', async () => {
    const bodies = orderServer(() => json({ orderId: 'AbCdEfGhIjKlMnOp', checkoutLink: '/c' }, 201));
    renderWithProviders(<PayNow slots={SLOTS} />);
    const email = screen.getByLabelText(ORDER_EMAIL_TEXTS.label);
    expect(screen.getByText(ORDER_EMAIL_TEXTS.help)).toBeTruthy();
    fireEvent.change(email, { target: { value: ' buyer@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('/c'));
    expect(bodies).toEqual([{ email: 'buyer@example.com' }]);
  });

  it('orders without an e-mail when none is given, and shows the server’s word on a bad one', async () => {
    const bodies = orderServer((body) =>
      body === undefined
        ? json({ orderId: 'AbCdEfGhIjKlMnOp', checkoutLink: '/c' }, 201)
        : json({ error: `body.email: ${ORDER_EMAIL_TEXTS.invalid}` }, 400),
    );
    renderWithProviders(<PayNow slots={SLOTS} />);
    fireEvent.change(screen.getByLabelText(ORDER_EMAIL_TEXTS.label), { target: { value: 'nope@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ORDER_EMAIL_TEXTS.invalid);
    expect(leavePageFor).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(ORDER_EMAIL_TEXTS.label), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('/c'));
    expect(bodies).toEqual([{ email: 'nope@' }, undefined]);
  });
});
