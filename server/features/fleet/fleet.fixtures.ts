/** A `server_hop` event as a bot sends it in POST /api/bot/events: the n-th hop of a run, from job-n to job-(n+1). */
export function hopEvent(n: number, { success = true }: { success?: boolean } = {}) {
  return {
    type: 'server_hop',
    payload: {
      fromJobId: `job-${n}`,
      toJobId: `job-${n + 1}`,
      fromPlaceId: '109983668079237',
      toPlaceId: '109983668079237',
      success,
      latencyMs: 300,
      errorMessage: success ? null : 'Server is full',
      hopReason: success ? 'auto_scan' : 'server_full',
    },
  };
}

/** A `server_hop` payload as a bot sends it: a successful auto_scan hop of 100 ms, with `over` changed. */
export const hopPayload = (over: Record<string, unknown> = {}) => ({
  fromJobId: 'job-a',
  toJobId: 'job-b',
  fromPlaceId: '1',
  toPlaceId: '1',
  success: true,
  latencyMs: 100,
  hopReason: 'auto_scan',
  ...over,
});
