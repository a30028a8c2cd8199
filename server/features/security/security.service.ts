import type { z } from 'zod';
import {
  AUDIT_WINDOW_MS,
  type AuditLogListResponse,
  type AuditLogQuerySchema,
} from '../../../common/security.ts';
import type { AppContext } from '../../context.ts';
import type { PendingWrites } from './pending-writes.ts';
import { countAuditLogs, listAuditLogs } from './security.store.ts';

/**
 * One page of the last 24 hours' audit log, newest first, with the totals the screen shows. Rows the
 * hot paths have queued are written first, so an event that already happened is never missing.
 */
export async function listAuditLogsForAdmin(
  ctx: AppContext,
  pendingWrites: PendingWrites,
  query: z.output<typeof AuditLogQuerySchema>,
): Promise<AuditLogListResponse> {
  await pendingWrites.flush();
  const now = ctx.now();
  const since = now - AUDIT_WINDOW_MS;
  const [logs, counts] = await Promise.all([
    listAuditLogs(ctx.db, { since, eventType: query.eventType, limit: query.limit, offset: query.offset }),
    countAuditLogs(ctx.db, since, query.eventType),
  ]);
  return {
    logs,
    count: logs.length,
    total: counts.matching,
    last24h: counts.all,
    timestamp: new Date(now).toISOString(),
  };
}
