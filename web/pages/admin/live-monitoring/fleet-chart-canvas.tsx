import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { FleetChartColumns } from './fleet-chart-data.ts';

const HEIGHT = 260;

/** The uPlot drawing; loaded lazily by fleet-chart.tsx so the page's first load stays small. */
export default function FleetChartCanvas({ columns }: { columns: FleetChartColumns }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const columnsRef = useRef(columns);
  columnsRef.current = columns;

  // One plot for the component's life; data updates go through setData, not a rebuild.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // uPlot draws axes in black by default; take the theme's text colour so they read on dark too.
    const text = getComputedStyle(host).color;
    const grid = { stroke: 'rgba(128, 128, 128, 0.2)' };
    const plot = new uPlot(
      {
        width: host.clientWidth || 600,
        height: HEIGHT,
        series: [
          {},
          { label: 'Hops succeeded', stroke: '#16a34a', width: 2 },
          { label: 'Hops failed', stroke: '#dc2626', width: 2 },
          { label: 'Discoveries', stroke: '#7c3aed', width: 2 },
        ],
        axes: [
          { stroke: text, grid, ticks: grid },
          { label: 'per minute', stroke: text, grid, ticks: grid },
        ],
      },
      columnsRef.current,
      host,
    );
    plotRef.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: host.clientWidth, height: HEIGHT }));
    resize.observe(host);
    return () => {
      resize.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, []);

  useEffect(() => {
    plotRef.current?.setData(columns);
  }, [columns]);

  return <div ref={hostRef} className="w-full" data-testid="fleet-chart-canvas" />;
}
