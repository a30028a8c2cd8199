import { Gauge, LayoutGrid, Users, Wallet } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { cn } from '@/lib/cn.ts';
import { shortenWallet } from '../../../../common/mask.ts';
import type { SlotUsage } from '../../../../common/system.ts';
import type { SavedSystemConfiguration } from './system-configuration-queries.ts';

/** System Configuration's Overview tab: the slot figures, utilisation and the saved wallets. */
export function Overview({
  configuration,
  slotUsage,
  slotUsageError,
}: {
  configuration: SavedSystemConfiguration;
  slotUsage: SlotUsage | undefined;
  slotUsageError: string | null;
}) {
  const wallets = Object.entries(configuration.paymentWallets).sort(([a], [b]) => a.localeCompare(b));
  const utilization = slotUsage?.utilizationPercentage ?? 0;
  const full = slotUsage !== undefined && slotUsage.availableSlots === 0;
  return (
    <div className="grid gap-4">
      {slotUsageError && (
        <Alert variant="destructive">
          <AlertDescription>{`Slot usage unavailable: ${slotUsageError}`}</AlertDescription>
        </Alert>
      )}
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Figure
          title="Total Slots"
          icon={LayoutGrid}
          value={slotUsage?.totalSlots ?? configuration.totalSlots}
        />
        <Figure title="Used Slots" icon={Users} value={slotUsage?.usedSlots} />
        <Figure
          title="Available Slots"
          icon={Gauge}
          value={slotUsage?.availableSlots}
          tone={full ? 'text-red-400' : 'text-emerald-400'}
        />
        <Figure title="Configured Wallets" icon={Wallet} value={wallets.length} />
      </div>

      <Card>
        <CardHeader>
          <div className="flex items-center justify-between gap-2">
            <CardTitle className="text-lg">Slot Utilization</CardTitle>
            <Badge variant={full ? 'destructive' : 'success'}>{full ? 'Full' : 'Available'}</Badge>
          </div>
          <CardDescription>Active premium and VIP licenses over total capacity</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <div className="flex items-baseline justify-between text-sm">
            <span>
              {slotUsage
                ? `${slotUsage.usedSlots} of ${slotUsage.totalSlots} slots used`
                : 'Loading slot usage...'}
            </span>
            <span className="font-semibold">{utilization}%</span>
          </div>
          <Progress value={utilization} aria-label="Slot utilization" />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Payment Wallets</CardTitle>
          <CardDescription>Saved wallets, as buyers see them</CardDescription>
        </CardHeader>
        <CardContent>
          {wallets.length === 0 ? (
            <p className="text-sm text-muted-foreground">No payment wallets configured</p>
          ) : (
            <ul className="grid gap-2 sm:grid-cols-2">
              {wallets.map(([code, address]) => (
                <li key={code} className="flex items-center gap-3 rounded-md border p-3">
                  <Badge variant="secondary" className="font-mono">
                    {code}
                  </Badge>
                  <span className="truncate font-mono text-xs text-muted-foreground" title={address}>
                    {shortenWallet(address)}
                  </span>
                  {configuration.walletProblems?.[code] && (
                    <Badge variant="destructive" className="ml-auto shrink-0">
                      Hidden from buyers
                    </Badge>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Figure({
  title,
  value,
  icon: Icon,
  tone,
}: {
  title: string;
  value: number | undefined;
  icon: typeof Wallet;
  tone?: string;
}) {
  return (
    <Card role="group" aria-label={title}>
      <CardHeader className="flex-row items-center justify-between gap-2 p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle className="truncate text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <Icon className="h-4 w-4 text-muted-foreground" />
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <div className={cn('text-2xl font-bold tabular-nums sm:text-3xl', tone)}>{value ?? '—'}</div>
      </CardContent>
    </Card>
  );
}
