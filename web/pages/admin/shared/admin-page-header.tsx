import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';

/**
 * The row every admin screen opens with: the screen's title, one line under it, and the screen's
 * actions (`children`) beside it from `sm` up. The actions keep their natural width, on one line: the
 * title's line under it wraps first, and when even a short title and the actions do not fit side by
 * side, the actions move under the title as one group. `className` adjusts the row (e.g. `sm:items-start`).
 */
export function AdminPageHeader({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <header
      className={cn(
        'flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between',
        className,
      )}
      data-page-header
    >
      <div className="min-w-0 sm:flex-[1_1_20rem]">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children && (
        <div className="flex max-w-full flex-wrap items-center gap-2" data-page-actions>
          {children}
        </div>
      )}
    </header>
  );
}
