import { Search } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { leavePageFor } from '@/lib/navigation.ts';
import { useTypedBeforeHydration } from '@/lib/typed-before-hydration.ts';
import { ORDER_LOOKUP_TEXTS } from '../../../common/order-texts.ts';
import type { OrderLookupResponse } from '../../../common/payments.ts';

export const ORDER_LOOKUP_FAILED = 'Could not reach the server. Try again.';

/**
 * "Lost your order page?": the invoice ID from BTCPay's receipt plus the e-mail given at Pay now
 * (POST /api/public/orders/lookup) open the order page again, secret and all. A wrong pair gets the
 * server's one answer for every miss.
 */
export function OrderLookupForm() {
  const headingId = useId();
  const [invoiceId, setInvoiceId] = useState('');
  const [email, setEmail] = useState('');
  useTypedBeforeHydration('lookup-invoice', setInvoiceId);
  useTypedBeforeHydration('lookup-email', setEmail);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function find(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const found = await apiRequest<OrderLookupResponse>('POST', '/api/public/orders/lookup', {
        invoiceId: invoiceId.trim(),
        email: email.trim(),
      });
      // Another order's page loads; this one with its secret added only changes the fragment, which
      // the page follows (hashchange).
      leavePageFor(found.orderLink);
    } catch (cause) {
      setBusy(false);
      setError(cause instanceof ApiError ? cause.serverMessage : ORDER_LOOKUP_FAILED);
    }
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 border-t border-white/10 pt-4">
      <h2 id={headingId} className="font-semibold text-foreground">
        {ORDER_LOOKUP_TEXTS.title}
      </h2>
      <p className="text-sm text-muted-foreground">{ORDER_LOOKUP_TEXTS.help}</p>
      <form className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={find}>
        <div className="grid gap-2">
          <Label htmlFor="lookup-invoice">{ORDER_LOOKUP_TEXTS.invoiceLabel}</Label>
          <Input
            id="lookup-invoice"
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={200}
            value={invoiceId}
            onChange={(event) => setInvoiceId(event.target.value)}
            className="font-mono"
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="lookup-email">{ORDER_LOOKUP_TEXTS.emailLabel}</Label>
          <Input
            id="lookup-email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={busy || invoiceId.trim() === '' || email.trim() === ''}>
          <Search aria-hidden="true" />
          {ORDER_LOOKUP_TEXTS.submit}
        </Button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
    </section>
  );
}
