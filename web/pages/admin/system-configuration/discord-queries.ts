import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type {
  DiscordCheckResponse,
  DiscordRoleGrantsResponse,
  DiscordSettingsResponse,
  UpdateDiscordSettingsRequest,
} from '../../../../common/discord.ts';
import { discordSavedToast } from './discord-saved-toast.ts';

const DISCORD_SETTINGS_PATH = '/api/admin/discord/settings';
const DISCORD_CHECK_PATH = '/api/admin/discord/check';
const DISCORD_ROLE_GRANTS_PATH = '/api/admin/discord/role-grants';

/** The Discord settings in effect (the bot token masked). Read on opening the tab; not polled. */
export function discordSettingsQuery() {
  return queryOptions({
    queryKey: [DISCORD_SETTINGS_PATH],
    queryFn: () =>
      getJson<DiscordSettingsResponse>(DISCORD_SETTINGS_PATH, {
        failure: 'Failed to load the Discord settings',
      }),
  });
}

/** PUT with the fields that change (absent keeps, null clears); the answer replaces the settings at once. */
export function useSaveDiscordSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateDiscordSettingsRequest) =>
      apiRequest<DiscordSettingsResponse>('PUT', DISCORD_SETTINGS_PATH, change),
    onSuccess: (answer) => {
      queryClient.setQueryData(discordSettingsQuery().queryKey, answer);
      toast(discordSavedToast(answer.settings));
    },
    onError: toastFailure('Save Failed', 'Failed to save the Discord settings'),
  });
}

/** The check: reads the application and the guild with the bot token; its answer is shown, not cached. */
export function useCheckDiscord() {
  return useMutation({
    mutationFn: () => apiRequest<DiscordCheckResponse>('POST', DISCORD_CHECK_PATH),
  });
}

/** The premium role's grants (a failed change with its error), read again every 30 s while shown. */
export function discordRoleGrantsQuery() {
  return queryOptions({
    queryKey: [DISCORD_ROLE_GRANTS_PATH],
    queryFn: () =>
      getJson<DiscordRoleGrantsResponse>(DISCORD_ROLE_GRANTS_PATH, {
        failure: 'Failed to load the premium role grants',
      }),
    refetchInterval: 30_000,
  });
}
