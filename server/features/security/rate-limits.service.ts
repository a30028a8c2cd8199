import {
  AUDIT_WINDOW_MS,
  type RateLimitStatusResponse,
  TOP_LIMITED_SHOWN,
} from '../../../common/security.ts';
import type { AppContext } from '../../context.ts';
import type { PendingWrites } from './pending-writes.ts';
import { countRateLimitHits, findTopLimitedIdentifiers } from './rate-limit-hits.store.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

/**
 * The rate limits as they stand: live counters from the limiter's store, refusals of the last 24
 * hours from the audit log (queued refusals written first, so a hit a moment ago is counted).
 */
export async function getRateLimitStatus(
  ctx: AppContext,
  store: RateLimitStore,
  pendingWrites: PendingWrites,
): Promise<RateLimitStatusResponse> {
  await pendingWrites.flush();
  const now = ctx.now();
  const since = now - AUDIT_WINDOW_MS;
  const [live, hitCount24h, topLimitedIPs] = await Promise.all([
    store.stats(),
    countRateLimitHits(ctx.db, since),
    findTopLimitedIdentifiers(ctx.db, ctx.dialect, since, TOP_LIMITED_SHOWN),
  ]);
  return {
    rateLimits: {
      activeLimits: live.activeLimits,
      totalLimits: live.totalLimits,
      hitCount24h,
      topLimitedIPs,
    },
    timestamp: new Date(now).toISOString(),
  };
}
