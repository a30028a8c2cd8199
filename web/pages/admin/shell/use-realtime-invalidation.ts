import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeMessages } from '@/lib/realtime.tsx';
import { getServerId } from '@/lib/session-id.ts';
import { toast } from '@/lib/toast.ts';
import { SYSTEM_CONFIG_UPDATED_TEXT } from '../../../../common/realtime.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';
import { invalidateUrls, LICENSING_URLS } from '../shared/refresh.ts';

/**
 * Socket events invalidate the queries they make stale, so screens keep no second copy of server
 * state (STYLE 9). Mounted once by the admin shell.
 */
export function useRealtimeInvalidation(): void {
  const queryClient = useQueryClient();
  useRealtimeMessages('system_config_update', (message) => {
    void invalidateUrls(queryClient, [QUERY_KEYS.systemConfiguration, QUERY_KEYS.slotUsage]);
    // The tab that saved has said "Configuration Updated" already (use-save-system-configuration.ts).
    if (message.payload?.from === getServerId()) return;
    const text = message.payload?.message;
    toast({ title: typeof text === 'string' && text ? text : SYSTEM_CONFIG_UPDATED_TEXT });
  });
  // A code redeemed by a script user, or a key changed in another admin tab: the dashboard's
  // figures, slot usage and the licensing lists refresh now rather than at their next poll.
  useRealtimeMessages('licensing_changed', () => {
    void invalidateUrls(queryClient, [...LICENSING_URLS, QUERY_KEYS.licenseKeys]);
  });
}
