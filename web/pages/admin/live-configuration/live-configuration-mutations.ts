import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { plural } from '@/lib/plural.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import {
  type BotParameterUpdates,
  type BulkUpdateRequest,
  type ChangeResult,
  type ConfigurationDashboard,
  type ConfigurationProfile,
  DEFAULT_BOT_PARAMETERS,
  type EmergencyResult,
} from '../../../../common/configuration.ts';
import { invalidateUrls } from '../shared/refresh.ts';
import { configurationDashboardQuery, LIVE_CONFIGURATION_URLS } from './live-configuration-queries.ts';
import { BULK_UPDATE_TEXTS, profileTexts, ROLLBACK_TEXTS } from './push-progress.ts';
import { pushTrackerOf } from './push-tracker.ts';

export const CONFIGURATION_CALLS = {
  bulkUpdate: '/api/admin/configurations/bulk-update',
  emergencyStop: '/api/admin/configurations/emergency-stop',
  emergencyResume: '/api/admin/configurations/emergency-resume',
  applyProfile: (profileId: string) =>
    `/api/admin/configuration-profiles/${encodeURIComponent(profileId)}/apply`,
  rollback: (changeId: string) =>
    `/api/admin/configurations/history/${encodeURIComponent(changeId)}/rollback`,
} as const;

/**
 * Mutation keys. The socket hook looks these up in the mutation cache to tell the admin's own
 * changes (already toasted from the answer) from changes made in another tab.
 */
export const CHANGE_MUTATION_KEY = ['live-configuration', 'change'] as const;
export const EMERGENCY_MUTATION_KEY = ['live-configuration', 'emergency'] as const;

/** Spec section 5: the toast when Apply Changes or Apply to Selected has no bot to go to. */
export const NO_BOTS_SELECTED = {
  title: 'No Bots Selected',
  update: 'Please select at least one bot to update',
  profile: 'Please select at least one bot to apply profile',
} as const;

/** Toasts 'No Bots Selected' with `description` and answers false when nothing is selected. */
export function requireSelection(botIds: readonly string[], description: string): boolean {
  if (botIds.length > 0) return true;
  toast({ title: NO_BOTS_SELECTED.title, description, variant: 'destructive' });
  return false;
}

const refreshAll = (queryClient: QueryClient) => invalidateUrls(queryClient, LIVE_CONFIGURATION_URLS);

const postChange = (url: string, body: unknown) =>
  apiRequest<{ result: ChangeResult }>('POST', url, body).then((answer) => answer.result);

/**
 * Apply Changes: the parameters the admin changed to the selected bots (each keeps its other
 * values), not an emergency. Its toast follows the bots' acknowledgements (push-tracker.ts).
 */
export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: CHANGE_MUTATION_KEY,
    mutationFn: (request: { targetBotIds: string[]; updates: BotParameterUpdates; reason: string }) =>
      postChange(CONFIGURATION_CALLS.bulkUpdate, {
        ...request,
        isEmergencyUpdate: false,
      } satisfies BulkUpdateRequest),
    onSuccess: async (result) => {
      pushTrackerOf(queryClient).track(result, BULK_UPDATE_TEXTS);
      await refreshAll(queryClient);
    },
    onError: toastFailure('Bulk Update Failed', 'Failed to update configurations'),
  });
}

/**
 * One bot back to the spec's default parameters (the status list's row action). A single-bot edit,
 * so its failure is the spec's singular 'Update Failed' / 'Failed to update configuration'.
 */
export function useResetBotConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: CHANGE_MUTATION_KEY,
    mutationFn: (botId: string) =>
      postChange(CONFIGURATION_CALLS.bulkUpdate, {
        targetBotIds: [botId],
        updates: { ...DEFAULT_BOT_PARAMETERS },
        reason: 'Reset to the default parameters',
        isEmergencyUpdate: false,
      } satisfies BulkUpdateRequest),
    onSuccess: async (_result, botId) => {
      toast({ title: 'Configuration Updated', description: `${botId} reset to the default parameters` });
      await refreshAll(queryClient);
    },
    onError: toastFailure('Update Failed', 'Failed to update configuration'),
  });
}

export function useApplyProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: CHANGE_MUTATION_KEY,
    mutationFn: ({
      profile,
      targetBotIds,
      reason,
    }: {
      profile: ConfigurationProfile;
      targetBotIds: string[];
      reason: string;
    }) => postChange(CONFIGURATION_CALLS.applyProfile(profile.id), { targetBotIds, reason }),
    onSuccess: async (result, { profile }) => {
      pushTrackerOf(queryClient).track(result, profileTexts(profile.name));
      await refreshAll(queryClient);
    },
    onError: toastFailure('Profile Application Failed', 'Failed to apply profile'),
  });
}

export function useRollbackChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: CHANGE_MUTATION_KEY,
    mutationFn: ({ changeId, reason }: { changeId: string; reason: string }) =>
      postChange(CONFIGURATION_CALLS.rollback(changeId), { reason }),
    onSuccess: async (result) => {
      pushTrackerOf(queryClient).track(result, ROLLBACK_TEXTS);
      await refreshAll(queryClient);
    },
    onError: toastFailure('Rollback Failed', 'Failed to roll back the change'),
  });
}

export type EmergencyAction = 'stop' | 'resume';

/** Spec section 8: what each side of the toggle says when it worked and when it did not. */
const EMERGENCY_TOASTS = {
  // 'Stopped N bots'
  stop: {
    title: 'Emergency Stop Activated',
    description: (bots: number) => `Stopped ${plural(bots, 'bot', 'bots')}`,
    failure: ['Emergency Stop Failed', 'Failed to execute emergency stop'],
  },
  // 'Resumed N bots'
  resume: {
    title: 'Emergency Resume Activated',
    description: (bots: number) => `Resumed ${plural(bots, 'bot', 'bots')}`,
    failure: ['Emergency Resume Failed', 'Failed to execute emergency resume'],
  },
} as const;

/** Emergency Stop / Emergency Resume. The toggle flips from the answer at once, before the refresh. */
export function useEmergencyControl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: EMERGENCY_MUTATION_KEY,
    mutationFn: ({ action, reason }: { action: EmergencyAction; reason: string }) =>
      apiRequest<EmergencyResult>(
        'POST',
        action === 'stop' ? CONFIGURATION_CALLS.emergencyStop : CONFIGURATION_CALLS.emergencyResume,
        { reason },
      ),
    onSuccess: async (result, { action }) => {
      queryClient.setQueryData(
        configurationDashboardQuery().queryKey,
        (dashboard: ConfigurationDashboard | undefined) =>
          dashboard && { ...dashboard, emergency: result.emergency },
      );
      const texts = EMERGENCY_TOASTS[action];
      toast({ title: texts.title, description: texts.description(result.affectedBots) });
      await refreshAll(queryClient);
    },
    onError: (error, { action }) => {
      const [title, fallback] = EMERGENCY_TOASTS[action].failure;
      toastFailure(title, fallback)(error);
    },
  });
}
