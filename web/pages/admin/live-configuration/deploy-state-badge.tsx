import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import type { TargetState } from '../../../../common/configuration.ts';

const STATE_CLASSES: Record<TargetState, string> = {
  pending: 'border-amber-500/40 bg-amber-500/15 text-amber-300',
  applied: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
  failed: 'border-red-500/40 bg-red-500/15 text-red-400',
};

/**
 * Where a push stands on a bot: pending until it acknowledges, then applied or failed. `children`
 * replaces the state's name (e.g. a count: '3 applied').
 */
export function DeployStateBadge({
  state,
  className,
  children,
}: {
  state: TargetState;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Badge variant="outline" className={cn('whitespace-nowrap', STATE_CLASSES[state], className)}>
      {children ?? state}
    </Badge>
  );
}

/** Active (online and not stopped) or Inactive. */
export function ActiveBadge({ active }: { active: boolean }) {
  return active ? (
    <Badge variant="outline" className="border-emerald-500/40 bg-emerald-500/15 text-emerald-400">
      Active
    </Badge>
  ) : (
    <Badge variant="secondary">Inactive</Badge>
  );
}
