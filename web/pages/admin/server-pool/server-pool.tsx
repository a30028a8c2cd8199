import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Bot, CheckCircle2, RefreshCw, Server, Trash2 } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { cn } from '@/lib/cn.ts';
import { plural } from '@/lib/plural.ts';
import { formatDate } from '../../../../common/format.ts';
import type { FlaggedBot, QuarantinedServer, ServerPoolStats } from '../../../../common/server-pool.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { StatCard } from '../shared/stat-card.tsx';
import { serverPoolStatsQuery } from './server-pool-queries.ts';

/** The badge turns destructive at or below this share of available servers (spec). */
export const HEALTHY_AVAILABILITY_PERCENT = 90;
/** Below this share the page warns 'Low Pool Availability!' (spec). */
export const LOW_AVAILABILITY_PERCENT = 50;

/** /admin/server-pool: the pool's figures, polled every 5 s, and what the pool has set aside. */
export default function ServerPoolPage() {
  const { data, error, isPending, isFetching, refetch } = useQuery(serverPoolStatsQuery());

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Server Pool Monitor"
        description="Game servers waiting for scanner bots, the ones being scanned and the ones removed."
      >
        <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          <RefreshCw className={cn(isFetching && 'animate-spin')} />
          Refresh
        </Button>
      </AdminPageHeader>

      {error && !data ? (
        <Alert variant="destructive">
          <AlertTitle>Server pool unavailable</AlertTitle>
          <AlertDescription>
            Failed to load server pool statistics. Please try refreshing the page.
          </AlertDescription>
        </Alert>
      ) : data ? (
        <ServerPoolBody stats={data.stats} />
      ) : (
        isPending && <ServerPoolSkeleton />
      )}
    </div>
  );
}

function ServerPoolBody({ stats }: { stats: ServerPoolStats }) {
  // The total is the servers still in the pool: deleted ones are history, shown on their own card.
  const { available, assigned, deleted } = stats.byStatus;
  const availability = share(available, stats.total);
  const assignment = share(assigned, stats.total);
  // Thresholds compare the exact share: 90.4% is above 90 even though it may display rounded.
  const healthy = availability > HEALTHY_AVAILABILITY_PERCENT;

  return (
    <>
      {availability < LOW_AVAILABILITY_PERCENT && (
        <Alert variant="destructive">
          <AlertTriangle className="h-4 w-4" />
          <AlertTitle>Low Pool Availability!</AlertTitle>
          <AlertDescription>
            {stats.total === 0
              ? 'The pool holds no servers: bots have nothing to claim until servers are added.'
              : `Only ${available} of ${stats.total} servers are available for Ghost_ID assignments.`}
          </AlertDescription>
        </Alert>
      )}

      <section aria-label="Pool figures" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard
          title="Total Servers"
          value={stats.total}
          icon={Server}
          hint="Available or assigned; deleted ones not counted"
        />
        <StatCard
          title="Available Servers"
          value={available}
          icon={CheckCircle2}
          hint="Ready for a bot to claim"
          tone="text-emerald-400"
        />
        <StatCard
          title="Active Bots"
          value={stats.activeBots}
          icon={Bot}
          hint="Unique Ghost_IDs holding a server"
          tone="text-sky-400"
        />
        <StatCard
          title="Deleted Servers"
          value={deleted}
          icon={Trash2}
          hint="Removed when full or after errors"
          tone="text-red-400"
        />
      </section>

      <section className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex-row items-start justify-between gap-2">
            <div>
              <CardTitle className="text-lg">Pool Availability</CardTitle>
              <CardDescription>Share of servers ready for assignment</CardDescription>
            </div>
            <Badge variant={healthy ? 'default' : 'destructive'} data-testid="availability-badge">
              {formatShare(availability)}
            </Badge>
          </CardHeader>
          <CardContent className="grid gap-3">
            <Progress
              value={availability}
              aria-label="Pool Availability"
              indicatorClassName={healthy ? 'bg-emerald-500' : 'bg-red-500'}
            />
            <div className="text-sm">
              {available} of {stats.total} servers available
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Assignment Activity</CardTitle>
            <CardDescription>Servers assigned to bots right now</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            <div className="flex items-baseline justify-between text-sm">
              <span>
                {assigned}/{stats.total} assigned
              </span>
              <span className="font-semibold">{plural(stats.activeBots, 'bot', 'bots')} scanning</span>
            </div>
            <Progress value={assignment} aria-label="Assignment Activity" indicatorClassName="bg-sky-500" />
          </CardContent>
        </Card>
      </section>

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Status Summary</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2 text-sm">
            <SummaryLine dot="bg-emerald-500">
              {available} available servers (ready for Ghost_ID assignments)
            </SummaryLine>
            <SummaryLine dot="bg-sky-500">
              {stats.activeBots} active bots scanning (unique Ghost_IDs, with servers assigned)
            </SummaryLine>
            <SummaryLine dot="bg-red-500">{deleted} deleted servers (removed due to errors)</SummaryLine>
          </ul>
        </CardContent>
      </Card>

      <section className="grid gap-4 xl:grid-cols-2">
        <QuarantinedServers servers={stats.quarantined} />
        <FlaggedBots bots={stats.flaggedBots} />
      </section>
    </>
  );
}

