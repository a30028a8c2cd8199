import type { Db } from '../../db/index.ts';

/*
 * Which destinations are failing, for the operator alerts (server/features/alerts): turned off by
 * the dispatcher, or holding a delivery that has been failing for a while.
 */

export interface FailingDestination {
  id: number;
  name: string;
  /** An alerts destination (it cannot be told about itself: the monitor logs it instead). */
  alerts: boolean;
  /** In the operator's words: why it was turned off, or the latest error of its stuck deliveries. */
  reason: string;
}

/**
 * The destinations failing at `now`: turned off by the dispatcher (404, 401, 403, a URL the rules
 * refuse), or enabled with a pending delivery whose every try so far failed and which was made more
 * than `failingForMs` ago (a destination down, or rate limited, that long).
 */
export async function listFailingDestinations(
  db: Db,
  now: number,
  failingForMs: number,
): Promise<FailingDestination[]> {
  const turnedOff = await db
    .selectFrom('notification_destinations')
    .select(['id', 'name', 'alerts', 'disabled_reason'])
    .where('enabled', '=', 0)
    .where('disabled_reason', 'is not', null)
    .execute();
  const stuck = await db
    .selectFrom('notification_outbox as o')
    .innerJoin('notification_destinations as d', 'd.id', 'o.destination_id')
    .select(['d.id', 'd.name', 'd.alerts', (eb) => eb.fn.max('o.last_error').as('last_error')])
    .where('d.enabled', '=', 1)
    .where('o.state', '=', 'pending')
    .where('o.last_error', 'is not', null)
    .where('o.found_at', '<=', now - failingForMs)
    .groupBy(['d.id', 'd.name', 'd.alerts'])
    .execute();
  const failing = [
    ...turnedOff.map((d) => ({
      id: d.id,
      name: d.name,
      alerts: d.alerts,
      reason: `turned off: ${d.disabled_reason}`,
    })),
    ...stuck.map((d) => ({ id: d.id, name: d.name, alerts: d.alerts, reason: String(d.last_error) })),
  ];
  return failing
    .map((d) => ({ id: Number(d.id), name: d.name, alerts: Number(d.alerts) === 1, reason: d.reason }))
    .sort((a, b) => a.id - b.id);
}
