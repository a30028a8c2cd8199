import { Crown, Headphones, type LucideIcon, Rocket, SlidersHorizontal } from 'lucide-react';
import { cn } from '@/lib/cn.ts';

interface Benefit {
  icon: LucideIcon;
  title: string;
  detail: string;
}

/** What premium buys (spec section 1), in the order the spec lists it. */
export const PREMIUM_BENEFITS: readonly Benefit[] = [
  { icon: Crown, title: 'Pets at 10M/s and up', detail: 'Premium pet data and high-value pets' },
  {
    icon: Rocket,
    title: 'Auto-join for pets at 5M/s and up',
    detail: 'Jump into the server the moment one is found',
  },
  {
    icon: SlidersHorizontal,
    title: 'Advanced filtering and sorting',
    detail: 'See only the finds you care about',
  },
  {
    icon: Headphones,
    title: 'Priority support and updates',
    detail: 'First in line for help and new features',
  },
];

/** The 'What You Get' list shown on the landing and buyer pages. */
export function PremiumBenefits({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <ul className={cn('grid gap-3', className)}>
      {PREMIUM_BENEFITS.map(({ icon: Icon, title, detail }) => (
        <li key={title} className="flex items-start gap-3">
          <span className="mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-gradient-to-br from-yellow-500/20 to-orange-600/20 text-amber-300 ring-1 ring-amber-400/20">
            <Icon className="h-4 w-4" aria-hidden="true" />
          </span>
          <span className="grid gap-0.5">
            <span className="text-sm font-medium text-foreground">{title}</span>
            {!compact && <span className="text-xs text-muted-foreground">{detail}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
