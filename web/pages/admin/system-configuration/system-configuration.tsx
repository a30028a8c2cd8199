import { useQuery } from '@tanstack/react-query';
import { Gauge, LayoutGrid, RefreshCw, Users, Wallet } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { cn } from '@/lib/cn.ts';
import { useRealtime } from '@/lib/realtime.tsx';
import { shortenWallet } from '../../../../common/mask.ts';
import type { SlotUsage, SystemConfiguration } from '../../../../common/system.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { ConnectionBadge } from '../shared/realtime-status.tsx';
import { CommunityInviteForm } from './community-invite-form.tsx';
import { DiscordTab } from './discord-tab.tsx';
import { HwidResetsForm } from './hwid-resets-form.tsx';
import { PaymentProcessorTab } from './payment-processor-tab.tsx';
import { PaymentWalletsEditor } from './payment-wallets-editor.tsx';
import { SlotCapacityForm } from './slot-capacity-form.tsx';
import {
  type SavedSystemConfiguration,
  slotUsageQuery,
  systemConfigurationQuery,
} from './system-configuration-queries.ts';
import { refusedWallets, useSaveSystemConfiguration } from './use-save-system-configuration.ts';
import { sameWallets, type Wallets } from './wallet-draft.ts';

/** /admin/system-configuration: premium slot capacity and the wallets buyers pay into. */
export default function SystemConfigurationPage() {
  const configuration = useQuery(systemConfigurationQuery());
  const slotUsage = useQuery(slotUsageQuery());
  const save = useSaveSystemConfiguration();
  const { status } = useRealtime();
  // null: no edits, the wallets tab mirrors the saved wallets (and follows polling).
  const [walletDraft, setWalletDraft] = useState<Wallets | null>(null);

  const refreshing = configuration.isFetching || slotUsage.isFetching;
  const refresh = () => {
    void configuration.refetch();
    void slotUsage.refetch();
  };

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="System Configuration"
        description="Premium slot capacity and the payment wallets shown to buyers."
        className="sm:items-start"
      >
        <div className="flex items-center gap-2">
          <ConnectionBadge status={status} />
          <Button variant="outline" size="sm" onClick={refresh} disabled={refreshing}>
            <RefreshCw className={cn(refreshing && 'animate-spin')} />
            Refresh
          </Button>
        </div>
      </AdminPageHeader>

      {configuration.isError && !configuration.data ? (
        <Alert variant="destructive">
          <AlertTitle>Configuration unavailable</AlertTitle>
          <AlertDescription>
            {`Failed to load system configuration: ${errorText(configuration.error)}`}
          </AlertDescription>
        </Alert>
      ) : !configuration.data ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : (
        <Tabs defaultValue="overview">
          <TabsList className="flex h-auto w-full flex-wrap justify-start sm:w-auto">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="slots">Slot Management</TabsTrigger>
            <TabsTrigger value="wallets">
              Payment Wallets
              {walletDraft && !sameWallets(walletDraft, configuration.data.paymentWallets) && (
                <>
                  <span className="ml-1.5 h-2 w-2 rounded-full bg-amber-400" aria-hidden="true" />
                  <span className="sr-only">(unsaved changes)</span>
                </>
              )}
            </TabsTrigger>
            <TabsTrigger value="processor">Payment Processor</TabsTrigger>
            <TabsTrigger value="discord">Discord</TabsTrigger>
          </TabsList>

          <TabsContent value="overview">
            <Overview
              configuration={configuration.data}
              slotUsage={slotUsage.data}
              slotUsageError={slotUsage.isError ? errorText(slotUsage.error) : null}
            />
          </TabsContent>

          <TabsContent value="slots" className="grid gap-6">
            <SlotCapacityForm
              configuration={configuration.data}
              slotUsage={slotUsage.data}
              saving={save.isPending}
              onSave={(next) => save.mutate(next)}
            />
            <HwidResetsForm
              configuration={configuration.data}
              saving={save.isPending}
              onSave={(next) => save.mutate(next)}
            />
          </TabsContent>

          <TabsContent value="wallets" className="grid gap-6">
            <WalletsTab
              configuration={configuration.data}
              draft={walletDraft}
              refused={refusedWallets(save.error)}
              saving={save.isPending}
              onDraftChange={setWalletDraft}
              onSave={(next) =>
                save.mutate(next, {
                  // Only the draft that was saved is done with: an edit made since stays unsaved.
                  onSuccess: () => setWalletDraft((draft) => (draft === next.paymentWallets ? null : draft)),
                })
              }
            />
            <CommunityInviteForm
              configuration={configuration.data}
              saving={save.isPending}
              onSave={(next) => save.mutate(next)}
            />
          </TabsContent>

          <TabsContent value="processor">
            <PaymentProcessorTab />
          </TabsContent>

          <TabsContent value="discord">
            <DiscordTab />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}

function WalletsTab({
  configuration,
  draft,
  refused,
  saving,
  onDraftChange,
  onSave,
}: {
  configuration: SavedSystemConfiguration;
  draft: Wallets | null;
  /** The wallets the last save was refused for, with why. */
  refused: Record<string, string> | null;
  saving: boolean;
  onDraftChange: (draft: Wallets | null) => void;
  onSave: (configuration: SystemConfiguration) => void;
}) {
  const wallets = draft ?? configuration.paymentWallets;
  const dirty = !sameWallets(wallets, configuration.paymentWallets);
  // A reason holds while its row still has the address it was given for.
  const problems: Record<string, string> = {};
  for (const [code, reason] of Object.entries(configuration.walletProblems ?? {})) {
    if (wallets[code] === configuration.paymentWallets[code]) problems[code] = reason;
  }
  for (const [code, reason] of Object.entries(refused ?? {})) {
    if (code in wallets) problems[code] = reason;
  }
  return (
    <PaymentWalletsEditor
      wallets={wallets}
      problems={problems}
      dirty={dirty}
      saving={saving}
      onChange={onDraftChange}
      onDiscard={() => onDraftChange(null)}
      onSave={() => onSave({ totalSlots: configuration.totalSlots, paymentWallets: wallets })}
    />
  );
}

function Overview({
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
