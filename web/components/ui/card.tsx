import type * as React from 'react';
import { cn } from '@/lib/cn.ts';
import { HeadingLevel, useHeadingLevel } from './heading-level.tsx';

/** A card is a section of the outline: its title, and any heading inside it, sit one level deeper. */
export function Card({ className, children, ...props }: React.ComponentProps<'div'>) {
  const level = useHeadingLevel();
  return (
    <div className={cn('rounded-lg border bg-card text-card-foreground shadow-sm', className)} {...props}>
      {level === undefined ? children : <HeadingLevel level={level + 1}>{children}</HeadingLevel>}
    </div>
  );
}
export function CardHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 p-6', className)} {...props} />;
}
/** The card's heading: one level below the heading around the card (an h3 outside any outline root). */
export function CardTitle({ className, ...props }: React.ComponentProps<'h3'>) {
  // The card already went one level deeper: its title is at the card's own level.
  const level = useHeadingLevel();
  const Tag = level === undefined ? 'h3' : (`h${Math.min(Math.max(level, 1), 6)}` as 'h3');
  return <Tag className={cn('text-xl font-semibold leading-none tracking-tight', className)} {...props} />;
}
export function CardDescription({ className, ...props }: React.ComponentProps<'p'>) {
  return <p className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
export function CardContent({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('p-6 pt-0', className)} {...props} />;
}
export function CardFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex items-center p-6 pt-0', className)} {...props} />;
}
