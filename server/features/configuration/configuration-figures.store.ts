import { sql } from 'kysely';
import type { TargetState } from '../../../common/configuration.ts';
import { countWhere } from '../../db/aggregates.ts';
import type { Db } from '../../db/index.ts';
import { noTargets } from './configuration-changes.store.ts';

/* The figures counted over every change: the configuration dashboard's and the metrics'. */

/** Every change's targets by state, all changes together (the metrics' configuration figures). */
export async function countAllTargetStates(db: Db): Promise<Record<TargetState, number>> {
  const rows = await db
    .selectFrom('configuration_targets')
    .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const counts = noTargets();
  for (const r of rows) counts[r.state] = Number(r.n);
  return counts;
}

export async function countChangesSince(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('configuration_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Configuration pushes that ended (emergency stop/resume are not deployments: their version is null). */
export async function loadDeploymentStats(db: Db): Promise<{
  successfulDeployments: number;
  totalDeployments: number;
  averageResponseTime: number;
}> {
  const row = await db
    .selectFrom('configuration_targets')
    .select((eb) => [
      countWhere(eb('state', '=', 'applied')).as('applied'),
      countWhere(eb('state', '=', 'failed')).as('failed'),
      sql<number | null>`avg(case when state = 'applied' then response_time_ms else null end)`.as('average'),
    ])
    .where('version', 'is not', null)
    .executeTakeFirstOrThrow();
  const applied = Number(row.applied);
  return {
    successfulDeployments: applied,
    totalDeployments: applied + Number(row.failed),
    averageResponseTime: row.average === null ? 0 : Math.round(Number(row.average)),
  };
}

export async function findRecentFailures(
  db: Db,
  limit: number,
): Promise<Array<{ botId: string; errorMessage: string; timestamp: string }>> {
  const rows = await db
    .selectFrom('configuration_targets')
    .select(['bot_id', 'error', 'responded_at'])
    .where('state', '=', 'failed')
    .orderBy('responded_at', 'desc')
    .orderBy('change_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    botId: r.bot_id,
    errorMessage: r.error ?? '',
    timestamp: new Date(Number(r.responded_at ?? 0)).toISOString(),
  }));
}

/** How many bots have a configuration, and how many of them each profile was last applied to. */
export async function countConfigurationsByProfile(
  db: Db,
): Promise<{ total: number; byProfile: Map<string, number> }> {
  const rows = await db
    .selectFrom('bot_configurations')
    .select((eb) => ['profile_id', eb.fn.countAll<number | string>().as('bots')])
    .groupBy('profile_id')
    .execute();
  const byProfile = new Map<string, number>();
  let total = 0;
  for (const row of rows) {
    total += Number(row.bots);
    if (row.profile_id !== null) byProfile.set(row.profile_id, Number(row.bots));
  }
  return { total, byProfile };
}
