import { Badge } from '@/components/ui/badge.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/cn.ts';
import { clockTime, slotsReservedText } from '../../../common/order-texts.ts';
import type { PurchaseInfo } from '../../../common/public-api.ts';
import { DEFAULT_TOTAL_SLOTS } from '../../../common/public-defaults.ts';

export const AVAILABILITY_FAILED_TEXT = 'Failed to load availability';
const SLOTS_AVAILABLE_TEXT = '{available}/{total} slots available';

/** '{available}/{total} slots available' filled in. */
export function slotsAvailableText({ available, total }: SlotView): string {
  return SLOTS_AVAILABLE_TEXT.replace('{available}', String(available)).replace('{total}', String(total));
}

export interface SlotView {
  /** Free slots; 0 when unknown. */
  available: number;
  /** Slot capacity; DEFAULT_TOTAL_SLOTS when unknown. */
  total: number;
  /** Whether the server told us how many slots are free. */
  known: boolean;
  /** No slot can be bought: none free, or nothing known (the buy button is then disabled). */
  soldOut: boolean;
  /** The unused share of slots, 0-100. */
  freePercent: number;
  /** Slots pending orders hold, and when the first frees (absent when none do). */
  reserved: { slots: number; freeAgainAt: string } | null;
  /** None free, but only because pending orders hold them: not sold out, and it says when one frees. */
  heldOnly: boolean;
}

/** 'N slots reserved by pending payments, free again by HH:MM' in the buyer's own time. */
export function slotsReservedNotice(reserved: { slots: number; freeAgainAt: string }): string {
  return slotsReservedText(reserved.slots, clockTime(reserved.freeAgainAt));
}

/** Turns purchase info (possibly missing or partial) into what the availability widgets show. */
export function toSlotView(info: PurchaseInfo | undefined): SlotView {
  const total = info?.slots?.total ?? DEFAULT_TOTAL_SLOTS;
  const known = typeof info?.slots?.available === 'number';
  const available = known ? Math.max(0, info!.slots.available) : 0;
  const freePercent = total > 0 ? Math.min(100, Math.round((available / total) * 100)) : 0;
  const reserved = info?.reserved && info.reserved.slots > 0 ? info.reserved : null;
  const soldOut = available <= 0;
  return {
    available,
    total,
    known,
    soldOut,
    freePercent,
    reserved,
    heldOnly: known && soldOut && !!reserved,
  };
}

/** Available/Full badge: green while a slot is free, amber (Reserved) while only pending payments hold them. */
export function AvailabilityBadge({ slots }: { slots: SlotView }) {
  if (slots.heldOnly) {
    return <Badge className="border-amber-400/30 bg-amber-500/15 text-amber-200">Reserved</Badge>;
  }
  return slots.soldOut ? (
    <Badge variant="destructive">Full</Badge>
  ) : (
    <Badge className="border-emerald-400/30 bg-emerald-500/15 text-emerald-300">Available</Badge>
  );
}

/**
 * The row of the figures and the badge, as tall in the skeleton as with the answer (a badge is 22 px,
 * the text 20): the answer moves nothing below it. With the bar, 42 px, which the error line keeps too.
 */
const FIGURES_ROW = 'flex h-6 items-center justify-between gap-3';

/**
 * '{available}/{total} slots available', the badge and a bar of the free share, and while only pending
 * payments hold the slots, how many and when one frees; a skeleton while loading.
 */
export function SlotAvailability({
  info,
  isPending,
  isError,
  className,
}: {
  info: PurchaseInfo | undefined;
  isPending: boolean;
  isError: boolean;
  className?: string;
}) {
  if (isPending) {
    return (
      <div className={cn('grid gap-2', className)} aria-busy="true">
        <div className={FIGURES_ROW}>
          <Skeleton className="h-5 w-40 bg-white/10" />
          <Skeleton className="h-5 w-20 rounded-full bg-white/10" />
        </div>
        <Skeleton className="h-2.5 w-full bg-white/10" />
      </div>
    );
  }
  if (isError || !info) {
    return (
      <p role="alert" className={cn('flex min-h-[2.625rem] items-center text-sm text-red-400', className)}>
        {AVAILABILITY_FAILED_TEXT}
      </p>
    );
  }
  const slots = toSlotView(info);
  return (
    <div className={cn('grid gap-2', className)}>
      <div className={FIGURES_ROW}>
        <p className="text-sm font-semibold tabular-nums text-foreground">{slotsAvailableText(slots)}</p>
        <AvailabilityBadge slots={slots} />
      </div>
      <Progress
        value={slots.freePercent}
        aria-label="Free premium slots"
        className="h-2.5 bg-white/10"
        indicatorClassName={cn(
          'bg-gradient-to-r',
          slots.soldOut ? 'from-red-500 to-rose-600' : 'from-emerald-400 to-cyan-500',
        )}
      />
      {slots.heldOnly && slots.reserved && (
        <p role="status" className="text-sm text-amber-200">
          {slotsReservedNotice(slots.reserved)}
        </p>
      )}
    </div>
  );
}
