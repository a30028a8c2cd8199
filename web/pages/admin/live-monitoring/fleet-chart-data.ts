import type { FleetMinute } from '../../../../common/fleet.ts';

/** uPlot's aligned columns: x (epoch seconds), then hops succeeded, hops failed, discoveries. */
export type FleetChartColumns = [number[], number[], number[], number[]];

/**
 * `hopStats.lastHour` as chart columns, oldest minute first (uPlot needs ascending x); minutes
 * whose time does not parse are dropped rather than plotted at 1970.
 */
export function fleetChartColumns(lastHour: readonly FleetMinute[]): FleetChartColumns {
  const rows = lastHour
    .map((m) => ({ x: Date.parse(m.minute) / 1000, m }))
    .filter((r) => Number.isFinite(r.x))
    .sort((a, b) => a.x - b.x);
  return [
    rows.map((r) => r.x),
    rows.map((r) => r.m.hopsSucceeded),
    rows.map((r) => r.m.hopsFailed),
    rows.map((r) => r.m.discoveries),
  ];
}

/** Whether this browser can draw on a canvas (jsdom cannot). */
export function canvasAvailable(): boolean {
  if (typeof document === 'undefined' || typeof HTMLCanvasElement === 'undefined') return false;
  // jsdom defines HTMLCanvasElement but leaves getContext unimplemented; it says so in its own
  // navigator, which avoids calling it (and its "not implemented" error) in tests.
  if (typeof navigator !== 'undefined' && navigator.userAgent.includes('jsdom')) return false;
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}
