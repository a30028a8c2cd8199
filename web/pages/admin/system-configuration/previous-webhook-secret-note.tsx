import { format } from 'date-fns';
import type { PaymentSettings } from '../../../../common/payments.ts';

/*
 * During a webhook secret rotation the secret it replaced still verifies (BTCPay may sign with it
 * until the new one is entered there): which one, until when, and whether BTCPay still uses it.
 */

const WHEN = 'MMM d, HH:mm';

export function PreviousWebhookSecretNote({
  previous,
}: {
  previous: NonNullable<PaymentSettings['previousWebhookSecret']>;
}) {
  const lasting =
    previous.expiresAt === null
      ? `The previous webhook secret (${previous.secret}, BTCPAY_WEBHOOK_SECRET_PREVIOUS) verifies while it is set.`
      : `The previous webhook secret (${previous.secret}) still verifies until ${format(new Date(previous.expiresAt), WHEN)}.`;
  const used =
    previous.lastUsedAt === null
      ? 'No delivery has come signed with it since.'
      : `A delivery last came signed with it at ${format(new Date(previous.lastUsedAt), WHEN)}: enter the new secret in BTCPay if you have not yet.`;
  return (
    <p className="text-muted-foreground text-sm" data-testid="previous-webhook-secret">
      {lasting} {used}
    </p>
  );
}
