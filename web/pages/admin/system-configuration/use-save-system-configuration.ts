import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type { SystemConfiguration, WalletProblemsAnswer } from '../../../../common/system.ts';
import {
  SYSTEM_CONFIGURATION_URL,
  slotUsageQuery,
  systemConfigurationQuery,
} from './system-configuration-queries.ts';

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
    onSuccess: (answer, sent) => {
      queryClient.setQueryData(systemConfigurationQuery().queryKey, {
        configuration: answer?.configuration ?? sent,
      });
      toast({ title: 'Configuration Updated', description: 'Buyers see the new slots and wallets now.' });
      // The answer is the saved configuration, so only slot usage (derived from it) needs asking again;
      // not awaited, so the save is done (and the screen's draft cleared) without waiting for it.
      void queryClient.invalidateQueries({ queryKey: slotUsageQuery().queryKey });
    },
    onError: toastFailure('Save Failed', 'Failed to save configuration'),
  });
}

/** The wallets a refused save named, currency code -> reason (null when the failure was not about them). */
export function refusedWallets(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  try {
    const body = JSON.parse(error.body) as Partial<WalletProblemsAnswer>;
    return body.walletProblems && typeof body.walletProblems === 'object' ? body.walletProblems : null;
  } catch {
    return null;
  }
}
