import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Activity, HeartPulse, RefreshCw, ShieldAlert, ShieldBan } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/cn.ts';
import { formatDate } from '../../../../common/format.ts';
import { DEFAULT_AUDIT_PAGE_SIZE } from '../../../../common/security.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { StatCard } from '../shared/stat-card.tsx';
import { ALL_EVENTS, AuditLogCard, type AuditLogFilters } from './security-audit-log.tsx';
import { auditLogsQuery, rateLimitsQuery } from './security-queries.ts';
import { RateLimitPanel } from './security-rate-limits.tsx';

/** /admin/security: the last 24 hours' security events and the rate limiter's state. */
export default function SecurityPage() {
  const [filters, setFilters] = useState<AuditLogFilters>({
    eventType: ALL_EVENTS,
    limit: DEFAULT_AUDIT_PAGE_SIZE,
  });
  const logs = useQuery({
    ...auditLogsQuery(filters),
    // The rows stay (dimmed) while another filter loads instead of flashing "Loading".
    placeholderData: keepPreviousData,
    // Going back to a filter seen before shows its rows at once but still asks the server again.
    staleTime: 0,
  });
  const rateLimits = useQuery(rateLimitsQuery());

  const failed = (logs.isError && !logs.data) || (rateLimits.isError && !rateLimits.data);
  const refreshing = logs.isFetching || rateLimits.isFetching;
  const refresh = () => {
    void logs.refetch();
    void rateLimits.refetch();
  };

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Security & Analytics"
        description="Audit events of the last 24 hours and the rate limiter's live state."
      >
        <Button variant="outline" size="sm" onClick={refresh} disabled={refreshing}>
          <RefreshCw className={cn(refreshing && 'animate-spin')} />
          Refresh
        </Button>
      </AdminPageHeader>

      {failed ? (
        <Alert variant="destructive">
          <AlertTitle>Security data unavailable</AlertTitle>
          <AlertDescription>Failed to load security data. Please try refreshing the page.</AlertDescription>
        </Alert>
      ) : (
        <>
          <section
            aria-label="Security figures"
            className="grid gap-3 sm:grid-cols-2 sm:gap-4 xl:grid-cols-4"
          >
            {logs.data && rateLimits.data ? (
              <>
                <StatCard
                  title="Security Events (24h)"
                  value={logs.data.last24h}
                  icon={Activity}
                  hint="Audit events in the last 24 hours"
                />
                <StatCard
                  title="Rate Limit Hits"
                  value={rateLimits.data.hitCount24h}
                  icon={ShieldAlert}
                  hint="Requests refused in 24 hours"
                  tone={rateLimits.data.hitCount24h > 0 ? 'text-amber-400' : undefined}
                />
                <StatCard
                  title="Active Rate Limits"
                  value={rateLimits.data.activeLimits}
                  icon={ShieldBan}
                  hint="Callers refused right now"
                  tone={rateLimits.data.activeLimits > 0 ? 'text-red-400' : undefined}
                />
                <StatCard
                  title="System Health"
                  value="Healthy"
                  icon={HeartPulse}
                  hint={
                    logs.isError || rateLimits.isError
                      ? 'Latest refresh failed; showing the last answers'
                      : `Audit log and rate limiter answering, as of ${formatDate(logs.data.timestamp)}`
                  }
                  tone="text-emerald-400"
                />
              </>
            ) : (
              Array.from({ length: 4 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
                <Skeleton key={i} className="h-28" />
              ))
            )}
          </section>

          {rateLimits.data ? (
            <RateLimitPanel rateLimits={rateLimits.data} />
          ) : (
            <Skeleton className="h-48" aria-busy="true" />
          )}

          <AuditLogCard
            logs={logs.data}
            filters={filters}
            onFiltersChange={setFilters}
            stale={logs.isPlaceholderData}
          />
        </>
      )}
    </div>
  );
}
