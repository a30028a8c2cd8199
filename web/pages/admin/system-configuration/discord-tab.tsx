import { useQuery } from '@tanstack/react-query';
import { Eraser } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import {
  DISCORD_SETTING_ENV,
  type DiscordSettingField,
  type DiscordSettingsView,
  type UpdateDiscordSettingsRequest,
} from '../../../../common/discord.ts';
import { errorText } from '../shared/error-text.ts';
import { FormField } from '../shared/form-field.tsx';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { CopyableUrl } from './copyable-url.tsx';
import { DiscordCheck } from './discord-check.tsx';
import { discordSettingsQuery, useSaveDiscordSettings } from './discord-queries.ts';
import { PremiumRoleCard } from './discord-role-grants.tsx';
import { SaveButton } from './form-parts.tsx';

/*
 * System Configuration → Discord: the application whose slash commands reach this server, the bot
 * token (never shown whole), the guild and its roles; the interactions URL to paste in the Developer
 * Portal. A setting the environment sets is read-only here (docs/discord.md).
 */

const TEXT_FIELDS = [
  { field: 'applicationId', label: 'Application ID', placeholder: 'General Information → Application ID' },
  {
    field: 'publicKey',
    label: 'Public key',
    placeholder: '64 hex characters (General Information → Public Key)',
  },
  { field: 'guildId', label: 'Guild ID', placeholder: 'Your server: right-click its icon → Copy Server ID' },
  { field: 'premiumRoleId', label: 'Premium role ID', placeholder: 'Server Settings → Roles → Copy Role ID' },
  { field: 'adminRoleId', label: 'Admin role ID', placeholder: 'Members with it may /whitelist and /lookup' },
] as const;

type Draft = Record<DiscordSettingField, string>;

export function DiscordTab() {
  const settings = useQuery(discordSettingsQuery());
  if (settings.isError && !settings.data) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Discord settings unavailable</AlertTitle>
        <AlertDescription>{errorText(settings.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!settings.data) return <Skeleton className="h-96" aria-busy="true" />;
  return (
    <div className="grid gap-6">
      <DiscordCard settings={settings.data.settings} />
      <PremiumRoleCard />
    </div>
  );
}

function DiscordCard({ settings }: { settings: DiscordSettingsView }) {
  const save = useSaveDiscordSettings();
  const [draft, setDraft] = useState<Draft>(() => initialDraft(settings));
  const setField = (field: DiscordSettingField, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  useUnsavedEdits(Object.keys(settingsChange(settings, draft)).length > 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change = settingsChange(settings, draft);
    if (Object.keys(change).length === 0) return;
    save.mutate(change, { onSuccess: ({ settings: saved }) => setDraft(initialDraft(saved)) });
  };
  const note = (field: DiscordSettingField) =>
    settings.fromEnvironment[field]
      ? `Set by the environment (${DISCORD_SETTING_ENV[field]}): change it there.`
      : undefined;

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-lg">Discord</CardTitle>
          <Badge variant={settings.interactionsReady ? 'success' : 'secondary'}>
            {settings.interactionsReady ? 'Interactions verified' : 'No public key'}
          </Badge>
        </div>
        <CardDescription>
          Buyers redeem codes, read their keys and reset devices with slash commands in your Discord server;
          the premium role follows their keys.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form onSubmit={submit} noValidate className="grid max-w-2xl gap-4" aria-label="Discord settings">
          {TEXT_FIELDS.map(({ field, label, placeholder }) => (
            <FormField key={field} label={label} hint={note(field)}>
              {(control) => (
                <Input
                  {...control}
                  value={draft[field]}
                  placeholder={placeholder}
                  readOnly={settings.fromEnvironment[field]}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => setField(field, e.target.value)}
                />
              )}
            </FormField>
          ))}
          <FormField
            label="Bot token"
            hint={
              note('botToken') ??
              (settings.botToken
                ? `Saved (${settings.botToken}). Leave empty to keep it.`
                : 'Not set. Shown only masked once saved.')
            }
          >
            {(control) => (
              <div className="flex gap-2">
                <Input
                  {...control}
                  type="password"
                  value={draft.botToken}
                  placeholder={settings.botToken ?? 'Bot → Reset Token'}
                  readOnly={settings.fromEnvironment.botToken}
                  autoComplete="new-password"
                  onChange={(e) => setField('botToken', e.target.value)}
                />
                {settings.botToken && !settings.fromEnvironment.botToken && (
                  <ConfirmActionButton
                    icon={<Eraser />}
                    label="Clear bot token"
                    className="h-9 w-9 shrink-0"
                    title="Clear the bot token?"
                    description="The saved token is removed. Commands cannot be registered and roles stop changing until a new one is saved."
                    confirmLabel="Clear"
                    onConfirm={() =>
                      save.mutate({ botToken: null }, { onSuccess: () => setField('botToken', '') })
                    }
                    pending={save.isPending}
                  />
                )}
              </div>
            )}
          </FormField>
          {!Object.values(settings.fromEnvironment).every(Boolean) && (
            <SaveButton saving={save.isPending}>Save Discord Settings</SaveButton>
          )}
        </form>
        <DiscordCheck />
        <InteractionsUrl path={settings.interactionsPath} />
      </CardContent>
    </Card>
  );
}

function InteractionsUrl({ path }: { path: string }) {
  return (
    <CopyableUrl
      label="Interactions Endpoint URL"
      url={`${window.location.origin}${path}`}
      testId="interactions-url"
      pasteHint="Paste it in the Developer Portal: General Information, Interactions Endpoint URL."
    >
      Save the public key here first: Discord checks the URL when you save it there, and it answers only once
      the key is set.
    </CopyableUrl>
  );
}

function initialDraft(settings: DiscordSettingsView): Draft {
  return {
    applicationId: settings.applicationId ?? '',
    publicKey: settings.publicKey ?? '',
    botToken: '',
    guildId: settings.guildId ?? '',
    premiumRoleId: settings.premiumRoleId ?? '',
    adminRoleId: settings.adminRoleId ?? '',
  };
}

/** What Save sends: the fields the admin changed (never one the environment sets); an empty token keeps it. */
function settingsChange(settings: DiscordSettingsView, draft: Draft): UpdateDiscordSettingsRequest {
  const change: UpdateDiscordSettingsRequest = {};
  for (const { field } of TEXT_FIELDS) {
    if (settings.fromEnvironment[field]) continue;
    const value = draft[field].trim();
    if (value === (settings[field] ?? '')) continue;
    change[field] = value === '' ? null : value;
  }
  const token = draft.botToken.trim();
  if (!settings.fromEnvironment.botToken && token !== '') change.botToken = token;
  return change;
}
