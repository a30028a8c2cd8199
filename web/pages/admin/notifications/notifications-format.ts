import type { Destination } from '../../../../common/notifications.ts';

/*
 * How the Notifications screen writes values per second and times: the way finds write their
 * values ("$12.5M/s" without the currency), so a range reads like the finds it lets through.
 */

const SUFFIXES = [
  { at: 1e12, suffix: 'T' },
  { at: 1e9, suffix: 'B' },
  { at: 1e6, suffix: 'M' },
  { at: 1e3, suffix: 'K' },
] as const;

/** A value per second with a K/M/B/T suffix and at most two decimals: 12_500_000 → "12.5M/s". */
export function formatValueRate(value: number): string {
  const step = SUFFIXES.find(({ at }) => value >= at);
  const scaled = step ? value / step.at : value;
  return `${Number(scaled.toFixed(2))}${step?.suffix ?? ''}/s`;
}

/** The values a destination takes: "1M/s – 10M/s", "10M/s and up", or "Any value". */
export function formatValueRange({ minValue, maxValue }: Pick<Destination, 'minValue' | 'maxValue'>): string {
  if (maxValue === null) return minValue === 0 ? 'Any value' : `${formatValueRate(minValue)} and up`;
  return `${formatValueRate(minValue)} – ${formatValueRate(maxValue)}`;
}

/** A time in milliseconds: "850 ms" under a second, else seconds with one decimal ("1.2 s"). */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A delay in seconds as the admin thinks of it: "None", "45 s", "5 min", "1 h 30 min". */
export function formatDelay(seconds: number): string {
  if (seconds === 0) return 'None';
  if (seconds < 60) return `${seconds} s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return [hours && `${hours} h`, minutes && `${minutes} min`, rest && `${rest} s`].filter(Boolean).join(' ');
}
