import type { EmergencyState } from '../../../common/configuration.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';

/* The network's emergency switch: one row, stopped or running, and why. */

export async function findEmergencyState(db: Db): Promise<EmergencyState> {
  const row = await db
    .selectFrom('configuration_emergency')
    .selectAll()
    .where('id', '=', 1)
    .executeTakeFirst();
  // Who: the change record the latest stop or resume wrote in the same transaction.
  const change = await db
    .selectFrom('configuration_changes')
    .select('actor')
    .where('kind', 'in', ['emergency_stop', 'emergency_resume'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    stopped: Number(row?.stopped ?? 0) === 1,
    reason: row?.reason ?? null,
    changedAt: isoOrNull(row?.changed_at == null ? null : Number(row.changed_at)),
    changedBy: change?.actor ?? null,
  };
}

/**
 * Stops or resumes the network when it is not already so (a conditional update, so of two calls at
 * once one wins); returns false when it already was.
 */
export async function switchEmergency(
  trx: Db,
  stopped: boolean,
  reason: string,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('configuration_emergency')
    .set({ stopped: stopped ? 1 : 0, reason, changed_at: now })
    .where('id', '=', 1)
    .where('stopped', '=', stopped ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