function SummaryLine({ dot, children }: { dot: string; children: React.ReactNode }) {
  return (
    <li className="flex items-center gap-2">
      <span aria-hidden className={cn('h-2 w-2 shrink-0 rounded-full', dot)} />
      {children}
    </li>
  );
}

/** Servers that failed for several different bots: never handed out again until cleared. */
function QuarantinedServers({ servers }: { servers: QuarantinedServer[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Quarantined Servers</CardTitle>
        <CardDescription>Servers several bots failed on; the pool no longer hands them out</CardDescription>
      </CardHeader>
      <CardContent>
        {servers.length === 0 ? (
          <p className="text-sm text-muted-foreground">No quarantined servers</p>
        ) : (
          <Table aria-label="Quarantined servers">
            <TableHeader>
              <TableRow>
                <TableHead>Server</TableHead>
                <TableHead>Reason</TableHead>
                <TableHead>Since</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {servers.map((server) => (
                <TableRow key={server.jobId}>
                  <TableCell>
                    <span className="block font-mono text-xs">{server.jobId}</span>
                    <span className="block text-xs text-muted-foreground">Place {server.placeId}</span>
                  </TableCell>
                  <TableCell>{server.reason}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDate(server.quarantinedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** Bots failing on server after server: likely broken themselves rather than the servers. */
function FlaggedBots({ bots }: { bots: FlaggedBot[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Flagged Bots</CardTitle>
        <CardDescription>
          Bots that failed on several different servers since their last success
        </CardDescription>
      </CardHeader>
      <CardContent>
        {bots.length === 0 ? (
          <p className="text-sm text-muted-foreground">No flagged bots</p>
        ) : (
          <Table aria-label="Flagged bots">
            <TableHeader>
              <TableRow>
                <TableHead>Ghost_ID</TableHead>
                <TableHead>Failed servers</TableHead>
                <TableHead>Flagged</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {bots.map((bot) => (
                <TableRow key={bot.ghostId}>
                  <TableCell className="font-mono text-xs">{bot.ghostId}</TableCell>
                  <TableCell>{bot.failedServers}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDate(bot.flaggedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function ServerPoolSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
      {Array.from({ length: 4 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
        <Skeleton key={i} className="h-32" />
      ))}
    </div>
  );
}

/** Percentage of `part` in `whole`, unrounded; an empty pool has 0% available. */
function share(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/** One decimal, dropped when whole: 100%, 90.5%. */
function formatShare(value: number): string {
  return `${Number(value.toFixed(1))}%`;
}
