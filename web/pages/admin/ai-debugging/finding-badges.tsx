import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import {
  type FindingSeverity,
  type RecommendationPriority,
  type Resolution,
  resolutionNote,
} from '../../../../common/ai-health.ts';
import { formatDate } from '../../../../common/format.ts';

const RED = 'border-red-500/50 bg-red-500/20 text-red-300';
const ORANGE = 'border-orange-500/40 bg-orange-500/15 text-orange-300';
const AMBER = 'border-amber-500/40 bg-amber-500/15 text-amber-300';
const SKY = 'border-sky-500/40 bg-sky-500/15 text-sky-300';

const SEVERITY_CLASSES: Record<FindingSeverity, string> = {
  CRITICAL: RED,
  ERROR: ORANGE,
  WARNING: AMBER,
  INFO: SKY,
};

const PRIORITY_CLASSES: Record<RecommendationPriority, string> = {
  CRITICAL: RED,
  HIGH: ORANGE,
  MEDIUM: AMBER,
  LOW: SKY,
};

/** A finding's severity, red for CRITICAL down to blue for INFO. */
export function SeverityBadge({ severity }: { severity: FindingSeverity }) {
  return (
    <Badge variant="outline" className={cn('shrink-0', SEVERITY_CLASSES[severity])}>
      {severity}
    </Badge>
  );
}

/** A recommendation's priority, in the same scale as severities. */
export function PriorityBadge({ priority }: { priority: RecommendationPriority }) {
  return (
    <Badge variant="outline" className={cn('shrink-0', PRIORITY_CLASSES[priority])}>
      {priority}
    </Badge>
  );
}

/** The settled state of a finding or recommendation: 'Resolved', 'Implemented'. */
export function SettledBadge({ children }: { children: string }) {
  return (
    <Badge variant="outline" className="border-emerald-500/40 bg-emerald-500/15 text-emerald-400">
      {children}
    </Badge>
  );
}

/** How and when an item was closed ('resolved automatically at Nov 23, 2026, 12:10:00'), if it was. */
export function ResolutionNote({
  item,
}: {
  item: { resolvedAt: string | null; resolution: Resolution | null };
}) {
  const note = resolutionNote(item, (iso) => formatDate(iso));
  return note === null ? null : <span data-testid="resolution-note">{note}</span>;
}
