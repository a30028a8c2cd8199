import type { AnalysisWindow } from './detector.ts';

/** One event a burst is counted from: when, how much it weighs (a refused-calls row counts its calls), and what makes it distinct (a device). */
export interface TimedEvent {
  at: number;
  weight: number;
  distinct?: string;
}

export interface Burst {
  /** The window's events (their weights) that arrived while the trailing span held `threshold` or more. */
  occurrences: number;
  /** The most the trailing span held at one of the window's events. */
  peak: number;
  lastAt: number;
}

/**
 * Slides a span of `spanMs` over the events: at each event inside `window` (the new evidence), it
 * measures the span ending there (weights added up, or distinct values counted); the new events at
 * which the measure reached `threshold` make the burst. Events before the window only fill the span,
 * so a burst that started in the previous run goes on counting without counting anything twice.
 * Returns null when nothing in the window reached the threshold.
 */
export function trailingBurst(
  events: TimedEvent[],
  window: AnalysisWindow,
  spanMs: number,
  threshold: number,
  measure: 'sum' | 'distinct',
): Burst | null {
  const sorted = [...events].sort((a, b) => a.at - b.at);
  const distinct = new Map<string, number>();
  let sum = 0;
  let left = 0;
  let burst: Burst | null = null;
  for (const event of sorted) {
    sum += event.weight;
    if (event.distinct !== undefined) distinct.set(event.distinct, (distinct.get(event.distinct) ?? 0) + 1);
    for (; left < sorted.length && (sorted[left] as TimedEvent).at <= event.at - spanMs; left++) {
      const gone = sorted[left] as TimedEvent;
      sum -= gone.weight;
      if (gone.distinct !== undefined) {
        const remaining = (distinct.get(gone.distinct) ?? 1) - 1;
        if (remaining === 0) distinct.delete(gone.distinct);
        else distinct.set(gone.distinct, remaining);
      }
    }
    if (event.at < window.from || event.at >= window.to) continue;
    const value = measure === 'sum' ? sum : distinct.size;
    if (value < threshold) continue;
    burst ??= { occurrences: 0, peak: 0, lastAt: event.at };
    burst.occurrences += event.weight;
    burst.peak = Math.max(burst.peak, value);
    burst.lastAt = event.at;
  }
  return burst;
}
