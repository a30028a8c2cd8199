import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type { RevokeBindingResponse } from '../../../../common/hardware-bindings.ts';
import { refreshLicensing } from '../shared/refresh.ts';

const REVOKE_BINDING_URL = '/api/admin/license/revoke-binding';

/** Revokes one hardware binding; the bindings, dashboard and slot figures refresh afterwards. */
export function useRevokeBinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bindingId: number) =>
      apiRequest<RevokeBindingResponse>('POST', REVOKE_BINDING_URL, { bindingId }),
    onSuccess: ({ binding }) => {
      toast({
        title: 'Hardware binding revoked',
        description: `${binding.deviceInfo?.deviceName || binding.hardwareId} can no longer use its license key.`,
      });
    },
    onError: toastFailure('Revocation failed', 'Failed to revoke hardware binding'),
    // A failure refreshes too: a binding revoked elsewhere meanwhile then shows as REVOKED.
    onSettled: () => refreshLicensing(queryClient),
  });
}
