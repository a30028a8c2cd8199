import { useQuery } from '@tanstack/react-query';
import {
  Ban,
  CalendarClock,
  CalendarDays,
  Clock,
  HardDrive,
  KeyRound,
  Link2,
  type LucideIcon,
  Plus,
  Receipt,
  RefreshCw,
  ShieldCheck,
  ShoppingCart,
  TrendingUp,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useRealtime } from '@/lib/realtime.tsx';
import type { DashboardStats } from '../../../../common/dashboard.ts';
import { formatDate } from '../../../../common/format.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { ConnectionBadge } from '../shared/realtime-status.tsx';
import type { GenerateKeyState } from '../shared/router-state.ts';
import { StatCard } from '../shared/stat-card.tsx';
import { dashboardStatsQuery } from './dashboard-queries.ts';
import { FleetConditionCard } from './fleet-condition-card.tsx';

type Stats = DashboardStats['stats'];
type Sales = DashboardStats['sales'];

/** /admin/dashboard: licence and binding figures, refreshed every 30 s, and the live-data indicator. */
export default function DashboardPage() {
  const { data, error, isPending } = useQuery(dashboardStatsQuery());

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Dashboard"
        description={
          <>Last updated: {data ? formatDate(data.timestamp) : isPending ? 'Loading...' : 'Unknown'}</>
        }
      >
        <LiveDataIndicator />
      </AdminPageHeader>

      <FleetConditionCard />

      {error && !data ? (
        <Alert variant="destructive">
          <AlertTitle>Dashboard unavailable</AlertTitle>
          <AlertDescription>
            Failed to load dashboard statistics. Please try refreshing the page.
          </AlertDescription>
        </Alert>
      ) : data ? (
        <DashboardBody stats={data.stats} sales={data.sales} />
      ) : (
        <DashboardSkeleton />
      )}
    </div>
  );
}

/** Real-time state: clients and status when connected, 'Real-time data unavailable' otherwise. */
function LiveDataIndicator() {
  const { status, systemHealth, requestSystemHealth, reconnect } = useRealtime();
  const connected = status === 'connected';
  return (
    <Card className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
      <ConnectionBadge status={status} />
      <div className="flex-1 whitespace-nowrap text-sm">
        {connected ? (
          <>
            <span className="font-medium">{clientCountText(systemHealth?.connectedClients ?? 0)}</span>
            <span className="block text-xs text-muted-foreground">
              System status: {systemHealth?.status ?? 'unknown'}
            </span>
          </>
        ) : (
          <span className="text-muted-foreground">Real-time data unavailable</span>
        )}
      </div>
      <Button variant="outline" size="sm" onClick={connected ? requestSystemHealth : reconnect}>
        <RefreshCw />
        Refresh Status
      </Button>
    </Card>
  );
}

function DashboardBody({ stats, sales }: { stats: Stats; sales: Sales | undefined }) {
  const keyHealth = percent(stats.activeKeys, stats.totalKeys);
  const bindingUse = percent(stats.activeBindings, stats.totalBindings);
  return (
    <>
      <section aria-label="License keys" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard
          title="Total Keys"
          value={stats.totalKeys}
          icon={KeyRound}
          hint="Every license and script key issued"
        />
        <StatCard
          title="Active Keys"
          value={stats.activeKeys}
          icon={ShieldCheck}
          hint="Usable right now"
          tone="text-emerald-400"
        />
        <StatCard
          title="Expired Keys"
          value={stats.expiredKeys}
          icon={CalendarClock}
          hint="Past their expiry date"
          tone="text-amber-400"
        />
        <StatCard
          title="Revoked Keys"
          value={stats.revokedKeys}
          icon={Ban}
          hint="Switched off by an admin"
          tone="text-red-400"
        />
      </section>

      <section
        aria-label="Bindings and usage"
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-5"
      >
        <StatCard
          title="Total Bindings"
          value={stats.totalBindings}
          icon={HardDrive}
          hint="Devices ever bound"
        />
        <StatCard
          title="Active Bindings"
          value={stats.activeBindings}
          icon={Link2}
          hint="Devices bound now"
          tone="text-sky-400"
        />
        <StatCard title="Today" value={stats.todayUsage} icon={Clock} hint="Key uses today" />
        <StatCard title="This Week" value={stats.weeklyUsage} icon={CalendarDays} hint="Key uses in 7 days" />
        <StatCard
          title="This Month"
          value={stats.monthlyUsage}
          icon={TrendingUp}
          hint="Key uses in 30 days"
          className="col-span-2 sm:col-span-1"
        />
      </section>

      {sales && (sales.connected || sales.week.orders > 0) && <SalesCards sales={sales} />}

      <section className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">License Key Health</CardTitle>
            <CardDescription>Share of issued keys that are active</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            <div className="flex items-baseline justify-between text-sm">
              <span>
                {stats.activeKeys} of {stats.totalKeys} keys active
              </span>
              <span className="font-semibold">{keyHealth}%</span>
            </div>
            <Progress value={keyHealth} aria-label="License Key Health" indicatorClassName="bg-emerald-500" />
            <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
              <span>{stats.expiredKeys} expired</span>
              <span>{stats.revokedKeys} revoked</span>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Hardware Binding Utilization</CardTitle>
            <CardDescription>Active bindings over all bindings</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            <div className="flex items-baseline justify-between text-sm">
              <span>
                {stats.activeBindings} of {stats.totalBindings} bindings active
              </span>
              <span className="font-semibold">{bindingUse}%</span>
            </div>
            <Progress
              value={bindingUse}
              aria-label="Hardware Binding Utilization"
              indicatorClassName="bg-sky-500"
            />
            <div className="text-xs text-muted-foreground">
              {stats.totalBindings - stats.activeBindings} revoked or released
            </div>
          </CardContent>
        </Card>
      </section>

      <QuickActions />
    </>
  );
}

