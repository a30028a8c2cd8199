/** What a missing date reads as. */
export const NEVER = 'Never';
/** What an unparsable date reads as. */
export const INVALID_DATE = 'Invalid date';

const DATE_TIME_OPTIONS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

/**
 * A date in US English short format with hours and minutes ("Nov 22, 2026, 01:25 AM").
 * Missing (null, undefined, empty) reads 'Never'; unparsable reads 'Invalid date'.
 * `timeZone` is for tests; screens use the browser's zone.
 */
export function formatDate(value: string | number | Date | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return NEVER;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return INVALID_DATE;
  return date.toLocaleString('en-US', { ...DATE_TIME_OPTIONS, timeZone });
}

/** A size as the screens show it: B, KB with 1 decimal, MB with 2, in steps of 1024. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
