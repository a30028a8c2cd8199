import type { OperatorAlert } from '../../../common/notifications.ts';
import type { Db } from '../../db/index.ts';
import { insertOutboxRows } from './notifications.store.ts';

/*
 * Operator alerts ride the finds' outbox and lanes (ordering, retries, lease, Idempotency-Key, rate
 * limits): an alert raised is one outbox row per alerts destination, written in the caller's
 * transaction (the one that records the alert), due at once.
 */

/**
 * Queues alert `alertId` for every enabled alerts destination the dispatcher has not turned off;
 * returns how many. Its rows are keyed by minus the alert's id (notifications.table.ts).
 */
export async function queueAlertDeliveries(
  trx: Db,
  alertId: number,
  alert: OperatorAlert,
  raisedAt: number,
): Promise<number> {
  const destinations = await trx
    .selectFrom('notification_destinations')
    .select('id')
    .where('alerts', '=', 1)
    .where('enabled', '=', 1)
    .where('disabled_reason', 'is', null)
    .execute();
  await insertOutboxRows(
    trx,
    destinations.map((d) => ({
      destination_id: d.id,
      item: 'alert' as const,
      discovery_seq: -alertId,
      payload: JSON.stringify(alert),
      value_tier: 0,
      found_at: raisedAt,
      due_at: raisedAt,
    })),
    raisedAt,
  );
  return destinations.length;
}
