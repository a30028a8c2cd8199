import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import { type ScoreBand, type SystemStatus, scoreBand } from '../../../../common/ai-health.ts';

/** Spec section 9: 85 and above green, 60 to 84 yellow, below 60 red. */
export const BAND_TEXT: Record<ScoreBand, string> = {
  good: 'text-emerald-400',
  fair: 'text-yellow-400',
  poor: 'text-red-400',
};

const BAND_BADGE: Record<ScoreBand, string> = {
  good: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
  fair: 'border-yellow-500/40 bg-yellow-500/15 text-yellow-300',
  poor: 'border-red-500/40 bg-red-500/15 text-red-400',
};

/** The report's status and the database connection read in the same three colours as the score. */
export const STATUS_BAND: Record<SystemStatus, ScoreBand> = {
  healthy: 'good',
  degraded: 'fair',
  critical: 'poor',
};
export const CONNECTION_BAND = {
  connected: 'good',
  slow: 'fair',
  disconnected: 'poor',
} as const satisfies Record<string, ScoreBand>;

/** A 0–100 score in its band's colour; `data-band` names the band for tests and styling. */
export function ScoreValue({ score, className }: { score: number; className?: string }) {
  const band = scoreBand(score);
  return (
    <span data-band={band} className={cn('font-semibold tabular-nums', BAND_TEXT[band], className)}>
      {Math.round(score)}
    </span>
  );
}

/** A word (a status) in a band's colour. */
export function BandBadge({ band, children }: { band: ScoreBand; children: ReactNode }) {
  return (
    <Badge variant="outline" data-band={band} className={cn('capitalize', BAND_BADGE[band])}>
      {children}
    </Badge>
  );
}
