import { useQuery } from '@tanstack/react-query';
import { Check, Copy, Crown, ExternalLink, MessageCircle, Wallet } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PremiumBenefits } from '@/components/premium-benefits.tsx';
import { BackToHomeButton, glassCard, PublicShell } from '@/components/public-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ScrollArea } from '@/components/ui/scroll-area.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { cn } from '@/lib/cn.ts';
import { communityInviteUrl, NO_INVITE_TEXTS } from '@/lib/links.ts';
import { shortenWallet } from '../../../common/mask.ts';
import { PREMIUM_PRICE_USD } from '../../../common/public-defaults.ts';
import { ComeBack, OfferFacts, offerText } from './buyer-offer.tsx';
import { PayNow } from './buyer-pay-now.tsx';
import { purchaseInfoQuery } from './public-queries.ts';
import { SlotAvailability, toSlotView } from './slot-availability.tsx';

export const PAYMENT_OPTIONS_FAILED_TEXT = 'Failed to load payment options';

/** An offer as long as most, whose sentence holds the header's room while the real one loads. */
const OFFER_PLACEHOLDER = { priceUsd: PREMIUM_PRICE_USD, validityHours: 24, maxDevices: 1 };

/**
 * The premium purchase panel: price, validity and devices, availability, where to pay and how to
 * claim the key. With no free slot the wallets, Pay now and the steps give way to when to come back
 * (the purchase info is polled, so they return by themselves when a slot frees).
 */
export function BuyerPage() {
  const { data, isPending, isError } = useQuery(purchaseInfoQuery());
  const slots = toSlotView(data);
  const full = data !== undefined && slots.known && slots.soldOut;
  const invite = communityInviteUrl(data);
  return (
    <PublicShell>
      <BackToHomeButton />

      <header className="mb-10">
        <Badge className="mb-4 border-amber-400/30 bg-amber-500/15 text-amber-200">
          <Crown className="h-3 w-3" aria-hidden="true" />
          Premium
        </Badge>
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">
          Premium Access - Purchase
        </h1>
        <p className="mt-3 max-w-2xl text-lg text-slate-300">
          Premium access costs {PREMIUM_PRICE_USD} USD, paid via cryptocurrency.
          {data?.offer ? (
            ` ${offerText(data.offer)}.`
          ) : isPending ? (
            // Its room, held until it comes: the sentence adds a line on a phone, which would push the page down.
            <span className="invisible" aria-hidden="true">
              {` ${offerText(OFFER_PLACEHOLDER)}.`}
            </span>
          ) : null}
        </p>
      </header>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6 lg:col-span-2">
          <Card
            className={cn(
              glassCard,
              'border-amber-400/30 bg-gradient-to-b from-amber-500/[0.08] to-white/[0.03]',
            )}
          >
            <CardHeader>
              <CardDescription>Price</CardDescription>
              <p className="flex items-baseline gap-1.5">
                <span className="text-5xl font-extrabold tracking-tight text-white">{PREMIUM_PRICE_USD}</span>{' '}
                <span className="text-lg font-medium text-muted-foreground">USD</span>
              </p>
              <p className="text-sm text-muted-foreground">via cryptocurrency</p>
              <OfferFacts offer={data?.offer} isPending={isPending} />
            </CardHeader>
            <CardContent>
              <SlotAvailability info={data} isPending={isPending} isError={isError} />
            </CardContent>
          </Card>

          <Card className={glassCard}>
            <CardHeader>
              <CardTitle className="text-lg">What You Get</CardTitle>
            </CardHeader>
            <CardContent>
              <PremiumBenefits />
            </CardContent>
          </Card>
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-6 lg:col-span-3">
          {full ? (
            <Card className={cn(glassCard, 'border-amber-400/30')}>
              <CardContent className="pt-6">
                <ComeBack nextFreeAt={data?.nextFreeAt} paused={slots.total === 0} />
              </CardContent>
            </Card>
          ) : (
            <>
              <Card className={glassCard}>
                <CardHeader>
                  <CardTitle className="flex items-center gap-2 text-lg">
                    <Wallet className="h-5 w-5 text-cyan-300" aria-hidden="true" />
                    Accepted Cryptocurrencies
                  </CardTitle>
                  <CardDescription>
                    Send the payment to the wallet of the currency you pay with.
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <PaymentWallets wallets={data?.paymentWallets} isPending={isPending} isError={isError} />
                  {/* Only when the operator connected a payment processor; otherwise the page is the spec's. */}
                  {data?.payNow && <PayNow slots={slots} />}
                </CardContent>
              </Card>
              <PurchaseSteps invite={invite} />
            </>
          )}
        </div>
      </div>
    </PublicShell>
  );
}

