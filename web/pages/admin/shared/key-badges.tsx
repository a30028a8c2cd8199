import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import type { ScriptKeyType } from '../../../../common/script-keys.ts';

/**
 * Cells the script key and redemption code tables share. A code's type is the type of the script
 * key it becomes, so one badge colours both.
 */

const TYPE_CLASSES: Record<ScriptKeyType, string> = {
  FREE: 'border-border bg-muted text-muted-foreground',
  PREMIUM: 'border-primary/40 bg-primary/15 text-primary',
  premium_24h: 'border-sky-500/40 bg-sky-500/15 text-sky-300',
  VIP: 'border-fuchsia-500/40 bg-fuchsia-500/15 text-fuchsia-300',
};

export function KeyTypeBadge({ type, children }: { type: ScriptKeyType; children?: ReactNode }) {
  return (
    <Badge variant="outline" className={`whitespace-nowrap ${TYPE_CLASSES[type]}`}>
      {children ?? type}
    </Badge>
  );
}

/** A derived status as a badge: good (usable), warn (expired), info (used up) or muted (switched off). */
export function StatusBadge({
  tone,
  children,
}: {
  tone: 'good' | 'warn' | 'muted' | 'info';
  children: string;
}) {
  const classes = {
    good: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
    warn: 'border-amber-500/40 bg-amber-500/15 text-amber-300',
    info: 'border-sky-500/40 bg-sky-500/15 text-sky-300',
    muted: 'border-border bg-muted text-muted-foreground',
  }[tone];
  return (
    <Badge variant="outline" className={classes}>
      {children}
    </Badge>
  );
}
