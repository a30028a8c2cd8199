import { LoaderCircle, Send, Trophy } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { plural } from '@/lib/plural.ts';
import {
  type ConfigurationDashboard,
  type ConfigurationProfile,
  MAX_REASON_LENGTH,
  PROFILE_PARAMETERS,
} from '../../../../common/configuration.ts';
import { type ListState, ListStateView } from '../shared/list-state.tsx';
import { NO_BOTS_SELECTED, requireSelection, useApplyProfile } from './live-configuration-mutations.ts';
import { PARAMETER_LABELS } from './parameter-form.ts';

export const NO_PROFILES_TEXT = 'No profiles available';

/** A profile's value as the card shows it. */
function profileValue(profile: ConfigurationProfile, name: (typeof PROFILE_PARAMETERS)[number]): string {
  const value = profile[name];
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  return value.toLocaleString('en-US');
}

/**
 * The Profiles tab: a card per profile with Apply to Selected (the bots ticked on the Parameters
 * tab), and the spec's usage ranking.
 */
export function ProfilesTab({
  profiles,
  ranking,
  targetBotIds,
}: {
  profiles: ListState<ConfigurationProfile>;
  ranking: ConfigurationDashboard['dashboardStats']['topUsedProfiles'];
  targetBotIds: string[];
}) {
  const applyProfile = useApplyProfile();
  const reasonId = useId();
  const [reason, setReason] = useState('');

  const apply = (profile: ConfigurationProfile) => {
    if (!requireSelection(targetBotIds, NO_BOTS_SELECTED.profile)) return;
    applyProfile.mutate({ profile, targetBotIds, reason: reason.trim() });
  };

  return (
    <div className="grid gap-4">
      <Card>
        <CardContent className="grid gap-2 pt-6 sm:grid-cols-[1fr_auto] sm:items-end sm:gap-4">
          <div className="grid gap-2">
            <Label htmlFor={reasonId}>Reason (optional)</Label>
            <Input
              id={reasonId}
              value={reason}
              maxLength={MAX_REASON_LENGTH}
              placeholder="Why this profile, for the history"
              onChange={(event) => setReason(event.target.value)}
            />
          </div>
          <p className="text-sm text-muted-foreground sm:pb-2">
            {`${plural(targetBotIds.length, 'bot', 'bots')} selected on the Parameters tab`}
          </p>
        </CardContent>
      </Card>

      <ListStateView state={profiles} loading="Loading profiles..." empty={NO_PROFILES_TEXT}>
        {(items) => (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {items.map((profile) => (
              <Card
                key={profile.id}
                role="group"
                aria-label={`Profile ${profile.name}`}
                className="flex flex-col"
              >
                <CardHeader>
                  <div className="flex flex-wrap items-center gap-2">
                    <CardTitle className="text-lg">{profile.name}</CardTitle>
                    <Badge variant="outline">{profile.profileType}</Badge>
                    {profile.isBuiltIn && <Badge variant="secondary">Built-in</Badge>}
                  </div>
                  <CardDescription>{profile.description}</CardDescription>
                </CardHeader>
                <CardContent className="grid flex-1 gap-3">
                  <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                    {PROFILE_PARAMETERS.map((name) => (
                      <div key={name} className="grid">
                        <dt className="text-xs text-muted-foreground">{PARAMETER_LABELS[name]}</dt>
                        <dd className="font-medium tabular-nums">{profileValue(profile, name)}</dd>
                      </div>
                    ))}
                  </dl>
                  <p className="text-xs text-muted-foreground">
                    {profile.usageCount === 1 ? 'Applied once' : `Applied ${profile.usageCount} times`}
                  </p>
                </CardContent>
                <CardFooter>
                  <Button className="w-full" disabled={applyProfile.isPending} onClick={() => apply(profile)}>
                    {applyProfile.isPending && applyProfile.variables?.profile.id === profile.id ? (
                      <LoaderCircle className="animate-spin" />
                    ) : (
                      <Send />
                    )}
                    Apply to Selected
                  </Button>
                </CardFooter>
              </Card>
            ))}
          </div>
        )}
      </ListStateView>

      <Card role="group" aria-label="Profile Usage">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-lg">
            <Trophy className="h-4 w-4 text-amber-300" />
            Profile Usage
          </CardTitle>
          <CardDescription>Profiles by how often they were applied</CardDescription>
        </CardHeader>
        <CardContent>
          {ranking.length === 0 ? (
            <p className="text-sm text-muted-foreground">No profile applied yet</p>
          ) : (
            <ol className="grid gap-2">
              {ranking.map((entry, index) => (
                <li key={entry.profileName} className="flex items-center gap-3 text-sm">
                  <span className="w-6 text-right font-semibold tabular-nums text-muted-foreground">
                    {`${index + 1}.`}
                  </span>
                  <span className="flex-1 font-medium">{entry.profileName}</span>
                  <span className="tabular-nums text-muted-foreground">
                    {plural(entry.usageCount, 'use', 'uses')}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
