import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type { CreateRedemptionKeyRequest, RedemptionKeyResponse } from '../../../../common/redemption.ts';
import { refreshLicensing } from '../shared/refresh.ts';
import { REDEMPTION_KEYS_URL } from './redemption-queries.ts';

export const CREATE_REDEMPTION_KEY_URL = '/api/admin/create-redemption-key';

export function useCreateRedemptionCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateRedemptionKeyRequest) =>
      apiRequest<RedemptionKeyResponse>('POST', CREATE_REDEMPTION_KEY_URL, request),
    onSuccess: async ({ redemptionKey }) => {
      toast({
        title: 'Redemption code created',
        description: `New ${redemptionKey.keyType} code ready. It works with the game script.`,
      });
      await refreshLicensing(queryClient);
    },
    onError: toastFailure('Error creating redemption code', 'Failed to create redemption code'),
  });
}

export function useDeleteRedemptionCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `${REDEMPTION_KEYS_URL}/${id}`),
    onSuccess: async () => {
      toast({ title: 'Redemption code deleted' });
      await refreshLicensing(queryClient);
    },
    onError: toastFailure('Error deleting redemption code', 'Failed to delete redemption code'),
  });
}
