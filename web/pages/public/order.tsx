import { useQuery } from '@tanstack/react-query';
import {
  Check,
  Clock,
  Copy,
  ExternalLink,
  Hourglass,
  KeyRound,
  PartyPopper,
  Receipt,
  RotateCcw,
  XCircle,
} from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { BackToHomeButton, glassCard, PublicShell } from '@/components/public-shell.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Subheading } from '@/components/ui/heading-level.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { failedStatus } from '@/lib/api.ts';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { plural } from '@/lib/plural.ts';
import { formatDate } from '../../../common/format.ts';
import {
  ORDER_ID_PATTERN,
  ORDER_PAGE_PREFIX,
  ORDER_SECRET_PATTERN,
  ORDER_TEXTS,
  REDEEM_STEPS,
} from '../../../common/order-texts.ts';
import type { OrderStatusResponse } from '../../../common/payments.ts';
import { timeUntil } from './key-time.ts';
import { OrderLookupForm } from './order-lookup.tsx';
import {
  EndedCard,
  MismatchCard,
  money,
  PaymentFigureRows,
  Row,
  StartAgainButton,
  StatusCard,
  statusTitle,
} from './order-outcomes.tsx';
import { orderStatusQuery } from './public-queries.ts';

/** The key types' names (common/script-keys.ts has them too, but loads zod, which public pages never do). */
const TYPE_LABELS: Record<OrderStatusResponse['keyType'], string> = {
  FREE: 'Free',
  PREMIUM: 'Premium',
  VIP: 'VIP',
};

export const ORDER_PAGE_TEXTS = {
  title: 'Your order',
  loading: 'Loading your order...',
  /** With ORDER_TEXTS.notFound: no secret in the address, a malformed one, or the server's 404. */
  notFoundHelp:
    'Open the link your checkout sent you back to, exactly as it is, including everything after the #. Keep that link: it is the only way to see your code again.',
  retry: 'Try again',
} as const;

/** The order this page shows: the id from `/order/{id}`, the secret from the fragment. */
interface OrderTarget {
  orderId: string;
  secret: string;
}

