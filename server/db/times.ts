/** Times are epoch milliseconds inside and ISO strings on the wire: an optional one, converted. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
