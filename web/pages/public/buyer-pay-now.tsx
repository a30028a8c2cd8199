import { useQueryClient } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { leavePageFor } from '@/lib/navigation.ts';
import {
  clockTime,
  ORDER_EMAIL_TEXTS,
  ORDER_REFUSAL_REASONS,
  ORDER_TEXTS,
  orderPendingText,
} from '../../../common/order-texts.ts';
import type { CreateOrderResponse } from '../../../common/payments.ts';
import { purchaseInfoQuery } from './public-queries.ts';
import { type SlotView, slotsReservedNotice } from './slot-availability.tsx';

export const PAY_NOW_TEXTS = {
  note: 'Or pay now at checkout: your redemption code appears the moment the payment settles, no ticket needed.',
  creating: 'Opening checkout...',
  failed: 'Could not reach the server. Try again.',
} as const;

/** Why the server did not take the order. */
type Refusal =
  | { kind: 'soldOut' }
  | { kind: 'reserved'; reserved: { slots: number; freeAgainAt: string } }
  | { kind: 'message'; text: string };

/** Reads a refusal from the server's answer (a 409 carries `reason` and the times, in ISO). */
function refusalOf(cause: unknown): Refusal {
  if (!(cause instanceof ApiError)) return { kind: 'message', text: PAY_NOW_TEXTS.failed };
  if (cause.status !== 409) return { kind: 'message', text: cause.serverMessage };
  let body: { reason?: unknown; reservedSlots?: unknown; freeAgainAt?: unknown } = {};
  try {
    body = JSON.parse(cause.body);
  } catch {
    // not JSON: Sold Out
  }
  const freeAgainAt = typeof body.freeAgainAt === 'string' ? body.freeAgainAt : null;
  if (
    body.reason === ORDER_REFUSAL_REASONS.slotsReserved &&
    freeAgainAt &&
    typeof body.reservedSlots === 'number'
  ) {
    return { kind: 'reserved', reserved: { slots: body.reservedSlots, freeAgainAt } };
  }
  if (body.reason === ORDER_REFUSAL_REASONS.orderPending && freeAgainAt) {
    // Told in the buyer's own time, not the server's.
    return { kind: 'message', text: orderPendingText(clockTime(freeAgainAt)) };
  }
  return { kind: 'soldOut' };
}

/**
 * Pay now: creates an order (POST /api/public/orders; this browser's own waiting order comes back
 * instead of a second one) and sends the buyer to its checkout, which brings them back to /order/{id}
 * once paid. Sold Out, like the landing page's button, when no slot is free; while pending payments
 * only hold the free slots, it says how many and when one frees.
 */
export function PayNow({ slots }: { slots: SlotView }) {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [email, setEmail] = useState('');
  const emailId = useId();

  async function pay() {
    setCreating(true);
    setRefused(null);
    try {
      // Optional, for this order only: its code by mail, and its page found again with the invoice ID.
      const body = email.trim() ? { email: email.trim() } : undefined;
      const order = await apiRequest<CreateOrderResponse>('POST', '/api/public/orders', body);
      // The button keeps its progress text while the browser leaves for the checkout.
      leavePageFor(order.checkoutLink);
    } catch (cause) {
      setCreating(false);
      const refusal = refusalOf(cause);
      setRefused(refusal);
      // The slots shown were out of date: show the server's.
      if (refusal.kind !== 'message') {
        void queryClient.invalidateQueries({ queryKey: purchaseInfoQuery().queryKey });
      }
    }
  }

  const reserved = refused?.kind === 'reserved' ? refused.reserved : slots.heldOnly ? slots.reserved : null;
  const soldOut = refused?.kind === 'soldOut' || (slots.soldOut && !reserved);
  return (
    <div className="mt-4 grid gap-3 border-t border-white/10 pt-4">
      <p className="text-sm text-muted-foreground">{PAY_NOW_TEXTS.note}</p>
      {soldOut ? (
        <Button disabled size="lg" className="w-full">
          {ORDER_TEXTS.soldOut}
        </Button>
      ) : reserved ? (
        <Button disabled size="lg" className="h-auto w-full whitespace-normal py-2">
          {slotsReservedNotice(reserved)}
        </Button>
      ) : (
        <>
          <div className="grid gap-1.5">
            <Label htmlFor={emailId}>{ORDER_EMAIL_TEXTS.label}</Label>
            <Input
              id={emailId}
              type="email"
              autoComplete="email"
              maxLength={254}
              value={email}
              aria-describedby={`${emailId}-help`}
              onChange={(event) => setEmail(event.target.value)}
            />
            <p id={`${emailId}-help`} className="text-xs text-muted-foreground">
              {ORDER_EMAIL_TEXTS.help}
            </p>
          </div>
          <Button
            size="lg"
            className="w-full bg-gradient-to-r from-yellow-500 to-orange-600 text-slate-950 shadow-lg shadow-orange-500/25 hover:from-yellow-400 hover:to-orange-500"
            disabled={creating}
            onClick={() => void pay()}
          >
            <CreditCard aria-hidden="true" />
            {creating ? PAY_NOW_TEXTS.creating : ORDER_TEXTS.payNow}
          </Button>
        </>
      )}
      {refused?.kind === 'message' && (
        <p role="alert" className="text-sm text-red-400">
          {refused.text}
        </p>
      )}
    </div>
  );
}