/** The manual path: pay a wallet, open a ticket (or reach the seller), get the key. */
function PurchaseSteps({ invite }: { invite: string | null }) {
  return (
    <Card className={glassCard}>
      <CardHeader>
        <CardTitle className="text-lg">How to Purchase</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <ol className="grid gap-4">
          <PurchaseStep n={1} title="Send the payment">
            Send exactly {PREMIUM_PRICE_USD} USD worth of any supported cryptocurrency to its wallet above.
          </PurchaseStep>
          <PurchaseStep n={2} title="Open a ticket">
            {invite
              ? 'Join the community chat, create a ticket and give us the transaction hash.'
              : NO_INVITE_TEXTS.ticket}
          </PurchaseStep>
          <PurchaseStep n={3} title="Get your key">
            Receive your premium license key within 24 hours.
          </PurchaseStep>
        </ol>
        {invite && (
          <Button asChild size="lg" className="w-full bg-indigo-600 text-white hover:bg-indigo-700">
            <a href={invite} target="_blank" rel="noopener noreferrer">
              <MessageCircle aria-hidden="true" />
              Join Community Chat
              <ExternalLink aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

function PurchaseStep({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-4">
      <span
        className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-blue-500 to-violet-600 text-sm font-bold text-white"
        aria-hidden="true"
      >
        {n}
      </span>
      <div>
        <p className="font-medium text-foreground">{title}</p>
        <p className="text-sm text-muted-foreground">{children}</p>
      </div>
    </li>
  );
}

function PaymentWallets({
  wallets,
  isPending,
  isError,
}: {
  wallets: Record<string, string> | undefined;
  isPending: boolean;
  isError: boolean;
}) {
  if (isPending) {
    return (
      <div className="grid gap-2" aria-busy="true">
        <Skeleton className="h-14 bg-white/10" />
        <Skeleton className="h-14 bg-white/10" />
      </div>
    );
  }
  if (isError || !wallets) {
    return (
      <p role="alert" className="text-sm text-red-400">
        {PAYMENT_OPTIONS_FAILED_TEXT}
      </p>
    );
  }
  const entries = Object.entries(wallets);
  if (entries.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-white/15 p-6 text-center">
        <p className="font-medium text-foreground">No payment wallets are set up yet.</p>
        <p className="mt-1 text-sm text-muted-foreground">
          Join the community chat and open a ticket: we will tell you where to send the payment.
        </p>
      </div>
    );
  }
  return (
    <ScrollArea className="max-h-48">
      <ul className="grid grid-cols-1 gap-2 pr-3">
        {entries.map(([ticker, address]) => (
          <WalletRow key={ticker} ticker={ticker} address={address} />
        ))}
      </ul>
    </ScrollArea>
  );
}

function WalletRow({ ticker, address }: { ticker: string; address: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <li className="flex h-14 items-center gap-2 rounded-lg border border-white/10 bg-white/[0.03] px-2.5 sm:gap-3 sm:px-3">
      <Badge className="min-w-12 justify-center border-cyan-400/30 bg-cyan-500/15 font-mono text-cyan-200">
        {ticker}
      </Badge>
      <code
        className="min-w-0 flex-1 truncate font-mono text-[13px] text-slate-200 sm:text-sm"
        title={address}
      >
        {shortenWallet(address)}
      </code>
      <Button
        variant="outline"
        size="sm"
        className="border-white/15 hover:bg-white/10"
        aria-label={`Copy ${ticker} wallet address`}
        onClick={() => {
          void copyToClipboard(address, `${ticker} wallet address`).then(setCopied);
        }}
      >
        {copied ? <Check className="text-emerald-400" aria-hidden="true" /> : <Copy aria-hidden="true" />}
        <span aria-hidden="true" className="hidden sm:inline">
          {copied ? 'Copied' : 'Copy'}
        </span>
      </Button>
    </li>
  );
}
