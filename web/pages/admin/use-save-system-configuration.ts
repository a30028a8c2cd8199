import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SLOT_USAGE_URL, SYSTEM_CONFIGURATION_URL, systemConfigurationQuery } from '@/lib/admin-queries.ts';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import type { SystemConfiguration } from '../../../common/system.ts';

/**
 * PUT /api/admin/system-configuration with the whole configuration. On success the screen shows the
 * saved answer at once and slot usage refreshes; on failure a destructive 'Save Failed' toast carries
 * the server's message.
 */
export function useSaveSystemConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (configuration: SystemConfiguration) =>
      apiRequest<{ configuration?: SystemConfiguration }>('PUT', SYSTEM_CONFIGURATION_URL, configuration),
    onSuccess: async (answer, sent) => {
      queryClient.setQueryData(systemConfigurationQuery().queryKey, {
        configuration: answer?.configuration ?? sent,
      });
      toast({ title: 'Configuration Updated', description: 'Buyers see the new slots and wallets now.' });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [SYSTEM_CONFIGURATION_URL] }),
        queryClient.invalidateQueries({ queryKey: [SLOT_USAGE_URL] }),
      ]);
    },
    onError: (error) => {
      toast({
        title: 'Save Failed',
        description: error instanceof ApiError ? error.serverMessage : 'Failed to save configuration',
        variant: 'destructive',
      });
    },
  });
}
