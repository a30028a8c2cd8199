/** Codes, script keys, bindings, audit logs and rate limits all poll every 30 s (spec). */
export const LICENSING_REFETCH_MS = 30_000;
