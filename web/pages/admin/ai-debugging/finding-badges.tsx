import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import type { FindingSeverity, RecommendationPriority } from '../../../../common/ai-health.ts';

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
