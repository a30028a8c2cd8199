import { BTCPAY_WEBHOOK_EVENTS, BTCPAY_WEBHOOK_PATH } from '../../../../common/order-texts.ts';
import { CopyableUrl } from './copyable-url.tsx';

/**
 * The webhook the operator creates in BTCPay Server: the address it posts to and the events it must
 * send, named as BTCPay's form names them (docs/payments.md lists the same). Without "An invoice is
 * processing" and the payment events, a payment still confirming, or one after the invoice expired,
 * would wait for the reconciler instead of showing at once.
 */
export function BtcpayWebhookSetup() {
  return (
    <div className="grid max-w-2xl gap-2">
      <CopyableUrl
        label="Webhook URL"
        url={`${window.location.origin}${BTCPAY_WEBHOOK_PATH}`}
        testId="webhook-url"
        pasteHint="Paste it in BTCPay Server: Store, Webhooks, Create webhook."
      >
        In BTCPay Server: the store's Webhooks, Create webhook, this URL, automatic redelivery on, the same
        secret as above, and every event, or at least these:
      </CopyableUrl>
      <ul aria-label="Webhook events" className="grid list-disc gap-0.5 pl-5 text-xs text-muted-foreground">
        {BTCPAY_WEBHOOK_EVENTS.map((event) => (
          <li key={event}>{event}</li>
        ))}
      </ul>
    </div>
  );
}
