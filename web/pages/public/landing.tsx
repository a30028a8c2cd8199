import { useQuery } from '@tanstack/react-query';
import { ArrowRight, CheckCircle2, Code, Crown, ExternalLink, MessageCircle, Radar } from 'lucide-react';
import { PremiumBenefits } from '@/components/premium-benefits.tsx';
import { glassCard, PublicShell } from '@/components/public-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Subheading } from '@/components/ui/heading-level.tsx';
import { cn } from '@/lib/cn.ts';
import { communityInviteUrl, NO_INVITE_TEXTS } from '@/lib/links.ts';
import type { FleetStateName } from '../../../common/fleet-condition.ts';
import { PREMIUM_PRICE_USD } from '../../../common/public-defaults.ts';
import { purchaseInfoQuery } from './public-queries.ts';
import { SlotAvailability, slotsReservedNotice, toSlotView } from './slot-availability.tsx';

/** The public front page: community, premium access with live slot availability, scripts. */
export function LandingPage() {
  return (
    <PublicShell>
      <LandingHeader />
      <div className="mt-12 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <CommunityCard />
        <PremiumCard />
        <ScriptsCard />
      </div>
    </PublicShell>
  );
}

function LandingHeader() {
  return (
    <header className="flex flex-col items-center text-center">
      <div className="mb-6 flex h-16 w-16 items-center justify-center rounded-2xl bg-gradient-to-br from-blue-500 to-violet-600 shadow-lg shadow-blue-500/30">
        <Radar className="h-8 w-8 text-white" aria-hidden="true" />
      </div>
      {/* The badges on a line of their own on a phone, hung beside the name from sm up (the name stays
          centred): either way in a box of a fixed size, so no state that arrives moves anything. */}
      <div className="relative flex flex-col items-center gap-3">
        <h1 className="bg-gradient-to-r from-white via-blue-100 to-cyan-200 bg-clip-text text-5xl font-extrabold tracking-tight text-transparent sm:text-6xl">
          Scanline
        </h1>
        <NetworkBadges />
      </div>
      <p className="mt-4 max-w-2xl text-lg text-slate-300">
        A real-time scanner network that hops game servers around the clock and reports valuable pets the
        moment they appear.
      </p>
    </header>
  );
}

/** What the header says of a network that is not live (the visitor's words for each state). */
const NOT_LIVE: Record<Exclude<FleetStateName, 'live'>, { word: string; className: string }> = {
  degraded: { word: 'DEGRADED', className: 'border-amber-400/30 bg-amber-500/15 text-amber-300' },
  stopped: { word: 'PAUSED', className: 'border-amber-400/30 bg-amber-500/15 text-amber-300' },
  down: { word: 'OFFLINE', className: 'border-slate-400/30 bg-slate-500/20 text-slate-200' },
};

/**
 * The badges' box: as tall as a badge and as wide as the widest state (LIVE and ACTIVE), centred under
 * the name on a phone; from sm up out of the flow, just right of the name, the badges from its left edge.
 */
const BADGES_BOX =
  'flex h-6 w-40 items-center justify-center gap-2 sm:absolute sm:left-full sm:top-1/2 sm:ml-4 sm:-translate-y-1/2 sm:justify-start';

/** A single state's badge: as wide as the placeholder's, so one replacing the other moves nothing. */
const ONE_BADGE = 'min-w-[5.5rem] justify-center';

/**
 * LIVE and ACTIVE while the scanner network is live (purchase-info's fleet state); otherwise one
 * badge saying what it is. The prerendered page, and the moments before the answer, claim nothing.
 */
function NetworkBadges() {
  const { data, isError } = useQuery(purchaseInfoQuery());
  const state = data?.fleet?.state;
  if (state === 'live') {
    return (
      <div className={BADGES_BOX}>
        <Badge className="border-red-400/30 bg-red-500/15 text-red-300">
          <span className="relative flex h-2 w-2" aria-hidden="true">
            <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-red-400 opacity-75" />
            <span className="relative inline-flex h-2 w-2 rounded-full bg-red-400" />
          </span>
          LIVE
        </Badge>
        <Badge className="border-emerald-400/30 bg-emerald-500/15 text-emerald-300">ACTIVE</Badge>
      </div>
    );
  }
  if (state) {
    const { word, className } = NOT_LIVE[state];
    return (
      <div className={BADGES_BOX}>
        <Badge className={cn(ONE_BADGE, className)}>{word}</Badge>
      </div>
    );
  }
  return (
    <div className={BADGES_BOX}>
      <Badge className={cn(ONE_BADGE, 'border-slate-400/30 bg-slate-500/15 text-slate-300')}>
        {isError ? (
          'STATUS UNKNOWN'
        ) : (
          <>
            <span aria-hidden="true">···</span>
            <span className="sr-only">Checking the network status</span>
          </>
        )}
      </Badge>
    </div>
  );
}

