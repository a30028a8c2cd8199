import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type { Destination, DestinationInput } from '../../../../common/notifications.ts';
import { invalidateUrls } from '../shared/refresh.ts';
import { DELIVERIES_URL, DESTINATIONS_URL } from './notifications-queries.ts';

/** What POST …/destinations/{id}/test answers: whether the sample find was taken, and the HTTP status. */
export interface TestResult {
  ok: boolean;
  /** null when no answer came (refused address, timeout, network). */
  status: number | null;
  error?: string;
}

/** What creating or changing a destination answers. */
interface DestinationAnswer {
  destination: Destination;
}

/** Any change to a destination or a delivery moves both lists' figures. */
function useRefreshNotifications() {
  const queryClient = useQueryClient();
  return () => invalidateUrls(queryClient, [DESTINATIONS_URL, DELIVERIES_URL]);
}

/**
 * Saves a destination: POST when `id` is undefined, else PATCH. Failures are left to the dialog,
 * which shows the server's reason (a 400 names the rule the URL breaks) beside the fields.
 */
export function useSaveDestination(id: number | undefined) {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (body: Partial<DestinationInput>) =>
      id === undefined
        ? apiRequest<DestinationAnswer>('POST', DESTINATIONS_URL, body)
        : apiRequest<DestinationAnswer>('PATCH', `${DESTINATIONS_URL}/${id}`, body),
    onSuccess: async () => {
      toast({ title: id === undefined ? 'Destination added' : 'Destination saved' });
      await refresh();
    },
  });
}

/** Turns a destination on or off from its row. */
export function useSetDestinationEnabled(destination: Destination) {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      apiRequest<DestinationAnswer>('PATCH', `${DESTINATIONS_URL}/${destination.id}`, { enabled }),
    onSuccess: async (_answer, enabled) => {
      toast({ title: `${destination.name} ${enabled ? 'enabled' : 'disabled'}` });
      await refresh();
    },
    onError: toastFailure('Error updating destination', 'Failed to update destination'),
  });
}

export function useDeleteDestination(destination: Destination) {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', `${DESTINATIONS_URL}/${destination.id}`),
    onSuccess: async () => {
      toast({
        title: 'Destination deleted',
        description: `${destination.name} gets no more ${destination.alerts ? 'alerts' : 'finds'}.`,
      });
      await refresh();
    },
    onError: toastFailure('Error deleting destination', 'Failed to delete destination'),
  });
}

/** Posts a sample find; the toast says how the destination answered. */
export function useSendTest(destination: Destination) {
  return useMutation({
    mutationFn: () => apiRequest<TestResult>('POST', `${DESTINATIONS_URL}/${destination.id}/test`),
    onSuccess: (result) => {
      if (result.ok) {
        toast({
          title: 'Test sent',
          description: `${destination.name} accepted the sample ${destination.alerts ? 'alert' : 'find'} (HTTP ${result.status}).`,
        });
      } else {
        toast({
          title: 'Test failed',
          description:
            result.error ??
            (result.status === null
              ? `${destination.name} did not answer.`
              : `${destination.name} answered HTTP ${result.status}.`),
          variant: 'destructive',
        });
      }
    },
    onError: toastFailure('Test failed', 'Failed to send the test'),
  });
}

/** Puts a failed delivery back in the queue. */
export function useRetryDelivery() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (id: number) => apiRequest('POST', `${DELIVERIES_URL}/${id}/retry`),
    onSuccess: async () => {
      toast({ title: 'Delivery queued again', description: 'It is sent with the next batch.' });
      await refresh();
    },
    onError: toastFailure('Error retrying delivery', 'Failed to retry delivery'),
  });
}
