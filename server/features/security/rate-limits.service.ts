import {
  AUDIT_WINDOW_MS,
  type RateLimitStatusResponse,
  TOP_LIMITED_SHOWN,
} from '../../../common/security.ts';
import type { AppContext } from '../../context.ts';
import type { PendingWrites } from './pending-writes.ts';
import { findTopLimitedIdentifiers, RATE_LIMIT_HIT } from './rate-limit-hits.store.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { countAuditLogs } from './security.store.ts';

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
  const [live, hits, topLimitedIPs] = await Promise.all([
    store.stats(),
    countAuditLogs(ctx.db, since, RATE_LIMIT_HIT),
    findTopLimitedIdentifiers(ctx.db, ctx.dialect, since, TOP_LIMITED_SHOWN),
  ]);
  return {
    rateLimits: {
      activeLimits: live.activeLimits,
      totalLimits: live.totalLimits,
      hitCount24h: hits.matching,
      topLimitedIPs,
    },
    timestamp: new Date(now).toISOString(),
  };
}
