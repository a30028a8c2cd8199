import { Pencil, RotateCcw } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { plural } from '@/lib/plural.ts';
import { type BotConfiguration, CONFIGURATION_LIST_SIZES } from '../../../../common/configuration.ts';
import { DateCell } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { ActiveBadge, DeployStateBadge } from './deploy-state-badge.tsx';
import { useResetBotConfiguration } from './live-configuration-mutations.ts';

const COLUMNS = ['Bot', 'Status', 'Version', 'Deployment', 'Profile', 'Last Deployed', 'Actions'] as const;

/**
 * The spec's status list: the first 10 bot configurations, with where each one's latest push
 * stands. Edit loads a bot's values into the form and selects it alone; Reset to defaults pushes
 * the spec's default parameters to that one bot.
 */
export function ConfigurationStatusList({
  configurations,
  onEdit,
}: {
  configurations: readonly BotConfiguration[];
  onEdit: (configuration: BotConfiguration) => void;
}) {
  const reset = useResetBotConfiguration();
  const shown = configurations.slice(0, CONFIGURATION_LIST_SIZES.statusList);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Configuration Status</CardTitle>
        <CardDescription>{`Showing ${shown.length} of ${plural(configurations.length, 'bot configuration', 'bot configurations')}`}</CardDescription>
      </CardHeader>
      <CardContent className="px-0 sm:px-6">
        <AdminTable columns={COLUMNS}>
          {shown.map((configuration) => (
            <AdminRow key={configuration.botId} data-testid={`configuration-${configuration.botId}`}>
              <AdminCell label="Bot" className="font-mono font-medium">
                {configuration.botId}
              </AdminCell>
              <AdminCell label="Status">
                <ActiveBadge active={configuration.isActive} />
              </AdminCell>
              <AdminCell label="Version" className="tabular-nums">
                {`v${configuration.version}`}
              </AdminCell>
              <AdminCell label="Deployment">
                <DeployStateBadge state={configuration.deployState} />
                {configuration.deployError && (
                  <p className="mt-1 text-xs text-red-400">{configuration.deployError}</p>
                )}
              </AdminCell>
              <AdminCell label="Profile" className="text-sm">
                {configuration.profileName ?? <span className="text-muted-foreground">Custom</span>}
              </AdminCell>
              <DateCell label="Last Deployed" value={configuration.lastDeployed} />
              <ActionsCell>
                <Button
                  variant="ghost"
                  size="icon"
                  className="h-8 w-8"
                  aria-label={`Edit ${configuration.botId}`}
                  title="Load this bot's values into the form and select it alone"
                  onClick={() => onEdit(configuration)}
                >
                  <Pencil />
                </Button>
                <ConfirmActionButton
                  icon={<RotateCcw />}
                  label={`Reset ${configuration.botId} to defaults`}
                  title={`Reset ${configuration.botId} to the default parameters?`}
                  description="The bot gets the default hop timing, pet thresholds, behaviour and network limits at once, and leaves its profile."
                  confirmLabel="Reset to Defaults"
                  pending={reset.isPending && reset.variables === configuration.botId}
                  onConfirm={() => reset.mutate(configuration.botId)}
                />
              </ActionsCell>
            </AdminRow>
          ))}
        </AdminTable>
      </CardContent>
    </Card>
  );
}
