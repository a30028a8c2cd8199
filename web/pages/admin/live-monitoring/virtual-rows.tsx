import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A fixed-height scroll area that renders only the rows in view (plus `overscan` either side), so a
 * live list costs the same at 20 rows or 2,000. By default rows have one fixed height: nothing is
 * measured, which keeps a busy feed free of layout reads. With `measureRows`, each row takes the
 * height its content needs (a narrow screen wraps it onto more lines), `rowHeight` being the guess
 * until it is measured; only the rows in view are measured, once each and again when they resize.
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
  measureRows = false,
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
  /** Rows as tall as their content rather than `rowHeight`. */
  measureRows?: boolean;
}) {
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => (items[index] ? keyOf(items[index]) : index),
    overscan,
    // The viewport is fixed at `height` and rows span its width, so there is nothing to measure
    // (which also lets rows render where nothing is laid out, as in jsdom).
    observeElementRect: (_instance, onRect) => onRect({ width: 0, height }),
    // A row that is not laid out (jsdom) measures 0: it keeps the guess.
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || rowHeight,
  });
  const newest = items[0] ? keyOf(items[0]) : undefined;
  useEffect(() => {
    if (pinNewest && newest !== undefined && scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [pinNewest, newest]);

  return (
    // A named region and a Tab stop: keyboard users scroll the list with the arrow keys (its rows
    // hold nothing focusable, and only a few of them are in the DOM at a time).
    <section
      ref={scrollRef}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className="overflow-y-auto rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      style={{ height }}
      data-testid={testId}
    >
      <ul aria-label={label} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          return (
            <li
              key={row.key}
              ref={measureRows ? virtualizer.measureElement : undefined}
              data-index={row.index}
              aria-label={rowLabelOf?.(item)}
              className="absolute left-0 top-0 w-full"
              style={{
                height: measureRows ? undefined : rowHeight,
                transform: `translateY(${row.start}px)`,
              }}
            >
              {renderRow(item)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
