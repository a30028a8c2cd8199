import { Progress as ProgressPrimitive } from 'radix-ui';
import type * as React from 'react';
import { cn } from '@/lib/cn.ts';

/** A progressbar must say what it measures: a label, or the id of the text that names it. */
type ProgressName = { 'aria-label': string } | { 'aria-labelledby': string };

export type ProgressProps = Omit<React.ComponentProps<typeof ProgressPrimitive.Root>, 'value' | 'max'> &
  ProgressName & {
    /** Percent done (0-100, clamped), or null while the amount is unknown (indeterminate). */
    value: number | null;
    indicatorClassName?: string;
  };

/**
 * A bar filled to `value` percent. Radix gives it role="progressbar" with aria-valuenow (none while
 * indeterminate), aria-valuemin 0, aria-valuemax 100 and aria-valuetext ("42%" unless one is given).
 */
export function Progress({ className, value, indicatorClassName, ...props }: ProgressProps) {
  const clamped = value === null ? null : Math.max(0, Math.min(100, value));
  return (
    <ProgressPrimitive.Root
      className={cn('relative h-3 w-full overflow-hidden rounded-full bg-secondary', className)}
      value={clamped}
      max={100}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className={cn(
          'h-full w-full flex-1 bg-primary transition-all',
          clamped === null && 'animate-pulse',
          indicatorClassName,
        )}
        style={{ transform: `translateX(-${100 - (clamped ?? 100)}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
