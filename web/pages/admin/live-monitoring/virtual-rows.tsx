import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A fixed-height scroll area that renders only the rows in view (plus `overscan` either side), so a
 * live list costs the same at 20 rows or 2,000. Rows have one fixed height: nothing is measured,
 * which keeps a busy feed free of layout reads.
 */
export function VirtualRows<T>({
  items,
  rowHeight,
  height,
  overscan = 5,
  keyOf,
  renderRow,
  rowLabelOf,
  label,
  testId,
  pinNewest = false,
}: {
  /** Newest first. */
  items: readonly T[];
  rowHeight: number;
  height: number;
  overscan?: number;
  keyOf: (item: T) => string;
  renderRow: (item: T) => ReactNode;
  /** A row's accessible name, when its text alone does not say what it is. */
  rowLabelOf?: (item: T) => string;
  /** The list's accessible name. */
  label: string;
  testId: string;
  /** Keep the scroll at the top, where the newest row is, as rows arrive. */
  pinNewest?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => (items[index] ? keyOf(items[index]) : index),
    overscan,
    // The viewport is fixed at `height` and rows span its width, so there is nothing to measure
    // (which also lets rows render where nothing is laid out, as in jsdom).
    observeElementRect: (_instance, onRect) => onRect({ width: 0, height }),
  });
  const newest = items[0] ? keyOf(items[0]) : undefined;
  useEffect(() => {
    if (pinNewest && newest !== undefined && scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [pinNewest, newest]);

  return (
    <div ref={scrollRef} className="overflow-y-auto" style={{ height }} data-testid={testId}>
      <ul aria-label={label} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          return (
            <li
              key={row.key}
              aria-label={rowLabelOf?.(item)}
              className="absolute left-0 top-0 w-full"
              style={{ height: rowHeight, transform: `translateY(${row.start}px)` }}
            >
              {renderRow(item)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