function CardIcon({ className, children }: { className: string; children: React.ReactNode }) {
  return (
    <div
      className={cn(
        'mb-2 flex h-12 w-12 items-center justify-center rounded-xl bg-gradient-to-br text-white shadow-lg [&_svg]:h-6 [&_svg]:w-6',
        className,
      )}
    >
      {children}
    </div>
  );
}

function Highlights({ items }: { items: string[] }) {
  return (
    <ul className="grid gap-2.5">
      {items.map((item) => (
        <li key={item} className="flex items-center gap-2.5 text-sm text-slate-300">
          <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-400" aria-hidden="true" />
          {item}
        </li>
      ))}
    </ul>
  );
}

/** The invite link is a System Configuration setting; until it is set the card says how to reach support. */
function CommunityCard() {
  const { data } = useQuery(purchaseInfoQuery());
  const invite = communityInviteUrl(data);
  return (
    <Card className={cn(glassCard, 'flex flex-col')}>
      <CardHeader>
        <CardIcon className="from-indigo-500 to-blue-600 shadow-indigo-500/30">
          <MessageCircle aria-hidden="true" />
        </CardIcon>
        <CardTitle>Join the community chat</CardTitle>
        <CardDescription>
          Talk with other hunters, get help, follow announcements and open a ticket to buy premium.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Highlights
          items={[
            'Network status and announcements',
            'Help from the team and other users',
            'Premium purchase tickets',
          ]}
        />
      </CardContent>
      {/* Room for the note's three lines whether the link, the note or nothing yet is shown: the
          answer never moves the cards below (on a phone, in the first screen). */}
      <CardFooter className="mt-auto min-h-[5.25rem] items-end">
        {invite ? (
          <Button asChild className="w-full bg-indigo-600 text-white hover:bg-indigo-700">
            <a href={invite} target="_blank" rel="noopener noreferrer">
              Join Community
              <ExternalLink aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </Button>
        ) : (
          data && (
            <p className="text-sm text-muted-foreground">
              <span className="font-medium text-foreground">{NO_INVITE_TEXTS.title}.</span>{' '}
              {NO_INVITE_TEXTS.help}
            </p>
          )
        )}
      </CardFooter>
    </Card>
  );
}

function PremiumCard() {
  const { data, isPending, isError } = useQuery(purchaseInfoQuery());
  const slots = toSlotView(data);
  return (
    <Card
      className={cn(
        glassCard,
        'relative flex flex-col border-amber-400/30 bg-gradient-to-b from-amber-500/[0.08] to-white/[0.03] lg:-mt-3 lg:mb-3',
      )}
    >
      <CardHeader>
        <CardIcon className="from-yellow-500 to-orange-600 shadow-orange-500/30">
          <Crown aria-hidden="true" />
        </CardIcon>
        <CardTitle>Premium Access</CardTitle>
        <p className="flex items-baseline gap-1.5">
          <span className="text-4xl font-extrabold tracking-tight text-white">${PREMIUM_PRICE_USD}</span>{' '}
          <span className="text-sm font-medium text-muted-foreground">USD</span>
        </p>
      </CardHeader>
      <CardContent className="grid gap-5">
        <SlotAvailability info={data} isPending={isPending} isError={isError} />
        <div>
          <Subheading className="mb-3 text-sm font-semibold uppercase tracking-wide text-amber-200/90">
            What You Get
          </Subheading>
          <PremiumBenefits compact />
        </div>
      </CardContent>
      <CardFooter className="mt-auto">
        {isPending ? (
          <Button disabled className="w-full">
            Loading...
          </Button>
        ) : slots.known && !slots.soldOut ? (
          <Button
            asChild
            className="w-full bg-gradient-to-r from-yellow-500 to-orange-600 text-slate-950 shadow-lg shadow-orange-500/25 hover:from-yellow-400 hover:to-orange-500"
          >
            <a href="/buyer">
              Buy Premium Access
              <ArrowRight aria-hidden="true" />
            </a>
          </Button>
        ) : slots.heldOnly && slots.reserved ? (
          // Not sold out: pending payments hold the free slots for a few minutes.
          <Button disabled className="h-auto w-full whitespace-normal py-2">
            {slotsReservedNotice(slots.reserved)}
          </Button>
        ) : (
          <Button disabled className="w-full">
            Sold Out
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}

function ScriptsCard() {
  return (
    <Card className={cn(glassCard, 'flex flex-col')}>
      <CardHeader>
        <CardIcon className="from-emerald-500 to-teal-600 shadow-emerald-500/30">
          <Code aria-hidden="true" />
        </CardIcon>
        <CardTitle>Get Scripts</CardTitle>
        <CardDescription>
          Download the free scanner or copy its loader for your executor. Premium users unlock every
          high-value find.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Highlights
          items={[
            'Free scanner, no key needed',
            'One-line loader, always up to date',
            'Premium unlocks in game',
          ]}
        />
      </CardContent>
      <CardFooter className="mt-auto">
        <Button asChild className="w-full bg-emerald-700 text-white hover:bg-emerald-800">
          <a href="/scripts">
            Get Scripts
            <ArrowRight aria-hidden="true" />
          </a>
        </Button>
      </CardFooter>
    </Card>
  );
}
