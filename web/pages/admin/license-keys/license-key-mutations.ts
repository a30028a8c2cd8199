import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type { CreateLicenseKeyRequest, LicenseKey } from '../../../../common/licensing.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';
import { LICENSE_KEYS_URL } from './license-key-queries.ts';

/** Keys, dashboard figures and slot usage all count license keys: refresh them after any change. */
async function refreshAfterChange(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [LICENSE_KEYS_URL, QUERY_KEYS.dashboardStats, QUERY_KEYS.slotUsage].map((url) =>
      queryClient.invalidateQueries({ queryKey: [url] }),
    ),
  );
}

export function useCreateLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateLicenseKeyRequest) =>
      apiRequest<{ licenseKey: LicenseKey }>('POST', LICENSE_KEYS_URL, request),
    onSuccess: async ({ licenseKey }) => {
      toast({
        title: 'License key created',
        description: `${licenseKey.keyType} key ${maskLicenseKey(licenseKey.licenseKey)} is ready to hand out.`,
      });
      await refreshAfterChange(queryClient);
    },
    onError: toastFailure('Error creating license key', 'Failed to create license key'),
  });
}

export function useRevokeLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest<{ licenseKey: LicenseKey }>('POST', `${LICENSE_KEYS_URL}/${id}/revoke`),
    onSuccess: async ({ licenseKey }) => {
      toast({
        title: 'License key revoked',
        description: licenseKey ? `${maskLicenseKey(licenseKey.licenseKey)} no longer works.` : undefined,
      });
      await refreshAfterChange(queryClient);
    },
    onError: toastFailure('Revocation failed', 'Failed to revoke license key'),
  });
}

export function useDeleteLicenseKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ success: boolean }>('DELETE', `${LICENSE_KEYS_URL}/${id}`),
    onSuccess: async () => {
      toast({ title: 'License key deleted' });
      await refreshAfterChange(queryClient);
    },
    onError: toastFailure('Deletion failed', 'Failed to delete license key'),
  });
}
