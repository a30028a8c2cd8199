import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type { GrantResetsResponse } from '../../../../common/key-status.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import {
  type CreateScriptKeyRequest,
  SCRIPT_KEY_TYPE_LABELS,
  type ScriptKeyResponse,
  type ScriptKeyToggleResponse,
} from '../../../../common/script-keys.ts';
import { refreshLicensing } from '../shared/refresh.ts';

export const SCRIPT_KEY_URLS = {
  create: '/api/admin/script-keys/create',
  toggleStatus: '/api/admin/script-keys/toggle-status',
  delete: '/api/admin/script-keys/delete',
  grantResets: (keyId: number) => `/api/admin/script-keys/${keyId}/grant-resets`,
} as const;

export function useCreateScriptKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateScriptKeyRequest) =>
      apiRequest<ScriptKeyResponse>('POST', SCRIPT_KEY_URLS.create, request),
    onSuccess: async ({ scriptKey }) => {
      toast({
        title: 'Script key created',
        description: `${SCRIPT_KEY_TYPE_LABELS[scriptKey.scriptType]} key ${maskLicenseKey(scriptKey.scriptKey)} is active.`,
      });
      await refreshLicensing(queryClient);
    },
    onError: toastFailure('Creation failed', 'Failed to create script key'),
  });
}

export function useToggleScriptKeyStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) =>
      apiRequest<ScriptKeyToggleResponse>('POST', SCRIPT_KEY_URLS.toggleStatus, { keyId }),
    onSuccess: async ({ message }) => {
      toast({ title: 'Status updated', description: message });
      await refreshLicensing(queryClient);
    },
    // The spec names no default text for this failure; say what did not happen.
    onError: toastFailure('Status update failed', 'The key keeps its previous status.'),
  });
}

export function useDeleteScriptKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) => apiRequest('DELETE', SCRIPT_KEY_URLS.delete, { keyId }),
    onSuccess: async () => {
      toast({ title: 'Script key deleted' });
      await refreshLicensing(queryClient);
    },
    onError: toastFailure('Deletion failed', 'The script key was not deleted.'),
  });
}

/** Extra device resets for one key; the toast says how many it now has unused. */
export function useGrantResets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, count }: { keyId: number; count: number }) =>
      apiRequest<GrantResetsResponse>('POST', SCRIPT_KEY_URLS.grantResets(keyId), { count }),
    onSuccess: async ({ scriptKey }) => {
      toast({
        title: 'Resets granted',
        description: `${maskLicenseKey(scriptKey.scriptKey)} now has ${scriptKey.extraResets} extra ${scriptKey.extraResets === 1 ? 'reset' : 'resets'}.`,
      });
      await refreshLicensing(queryClient);
    },
    onError: toastFailure('Grant failed', 'The key keeps its resets.'),
  });
}
