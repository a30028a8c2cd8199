import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import { type RemoveBotResponse, removeBotUrl } from '../../../../common/fleet.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';
import { invalidateUrls } from '../shared/refresh.ts';

/** Lists on other screens that hold the bot: its configuration, and the audit log's new row. */
const STALE_AFTER_REMOVAL = [QUERY_KEYS.configurations, QUERY_KEYS.auditLogs] as const;

export const REMOVE_BOT_TEXTS = {
  title: 'Bot removed',
  description: ({ ghostId, releasedServers }: RemoveBotResponse) =>
    `Bot ${ghostId} left the fleet` +
    (releasedServers > 0
      ? ` and ${releasedServers} pool ${releasedServers === 1 ? 'server went' : 'servers went'} back.`
      : '.'),
  failureTitle: 'Removal failed',
  failure: 'Failed to remove bot',
} as const;

/**
 * Removes a bot from the fleet (DELETE /api/admin/fleet/bots/{ghostId}). The scanner list needs no
 * refetch: the server sends every dashboard the fleet without it over the socket.
 */
export function useRemoveBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ghostId: string) => apiRequest<RemoveBotResponse>('DELETE', removeBotUrl(ghostId)),
    onSuccess: (removed) => {
      toast({ title: REMOVE_BOT_TEXTS.title, description: REMOVE_BOT_TEXTS.description(removed) });
    },
    onError: toastFailure(REMOVE_BOT_TEXTS.failureTitle, REMOVE_BOT_TEXTS.failure),
    onSettled: () => invalidateUrls(queryClient, STALE_AFTER_REMOVAL),
  });
}
