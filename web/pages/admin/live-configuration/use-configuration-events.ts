import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { plural } from '@/lib/plural.ts';
import { useRealtimeMessages } from '@/lib/realtime.tsx';
import { toast } from '@/lib/toast.ts';
import type { ChangeResult, EmergencyControlPayload } from '../../../../common/configuration.ts';
import { invalidateUrls } from '../shared/refresh.ts';
import {
  CHANGE_MUTATION_KEY,
  EMERGENCY_MUTATION_KEY,
  type EmergencyAction,
} from './live-configuration-mutations.ts';
import {
  CONFIGURATION_DASHBOARD_URL,
  CONFIGURATION_HISTORY_URL,
  CONFIGURATIONS_URL,
  LIVE_CONFIGURATION_URLS,
} from './live-configuration-queries.ts';
import { progressOfEvent } from './push-progress.ts';
import { pushTrackerOf } from './push-tracker.ts';

/** How long after its own emergency answer this tab takes the matching socket event as its echo. */
const OWN_ECHO_MS = 5000;

const EMERGENCY_WORDS: Partial<
  Record<EmergencyControlPayload['action'], { word: string; action: EmergencyAction }>
> = {
  EMERGENCY_STOP: { word: 'Stop', action: 'stop' },
  EMERGENCY_RESUME: { word: 'Resume', action: 'resume' },
};

/**
 * Whether this tab made the change a socket event reports: one of its changes is still waiting for
 * its answer (the event may overtake it), or answered with this change id. Its own toast, from the
 * answer, already said so; a second toast would replace it (one toast shows at a time).
 */
function isOwnChange(queryClient: QueryClient, changeId: string): boolean {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: CHANGE_MUTATION_KEY })
    .some(
      (m) =>
        m.state.status === 'pending' ||
        (m.state.status === 'success' && (m.state.data as ChangeResult | undefined)?.changeId === changeId),
    );
}

/** The same for the emergency toggle, whose events carry no id: the same action, just now. */
function isOwnEmergency(queryClient: QueryClient, action: EmergencyAction, now: number): boolean {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: EMERGENCY_MUTATION_KEY })
    .some(
      (m) =>
        (m.state.variables as { action: EmergencyAction } | undefined)?.action === action &&
        (m.state.status === 'pending' ||
          (m.state.status === 'success' && now - m.state.submittedAt < OWN_ECHO_MS)),
    );
}

/**
 * The spec's live-configuration socket events (section 4), toasted the way the shell toasts
 * system_config_update, and refreshing the screen's queries (STYLE 9: no second copy of server
 * state). Progress (bots acknowledging) refreshes quietly and moves the toast of this tab's own
 * push. Mounted once by the admin shell, so every screen hears of an emergency stop.
 */
export function useConfigurationEvents(): void {
  const queryClient = useQueryClient();
  const refresh = () => void invalidateUrls(queryClient, LIVE_CONFIGURATION_URLS);

  useRealtimeMessages('configuration_update', ({ payload }) => {
    refresh();
    if (isOwnChange(queryClient, payload.changeId)) return;
    toast({
      title: 'Configuration Updated',
      description: `Configuration pushed to ${plural(payload.targetedBots, 'bot', 'bots')}`,
    });
  });

  useRealtimeMessages('emergency_control', ({ payload }) => {
    refresh();
    const known = EMERGENCY_WORDS[payload.action];
    if (!known) return;
    const { word, action } = known;
    if (isOwnEmergency(queryClient, action, Date.now())) return;
    // Spec: titled Emergency plus the action, the reason as description, destructive for a stop.
    toast({
      title: `Emergency ${word}`,
      description: payload.reason || 'No reason given',
      variant: payload.action === 'EMERGENCY_STOP' ? 'destructive' : 'default',
    });
  });

  useRealtimeMessages('configuration_rollback', ({ payload }) => {
    refresh();
    if (isOwnChange(queryClient, payload.changeId)) return;
    toast({ title: 'Configuration Rolled Back', description: payload.reason });
  });

  useRealtimeMessages('configuration_progress', ({ payload }) => {
    // This tab's own push: its toast moves with the bots' answers.
    pushTrackerOf(queryClient).progress(payload.changeId, progressOfEvent(payload));
    void invalidateUrls(queryClient, [
      CONFIGURATION_DASHBOARD_URL,
      CONFIGURATIONS_URL,
      CONFIGURATION_HISTORY_URL,
    ]);
  });
}
