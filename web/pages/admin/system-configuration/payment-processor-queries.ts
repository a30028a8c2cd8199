import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type {
  PaymentConnection,
  PaymentSettingsResponse,
  UpdatePaymentSettingsRequest,
} from '../../../../common/payments.ts';
import { paymentSettingsQuery } from '../shared/queries.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';
import { paymentSavedToast } from './payment-saved-toast.ts';

export { paymentSettingsQuery } from '../shared/queries.ts';

/**
 * Whether BTCPay Server answers for the store. Asked on opening the tab, after a save and on Check
 * again; not polled, since every check is a request to the operator's BTCPay Server.
 */
export function paymentConnectionQuery() {
  return queryOptions({
    queryKey: [QUERY_KEYS.paymentConnection],
    queryFn: () =>
      getJson<PaymentConnection>(QUERY_KEYS.paymentConnection, {
        failure: 'Failed to check the connection',
      }),
  });
}

/**
 * PUT /api/admin/payments/settings with the fields that change (absent keeps, null clears). The
 * answer replaces the settings at once; the connection is checked again and the dashboard's sales
 * (shown once connected) refreshed.
 */
export function useSavePaymentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdatePaymentSettingsRequest) =>
      apiRequest<PaymentSettingsResponse>('PUT', QUERY_KEYS.paymentSettings, change),
    onSuccess: (answer) => {
      queryClient.setQueryData(paymentSettingsQuery().queryKey, answer);
      toast(paymentSavedToast(answer.settings));
      void queryClient.invalidateQueries({ queryKey: [QUERY_KEYS.paymentConnection] });
      void queryClient.invalidateQueries({ queryKey: [QUERY_KEYS.dashboardStats] });
    },
    onError: toastFailure('Save Failed', 'Failed to save the payment settings'),
  });
}
