import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRealtime } from '@/lib/realtime.tsx';
import type { EmergencyState } from '../../../../common/configuration.ts';
import { configurationDashboardQuery } from './queries.ts';
import { QUERY_KEYS } from './query-keys.ts';

/**
 * The network's emergency state (stopped or not, since when, why), learned as Live Configuration
 * learns it: from its dashboard query, which the shell's emergency_control handling
 * (useConfigurationEvents) refreshes the moment anyone stops or resumes. A stop made while the socket
 * was down sends no event here, so the state is fetched again when the socket reconnects; `poll`
 * also keeps the query's own 15 s poll (for a screen that shows the state in full). Undefined until
 * known.
 */
export function useEmergencyState({ poll }: { poll: boolean }): EmergencyState | undefined {
  const queryClient = useQueryClient();
  const { status } = useRealtime();
  const wasConnected = useRef(status === 'connected');
  useEffect(() => {
    const connected = status === 'connected';
    if (connected && !wasConnected.current)
      void queryClient.invalidateQueries(
        { queryKey: [QUERY_KEYS.configurationDashboard] },
        { cancelRefetch: false },
      );
    wasConnected.current = connected;
  }, [status, queryClient]);

  return useQuery({
    ...configurationDashboardQuery(),
    ...(poll ? {} : { refetchInterval: false as const }),
    select: (dashboard) => dashboard.emergency,
  }).data;
}