/**
 * Paid orders today (since UTC midnight) and over the last 7 days, shown once payments are connected
 * (or while sales made before a disconnection still count this week).
 */
function SalesCards({ sales }: { sales: Sales }) {
  return (
    <section aria-label="Sales" className="grid grid-cols-2 gap-3 sm:gap-4">
      <StatCard
        title="Sales Today"
        value={formatMoney(sales.today.amount, sales.currency)}
        icon={ShoppingCart}
        hint={paidOrdersText(sales.today.orders, 'since midnight UTC')}
        tone="text-emerald-400"
      />
      <StatCard
        title="Sales This Week"
        value={formatMoney(sales.week.amount, sales.currency)}
        icon={Receipt}
        hint={paidOrdersText(sales.week.orders, 'in 7 days')}
      />
    </section>
  );
}

function formatMoney(amount: number, currency: string): string {
  return amount.toLocaleString('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  });
}

function paidOrdersText(count: number, when: string): string {
  return `${count} paid ${count === 1 ? 'order' : 'orders'} ${when}`;
}

const QUICK_ACTIONS: {
  label: string;
  description: string;
  to: string;
  icon: LucideIcon;
  state?: GenerateKeyState;
}[] = [
  {
    label: 'Generate Key',
    description: 'Issue a new license key',
    to: '/admin/license-keys',
    icon: Plus,
    // Same route as Manage Keys; the state opens the create dialog on arrival.
    state: { openGenerateDialog: true },
  },
  {
    label: 'Manage Keys',
    description: 'Search, revoke and delete keys',
    to: '/admin/license-keys',
    icon: KeyRound,
  },
  {
    label: 'Hardware Bindings',
    description: 'Devices bound to keys',
    to: '/admin/hardware-bindings',
    icon: Users,
  },
  {
    label: 'Security Logs',
    description: 'Audit trail of key activity',
    to: '/admin/security',
    icon: ShieldCheck,
  },
];

function QuickActions() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Quick Actions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {QUICK_ACTIONS.map(({ label, description, to, icon: Icon, state }) => (
          <Link
            key={label}
            to={to}
            state={state}
            className="flex items-center gap-3 rounded-md border p-4 transition-colors hover:border-primary/50 hover:bg-accent"
          >
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-md bg-primary/15 text-primary">
              <Icon className="h-4 w-4" />
            </span>
            <span>
              <span className="block text-sm font-medium">{label}</span>
              <span className="block text-xs text-muted-foreground">{description}</span>
            </span>
          </Link>
        ))}
      </CardContent>
    </Card>
  );
}

function DashboardSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
      {Array.from({ length: 8 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
        <Skeleton key={i} className="h-32" />
      ))}
    </div>
  );
}

/** Rounded share of `part` in `whole`; 0 when there is nothing yet. */
function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

function clientCountText(count: number): string {
  return `${count} ${count === 1 ? 'client' : 'clients'} connected`;
}
