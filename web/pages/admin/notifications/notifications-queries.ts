import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { Delivery, DeliveryState, DestinationList } from '../../../../common/notifications.ts';
import { errorText } from '../shared/error-text.ts';

export const DESTINATIONS_URL = '/api/admin/notifications/destinations';
export const DELIVERIES_URL = '/api/admin/notifications/deliveries';

/** Counts and deliveries move while finds are posted: both lists are polled. */
export const NOTIFICATIONS_REFETCH_MS = 15_000;

/** How many deliveries the panel shows (newest first, as the server orders them). */
export const DELIVERIES_LIMIT = 100;

/** Every destination with its masked URL and delivery figures, and the server's URL settings. */
export function destinationsQuery() {
  return queryOptions({
    queryKey: [DESTINATIONS_URL],
    queryFn: () => getJson<DestinationList>(DESTINATIONS_URL, { failure: 'Failed to load destinations' }),
    refetchInterval: NOTIFICATIONS_REFETCH_MS,
  });
}

/** The deliveries panel's filters; undefined means all. */
export interface DeliveryFilters {
  destinationId?: number;
  state?: DeliveryState;
}

/** The latest deliveries matching the filters. */
export function deliveriesQuery(filters: DeliveryFilters) {
  return queryOptions({
    // The filters ride in the key as an object, so this query builds its URL itself.
    queryKey: [DELIVERIES_URL, filters] as const,
    queryFn: () => {
      const params = new URLSearchParams({ limit: String(DELIVERIES_LIMIT) });
      if (filters.destinationId !== undefined) params.set('destinationId', String(filters.destinationId));
      if (filters.state !== undefined) params.set('state', filters.state);
      return getJson<{ deliveries: Delivery[] }>(`${DELIVERIES_URL}?${params}`, {
        failure: 'Failed to load deliveries',
      });
    },
    refetchInterval: NOTIFICATIONS_REFETCH_MS,
  });
}

/** A list's failure as the screen shows it: the query's text ('Failed to load destinations') and the server's reason. */
export function loadFailureText(error: Error): string {
  return error.cause === undefined ? error.message : `${error.message}: ${errorText(error.cause)}`;
}