/** Reads the order from the address; null when the id or the secret is missing or malformed. */
function orderTargetAt(pathname: string, hash: string): OrderTarget | null {
  if (!pathname.startsWith(ORDER_PAGE_PREFIX)) return null;
  const orderId = pathname.slice(ORDER_PAGE_PREFIX.length).replace(/\/+$/, '');
  const secret = hash.replace(/^#/, '');
  return ORDER_ID_PATTERN.test(orderId) && ORDER_SECRET_PATTERN.test(secret) ? { orderId, secret } : null;
}

/**
 * /order/{id}#{secret}: where the checkout sends the buyer back. It follows the order live, from
 * waiting for the payment to the redemption code. The prerendered HTML is the loading state (the build
 * cannot know the order); the address is read once the page runs.
 */
export function OrderPage() {
  // undefined until the page runs in the browser; null when the address names no order.
  const [target, setTarget] = useState<OrderTarget | null | undefined>(undefined);
  useEffect(() => {
    const read = () => setTarget(orderTargetAt(location.pathname, location.hash));
    read();
    // A link pasted into the same tab changes only the fragment.
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);

  return (
    <PublicShell className="max-w-3xl">
      <BackToHomeButton />
      <header className="mb-8">
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">
          {ORDER_PAGE_TEXTS.title}
        </h1>
        <p className="mt-3 text-lg text-slate-300">
          Premium access, paid online: your redemption code appears here as soon as the payment settles.
        </p>
      </header>
      {target === undefined ? (
        <LoadingCard />
      ) : target === null ? (
        <NotFoundCard />
      ) : (
        <OrderStatusView key={`${target.orderId}#${target.secret}`} target={target} />
      )}
    </PublicShell>
  );
}

function OrderStatusView({ target }: { target: OrderTarget }) {
  const { data, error, isPending, isFetching, refetch } = useQuery(
    orderStatusQuery(target.orderId, target.secret),
  );
  if (error && failedStatus(error) === 404) return <NotFoundCard />;
  return (
    <div className="grid gap-6">
      {/* The status, announced as it changes while the buyer waits. */}
      <p className="sr-only" role="status">
        {data ? statusTitle(data) : ''}
      </p>
      {error && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-400/30 bg-red-500/10 px-4 py-3 text-sm text-red-200"
        >
          <span>{ORDER_TEXTS.failedToLoad}</span>
          <Button
            variant="outline"
            size="sm"
            className="border-white/15 hover:bg-white/10"
            disabled={isFetching}
            onClick={() => void refetch()}
          >
            <RotateCcw aria-hidden="true" />
            {ORDER_PAGE_TEXTS.retry}
          </Button>
        </div>
      )}
      {data === undefined ? (
        isPending && <LoadingCard />
      ) : data.status === 'pending' ? (
        <PendingCard order={data} />
      ) : data.status === 'paid' && data.redeemed ? (
        <RedeemedCard order={data} />
      ) : data.status === 'paid' ? (
        <PaidCard order={data} />
      ) : data.status === 'underpaid' || data.status === 'mismatch' ? (
        <MismatchCard order={data} orderId={target.orderId} />
      ) : (
        <EndedCard order={data} />
      )}
    </div>
  );
}

/** What the order delivers: "Premium, valid 24 hours". */
function deliveryText(order: OrderStatusResponse): string {
  return `${TYPE_LABELS[order.keyType] ?? order.keyType}, valid ${plural(order.validityHours, 'hour', 'hours')}`;
}

function LoadingCard() {
  return (
    <Card className={glassCard} aria-busy="true">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Receipt className="h-5 w-5 text-cyan-300" aria-hidden="true" />
          {ORDER_PAGE_TEXTS.loading}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Skeleton className="h-5 w-56 bg-white/10" />
        <Skeleton className="h-10 w-full bg-white/10" />
      </CardContent>
    </Card>
  );
}

function NotFoundCard() {
  return (
    <StatusCard
      icon={<XCircle className="h-5 w-5 text-red-300" aria-hidden="true" />}
      title={ORDER_TEXTS.notFound}
      description={ORDER_PAGE_TEXTS.notFoundHelp}
      className="grid gap-6"
    >
      <StartAgainButton />
      <OrderLookupForm />
    </StatusCard>
  );
}

function PendingCard({ order }: { order: OrderStatusResponse }) {
  // Paid in full and confirming: no expiry to beat and no checkout to return to (no paying twice).
  if (order.payment === 'processing') {
    return (
      <StatusCard
        icon={<Hourglass className="h-5 w-5 text-cyan-300" aria-hidden="true" />}
        title={ORDER_TEXTS.processing}
        description={ORDER_TEXTS.processingHelp}
      >
        <dl className="text-sm">
          <Row label="You get">{deliveryText(order)}</Row>
        </dl>
      </StatusCard>
    );
  }
  const partial = order.payment === 'partial';
  return (
    <StatusCard
      icon={<Clock className="h-5 w-5 text-amber-300" aria-hidden="true" />}
      title={partial ? ORDER_TEXTS.partial : ORDER_TEXTS.waiting}
      description={
        partial
          ? ORDER_TEXTS.partialHelp
          : 'This page updates by itself: keep it open, and your code shows here once the payment settles.'
      }
      className="grid gap-4"
    >
      <dl className="text-sm">
        <Row label="You get">{deliveryText(order)}</Row>
        {partial && <PaymentFigureRows order={order} receivedLabel="Received so far" />}
        <Row label="Pay before">
          {formatDate(order.expiresAt)} (in {timeUntil(order.expiresAt)})
        </Row>
      </dl>
      {order.checkoutLink && (
        <Button asChild className="justify-self-start">
          <a href={order.checkoutLink}>
            {partial ? 'Pay the rest at the checkout' : 'Return to the checkout'}
            <ExternalLink aria-hidden="true" />
          </a>
        </Button>
      )}
    </StatusCard>
  );
}

/** The code was redeemed: the key it made is what the buyer holds now, on My key. */
function RedeemedCard({ order }: { order: OrderStatusResponse }) {
  return (
    <StatusCard
      icon={<Check className="h-5 w-5 text-emerald-300" aria-hidden="true" />}
      title={ORDER_TEXTS.redeemed}
      description={ORDER_TEXTS.redeemedHelp}
      className="grid gap-4"
    >
      <dl className="text-sm">
        <Row label="Used code">
          <code className="font-mono">{order.code}</code>
        </Row>
        <Row label="Key type">{TYPE_LABELS[order.keyType] ?? order.keyType}</Row>
      </dl>
      <Button asChild className="justify-self-start bg-emerald-700 text-white hover:bg-emerald-800">
        <a href="/key">
          <KeyRound aria-hidden="true" />
          Open My key
        </a>
      </Button>
    </StatusCard>
  );
}

function PaidCard({ order }: { order: OrderStatusResponse }) {
  const stepsHeading = useId();
  return (
    <Card className={glassCard}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <PartyPopper className="h-5 w-5 text-emerald-300" aria-hidden="true" />
          {ORDER_TEXTS.paid}
        </CardTitle>
        <CardDescription>
          Your redemption code is ready. Keep it private: it activates premium once.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {order.payment === 'late' && <p className="text-sm text-slate-300">{ORDER_TEXTS.paidLate}</p>}
        {order.payment === 'over' && (
          <p className="text-sm text-amber-200">
            {ORDER_TEXTS.paidOver}
            {order.received && order.expected
              ? ` Received ${money(order.received)} for ${money(order.expected)}.`
              : ''}
          </p>
        )}
        {order.code && <CodeBox code={order.code} />}
        <dl className="text-sm">
          <Row label="Key type">{TYPE_LABELS[order.keyType] ?? order.keyType}</Row>
          <Row label="Valid for">{plural(order.validityHours, 'hour', 'hours')}</Row>
        </dl>
        <div>
          <Subheading id={stepsHeading} className="mb-3 font-semibold text-foreground">
            How to redeem
          </Subheading>
          <ol
            aria-labelledby={stepsHeading}
            className="grid list-decimal gap-2 pl-5 text-sm text-slate-300 marker:text-cyan-300"
          >
            {REDEEM_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button asChild className="bg-emerald-700 text-white hover:bg-emerald-800">
            <a href="/scripts">Get the script</a>
          </Button>
          <Button asChild variant="outline" className="border-white/15 hover:bg-white/10">
            <a href="/key">
              <KeyRound aria-hidden="true" />
              Check my key
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function CodeBox({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="grid gap-3 rounded-lg border border-emerald-400/30 bg-emerald-500/[0.06] p-4 sm:flex sm:items-center">
      <span className="sr-only">Redemption code:</span>
      <code className="min-w-0 flex-1 break-all font-mono text-2xl font-bold tracking-wide text-white sm:text-3xl">
        {code}
      </code>
      <Button
        variant="outline"
        className="border-white/15 hover:bg-white/10"
        onClick={() => {
          void copyToClipboard(code, 'Redemption code').then(setCopied);
        }}
      >
        {/* The name stays "Copy code" (the toast says it was copied), so it always matches what is shown. */}
        {copied ? <Check className="text-emerald-400" aria-hidden="true" /> : <Copy aria-hidden="true" />}
        Copy code
      </Button>
    </div>
  );
}
