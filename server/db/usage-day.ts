const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day ('YYYY-MM-DD') a use at `ms` counts towards in usage_daily. */
export function usageDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The first day of the window of `days` days that ends with (and includes) the day of `now`. */
export function usageWindowStart(now: number, days: number): string {
  return usageDay(now - (days - 1) * DAY_MS);
}
