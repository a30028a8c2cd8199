import { Radar } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import { FLEET_STATE_LABELS } from '../../../../common/fleet-condition.ts';
import { FLEET_STATE_TONES, useFleetCondition } from '../shared/fleet-condition.tsx';

/**
 * The dashboard's line on the scanner fleet: its state (common/fleet-condition.ts) and the state in
 * one sentence ("No bot has reported for 2 min — last heard 09:12 from ghost-07"), kept current by
 * the admin socket; a link to Live Monitoring for the rest.
 */
export function FleetConditionCard() {
  const view = useFleetCondition();
  const state = view?.condition.state;
  return (
    <Card
      role="group"
      aria-label="Scanner Fleet"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3"
    >
      <Radar className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="text-sm font-medium">Scanner Fleet</span>
      <Badge variant="outline" className={cn(state ? FLEET_STATE_TONES[state] : 'text-muted-foreground')}>
        {state ? FLEET_STATE_LABELS[state] : 'UNKNOWN'}
      </Badge>
      <span className="min-w-0 flex-1 text-sm text-muted-foreground">
        {view ? view.headline : 'Not known while real-time data is unavailable'}
      </span>
      <Button variant="outline" size="sm" asChild>
        <Link to="/admin/live-monitoring">Open Live Monitoring</Link>
      </Button>
    </Card>
  );
}
