import {
  AUDIT_WINDOW_MS,
  type RateLimitStatusResponse,
  TOP_LIMITED_SHOWN,
} from '../../../common/security.ts';
import type { AppContext } from '../../context.ts';
import type { PendingWrites } from './pending-writes.ts';
import { countRefusedCalls, findTopLimitedIdentifiers } from './rate-limit-hits.store.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

/**
 * The rate limits as they stand: live counters from the limiter's store, refused calls of the last 24
 * hours from the audit log (each rate_limit_hit row counts the refusals of one caller's window) (queued refusals written first, so a hit a moment ago is counted).
 */
export async function getRateLimitStatus(
  ctx: AppContext,
  store: RateLimitStore,
  pendingWrites: PendingWrites,
): Promise<RateLimitStatusResponse> {
  await pendingWrites.flush();
  const now = ctx.now();
  const since = now - AUDIT_WINDOW_MS;
  const [live, hits, topLimitedIPs] = await Promise.all([
    store.stats(),
    countRefusedCalls(ctx.db, ctx.dialect, since),
    findTopLimitedIdentifiers(ctx.db, ctx.dialect, since, TOP_LIMITED_SHOWN),
  ]);
  return {
    rateLimits: {
      activeLimits: live.activeLimits,
      totalLimits: live.totalLimits,
      hitCount24h: hits,
      topLimitedIPs,
    },
    timestamp: new Date(now).toISOString(),
  };
}
