import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';

/**
 * One figure with its title, icon and a one-line hint; the admin screens' stat cards. `children`
 * (e.g. the measurements behind the figure) go under the hint.
 */
export function StatCard({
  title,
  value,
  icon: Icon,
  hint,
  tone,
  className,
  children,
}: {
  title: string;
  /** A count (shown with thousands separators) or a word such as Healthy. */
  value: number | string;
  icon: LucideIcon;
  hint: string;
  tone?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Card role="group" aria-label={title} className={className}>
      <CardHeader className="flex-row items-center justify-between gap-2 p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle className="line-clamp-2 text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <Icon className={cn('h-4 w-4 text-muted-foreground', tone)} />
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <div className={cn('text-2xl font-bold tabular-nums sm:text-3xl', tone)}>
          {typeof value === 'number' ? value.toLocaleString('en-US') : value}
        </div>
        <p className="text-xs text-muted-foreground">{hint}</p>
        {children}
      </CardContent>
    </Card>
  );
}
