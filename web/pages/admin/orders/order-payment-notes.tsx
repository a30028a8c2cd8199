import { AlertTriangle, Mail } from 'lucide-react';
import type { AdminOrder } from '../../../../common/payments.ts';

/*
 * What the Orders screen says beyond an order's status: what BTCPay said of its payment (confirming,
 * partial, late, over the price) with what to do, a late payment that found no free slot, and the
 * buyer's e-mail (masked) with its mail's state.
 */

/** What each payment state means for the operator, and what to do about it. */
export const PAYMENT_NOTES: Record<NonNullable<AdminOrder['paymentState']>, string> = {
  processing: 'Paid in full, confirming: it keeps its slot and its code follows once BTCPay settles it.',
  partial:
    'Part of the price arrived: the buyer can pay the rest at the checkout. If it closes first, the order waits here as underpaid for your decision.',
  late: 'Paid after the invoice expired (BTCPay: PaidLate): accepted and delivered.',
  over: 'Paid more than the price (BTCPay: PaidOver): the code was made. Refund the difference in BTCPay Server if the buyer asks.',
};

export const SLOT_SHORTFALL_NOTE =
  'Paid late when every slot was taken: the slots are oversold by this order. Raise Total Slots in System Configuration, or refund it in BTCPay Server and deactivate its code.';

export function PaymentNotes({ order }: { order: AdminOrder }) {
  if (!order.paymentState && !order.slotShortfall) return null;
  return (
    <div className="mt-1 grid max-w-64 gap-1 text-xs">
      {order.paymentState && (
        <p className="text-muted-foreground" data-testid="payment-note">
          {PAYMENT_NOTES[order.paymentState]}
        </p>
      )}
      {order.slotShortfall && (
        <p className="flex gap-1 text-amber-300" role="note">
          <AlertTriangle className="mt-0.5 h-3 w-3 shrink-0" aria-hidden="true" />
          {SLOT_SHORTFALL_NOTE}
        </p>
      )}
    </div>
  );
}

/** "Mail sent", "Mail due (retrying)…", "Mail failed: …". */
function mailText(mail: NonNullable<AdminOrder['mail']>): string {
  if (mail.state === 'sent') return 'Code mailed';
  const reason = mail.error ? `: ${mail.error}` : '';
  if (mail.state === 'due')
    return mail.attempts === 0 ? 'Mail being sent' : `Mail retrying (${mail.attempts} failed${reason})`;
  return `Mail failed${reason}. Send the buyer the code another way.`;
}

export function BuyerMail({ order }: { order: AdminOrder }) {
  if (!order.email) return null;
  return (
    <p className="mt-1 flex max-w-64 gap-1 text-xs text-muted-foreground">
      <Mail className="mt-0.5 h-3 w-3 shrink-0" aria-hidden="true" />
      <span>
        <span className="font-mono">{order.email}</span>
        {order.mail && (
          <span className={order.mail.state === 'failed' ? 'block text-amber-300' : 'block'}>
            {mailText(order.mail)}
          </span>
        )}
      </span>
    </p>
  );
}
