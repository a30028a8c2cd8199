import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { cn } from '@/lib/cn.ts';
import { useRealtime } from '@/lib/realtime.tsx';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { ConnectionBadge } from '../shared/realtime-status.tsx';
import {
  UnsavedEditsScope,
  useGuardedTabs,
  useUnsavedChangesGuard,
  useUnsavedEditsCounter,
} from '../shared/use-unsaved-changes-guard.tsx';
import { CommunityInviteForm } from './community-invite-form.tsx';
import { DiscordTab } from './discord-tab.tsx';
import { HwidResetsForm } from './hwid-resets-form.tsx';
import { PaymentProcessorTab } from './payment-processor-tab.tsx';
import { SlotCapacityForm } from './slot-capacity-form.tsx';
import { Overview } from './system-configuration-overview.tsx';
import { slotUsageQuery, systemConfigurationQuery } from './system-configuration-queries.ts';
import { refusedWallets, useSaveSystemConfiguration } from './use-save-system-configuration.ts';
import { sameWallets, type Wallets } from './wallet-draft.ts';
import { WalletsTab } from './wallets-tab.tsx';

/** /admin/system-configuration: premium slot capacity and the wallets buyers pay into. */
export default function SystemConfigurationPage() {
  const configuration = useQuery(systemConfigurationQuery());
  const slotUsage = useQuery(slotUsageQuery());
  const save = useSaveSystemConfiguration();
  const { status } = useRealtime();
  // null: no edits, the wallets tab mirrors the saved wallets (and follows polling).
  const [walletDraft, setWalletDraft] = useState<Wallets | null>(null);
  const walletsUnsaved =
    walletDraft !== null &&
    configuration.data !== undefined &&
    !sameWallets(walletDraft, configuration.data.paymentWallets);
  // The tabs' forms report their own edits; those are lost on a tab switch, the wallet draft is not.
  const formEdits = useUnsavedEditsCounter();
  const leaveQuestion = useUnsavedChangesGuard(walletsUnsaved || formEdits.unsaved);
  const tabs = useGuardedTabs('overview', formEdits.unsaved);

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
        <UnsavedEditsScope tracker={formEdits.tracker}>
          <Tabs value={tabs.value} onValueChange={tabs.onValueChange}>
            <TabsList className="flex h-auto w-full flex-wrap justify-start sm:w-auto">
              <TabsTrigger value="overview">Overview</TabsTrigger>
              <TabsTrigger value="slots">Slot Management</TabsTrigger>
              <TabsTrigger value="wallets">
                Payment Wallets
                {walletsUnsaved && (
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
                    onSuccess: () =>
                      setWalletDraft((draft) => (draft === next.paymentWallets ? null : draft)),
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
        </UnsavedEditsScope>
      )}
      {leaveQuestion}
      {tabs.dialog}
    </div>
  );
}
