const UNITS = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
] as const;

/**
 * How long until `iso`, in words ("2 days 3 hours", "5 minutes"): the largest unit and the next, so a
 * buyer reads the time left at a glance. A time already past reads "now".
 */
export function timeUntil(iso: string, now: number = Date.now()): string {
  const seconds = Math.floor((Date.parse(iso) - now) / 1000);
  if (!(seconds > 0)) return 'now';
  const largest = UNITS.findIndex(([size]) => seconds >= size);
  const largestSize = UNITS[largest]?.[0];
  if (largestSize === undefined) return 'less than a minute';
  return UNITS.slice(largest, largest + 2)
    .map(([size, unit], index) => {
      const count = Math.floor((index === 0 ? seconds : seconds % largestSize) / size);
      return count === 0 ? '' : `${count} ${unit}${count === 1 ? '' : 's'}`;
    })
    .filter(Boolean)
    .join(' ');
}
