import { Clock, MonitorSmartphone, PauseCircle } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { clockTime } from '../../../common/order-texts.ts';
import type { PurchaseInfo } from '../../../common/public-api.ts';

type Offer = PurchaseInfo['offer'];

export const COME_BACK_TEXTS = {
  title: 'All premium slots are taken',
  noPayment: 'Do not send a payment now: there is no slot for it.',
  keepsChecking: 'This page keeps checking and shows how to pay as soon as a slot is free.',
  later: 'Check back later: no taken slot has an end time yet.',
  paused: 'Sales are paused for now: check back later.',
} as const;

/** 24 -> '24 hours', 72 -> '3 days', 1 -> '1 hour'. */
export function durationText(hours: number): string {
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** 'Valid 24 hours from redemption, on 1 device': what one purchase gives, said before paying. */
export function offerText(offer: Offer): string {
  const devices = `${offer.maxDevices} ${offer.maxDevices === 1 ? 'device' : 'devices'}`;
  return `Valid ${durationText(offer.validityHours)} from redemption, on ${devices} at a time`;
}

/** When a slot may free, in the buyer's own time: 'by 14:05' today, else with the day. */
export function freeAgainText(iso: string, now = Date.now()): string {
  const at = new Date(iso).getTime();
  if (at - now < 20 * 60 * 60 * 1000) return `A slot may free by ${clockTime(iso)}: come back then.`;
  const day = new Date(iso).toLocaleString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  return `A slot may free by ${day}: come back then.`;
}

/** Validity and device limit beside the price; while they load, two lines of skeleton in their place. */
export function OfferFacts({ offer, isPending = false }: { offer: Offer | undefined; isPending?: boolean }) {
  if (!offer) {
    if (!isPending) return null;
    return (
      <div className="mt-2 grid gap-1" aria-hidden="true">
        <Skeleton className="h-5 w-56 max-w-full bg-white/10" />
        <Skeleton className="h-5 w-40 bg-white/10" />
      </div>
    );
  }
  return (
    <ul className="mt-2 grid gap-1 text-sm text-slate-200" aria-label="What one purchase gives">
      <li className="flex items-center gap-2">
        <Clock className="h-4 w-4 text-amber-300" aria-hidden="true" />
        Valid {durationText(offer.validityHours)} from redemption
      </li>
      <li className="flex items-center gap-2">
        <MonitorSmartphone className="h-4 w-4 text-amber-300" aria-hidden="true" />
        {offer.maxDevices} {offer.maxDevices === 1 ? 'device' : 'devices'} at a time
      </li>
    </ul>
  );
}

/** In place of the wallets and the steps while no slot is free: when to come back, and not to pay. */
export function ComeBack({
  nextFreeAt,
  paused,
}: {
  nextFreeAt: string | null | undefined;
  /** The operator offers no slots at all (total 0). */
  paused: boolean;
}) {
  return (
    <div role="status" className="grid gap-3 text-sm">
      <p className="flex items-center gap-2 text-base font-semibold text-white">
        <PauseCircle className="h-5 w-5 text-amber-300" aria-hidden="true" />
        {COME_BACK_TEXTS.title}
      </p>
      <p className="text-slate-200">
        {paused ? COME_BACK_TEXTS.paused : nextFreeAt ? freeAgainText(nextFreeAt) : COME_BACK_TEXTS.later}
      </p>
      <p className="text-muted-foreground">
        {COME_BACK_TEXTS.noPayment} {COME_BACK_TEXTS.keepsChecking}
      </p>
    </div>
  );
}
