import { Activity, CheckCircle2, History, Settings2 } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { plural } from '@/lib/plural.ts';
import { CONFIGURATION_LIST_SIZES, type ConfigurationDashboard } from '../../../../common/configuration.ts';
import { formatDate } from '../../../../common/format.ts';
import { StatCard } from '../shared/stat-card.tsx';

/** A share as a whole percent; null when there is nothing to share. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/**
 * Bot Health's line: the share online while the network runs; under an emergency stop, how many are
 * still connected (they report themselves inactive, yet take the resume) and that they do not scan.
 */
export function botHealthHint({ configHealth, emergency }: ConfigurationDashboard): string {
  const { onlineBots, totalBots } = configHealth;
  if (emergency.stopped) return `${onlineBots} of ${totalBots} connected · scanning stopped`;
  const online = percent(onlineBots, totalBots);
  return online === null ? 'No bots yet' : `${online}% of bots online`;
}

/** The Overview tab: the spec's figures, which profiles the bots run, and the newest failures. */
export function OverviewTab({ dashboard }: { dashboard: ConfigurationDashboard }) {
  const { dashboardStats, configHealth, deploymentStats } = dashboard;
  const online = percent(configHealth.onlineBots, configHealth.totalBots);
  const success = percent(deploymentStats.successfulDeployments, deploymentStats.totalDeployments);
  return (
    <div className="grid gap-4">
      <section aria-label="Configuration figures" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard
          title="Total Configurations"
          value={dashboardStats.totalConfigurations}
          icon={Settings2}
          hint={`${dashboardStats.activeConfigurations} active`}
        />
        <StatCard
          title="Bot Health"
          value={`${configHealth.onlineBots}/${configHealth.totalBots}`}
          icon={Activity}
          hint={botHealthHint(dashboard)}
          tone={online !== null && online < 50 ? 'text-red-400' : undefined}
        />
        <StatCard
          title="Recent Changes"
          value={dashboardStats.recentChanges24h}
          icon={History}
          hint="In the last 24 hours"
        />
        <StatCard
          title="Deployment Success"
          value={`${deploymentStats.successfulDeployments}/${deploymentStats.totalDeployments}`}
          icon={CheckCircle2}
          hint={
            success === null
              ? 'No deployments yet'
              : `${success}% · ${Math.round(deploymentStats.averageResponseTime)} ms average response`
          }
          tone={success !== null && success < 90 ? 'text-amber-300' : undefined}
        />
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card role="group" aria-label="Active Profiles">
          <CardHeader>
            <CardTitle className="text-lg">Active Profiles</CardTitle>
            <CardDescription>Bots whose current values came from a profile</CardDescription>
          </CardHeader>
          <CardContent>
            {configHealth.activeProfiles.length === 0 ? (
              <p className="text-sm text-muted-foreground">No bot runs a profile</p>
            ) : (
              <ul className="grid gap-2">
                {configHealth.activeProfiles.map((profile) => (
                  <li key={profile.profileId} className="flex items-center justify-between gap-2 text-sm">
                    <span className="font-medium">{profile.profileName}</span>
                    <span className="tabular-nums text-muted-foreground">
                      {plural(profile.botCount, 'bot', 'bots')}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card role="group" aria-label="Recent Failures">
          <CardHeader>
            <CardTitle className="text-lg">Recent Failures</CardTitle>
            <CardDescription>Bots that refused or never acknowledged a push</CardDescription>
          </CardHeader>
          <CardContent>
            {configHealth.recentFailures.length === 0 ? (
              <p className="text-sm text-muted-foreground">No recent failures</p>
            ) : (
              <ul className="grid gap-3">
                {configHealth.recentFailures
                  .slice(0, CONFIGURATION_LIST_SIZES.recentFailures)
                  .map((failure) => (
                    <li
                      key={`${failure.botId}-${failure.timestamp}`}
                      className="grid gap-0.5 rounded-md border border-red-500/30 p-2 text-sm"
                    >
                      <div className="flex items-center justify-between gap-2">
                        <span className="font-mono font-medium">{failure.botId}</span>
                        <span className="text-xs text-muted-foreground">{formatDate(failure.timestamp)}</span>
                      </div>
                      <span className="text-red-400">{failure.errorMessage}</span>
                    </li>
                  ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
