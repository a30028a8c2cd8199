import { lazy, Suspense, useMemo } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { FleetMinute } from '../../../../common/fleet.ts';
import { canvasAvailable, fleetChartColumns } from './fleet-chart-data.ts';

// uPlot and its CSS only load when the chart is drawn.
const FleetChartCanvas = lazy(() => import('./fleet-chart-canvas.tsx'));

/** Beyond the spec: hops per minute (succeeded, failed) and discoveries per minute, last hour. */
export function FleetChart({ lastHour }: { lastHour: FleetMinute[] }) {
  const columns = useMemo(() => fleetChartColumns(lastHour), [lastHour]);
  const drawable = useMemo(canvasAvailable, []);
  const totals = useMemo(
    () => ({
      ok: columns[1].reduce((a, b) => a + b, 0),
      failed: columns[2].reduce((a, b) => a + b, 0),
      pets: columns[3].reduce((a, b) => a + b, 0),
    }),
    [columns],
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Hops and Discoveries (last hour)</CardTitle>
        <p className="text-xs text-muted-foreground">
          {totals.ok} succeeded · {totals.failed} failed · {totals.pets} discoveries
        </p>
      </CardHeader>
      <CardContent>
        {columns[0].length === 0 ? (
          <p className="py-8 text-center text-muted-foreground">No activity in the last hour.</p>
        ) : drawable ? (
          <Suspense fallback={<p className="text-sm text-muted-foreground">Loading chart...</p>}>
            <FleetChartCanvas columns={columns} />
          </Suspense>
        ) : (
          <p className="text-sm text-muted-foreground">Chart unavailable in this browser.</p>
        )}
      </CardContent>
    </Card>
  );
}
