import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';

/**
 * The row every admin screen opens with: the screen's title, one line under it, and the screen's
 * actions (`children`) beside it from `sm` up. `className` adjusts the row (e.g. `sm:items-start`).
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
    <header className={cn('flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </header>
  );
}
