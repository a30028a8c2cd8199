import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import { PUBLIC_SCRIPTS_PAGE_CONFIG_URL } from '../../../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../../../common/scripts-page.ts';
import { SCRIPTS_PAGE_CONFIG_URL, scriptsPageConfigQuery } from './scripts-page-queries.ts';

interface ConfigAnswer {
  config: ScriptsPageConfig;
}

/**
 * The editor shows the stored answer at once, and the public page's copy is dropped so /scripts
 * asks again (an admin often checks it in the same browser right after saving).
 */
async function showStored(queryClient: QueryClient, config: ScriptsPageConfig): Promise<void> {
  queryClient.setQueryData(scriptsPageConfigQuery().queryKey, { config });
  await queryClient.invalidateQueries({ queryKey: [PUBLIC_SCRIPTS_PAGE_CONFIG_URL] });
}

/** PUT /api/admin/scripts-page-config with the whole config; toasts 'Configuration Saved!'. */
export function useSaveScriptsPageConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: ScriptsPageConfig) =>
      apiRequest<ConfigAnswer>('PUT', SCRIPTS_PAGE_CONFIG_URL, config),
    onSuccess: async (answer) => {
      toast({
        title: 'Configuration Saved!',
        description: 'The public scripts page shows your changes now.',
      });
      await showStored(queryClient, answer.config);
    },
    onError: toastFailure('Save Failed', 'Failed to save configuration'),
  });
}

/** POST /api/admin/scripts-page-config/reset: the default content again; toasts 'Configuration Reset'. */
export function useResetScriptsPageConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<ConfigAnswer>('POST', `${SCRIPTS_PAGE_CONFIG_URL}/reset`),
    onSuccess: async (answer) => {
      toast({
        title: 'Configuration Reset',
        description: 'The scripts page shows the default content again.',
      });
      await showStored(queryClient, answer.config);
    },
    onError: toastFailure('Reset Failed', 'Failed to reset configuration'),
  });
}
