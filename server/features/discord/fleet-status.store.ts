import type { Db } from '../../db/index.ts';

/** A scanner that reported within this long, in a working state, counts as online. */
export const ONLINE_WITHIN_MS = 5 * 60_000;

const HOUR_MS = 60 * 60_000;

/** The fleet in two numbers: bots online and finds in the last hour. */
export async function countFleetStatus(
  db: Db,
  now: number,
): Promise<{ online: number; findsLastHour: number }> {
  const [online, finds] = await Promise.all([
    db
      .selectFrom('fleet_scanners')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['active', 'scanning', 'hopping'])
      .where('last_activity', '>', now - ONLINE_WITHIN_MS)
      .executeTakeFirst(),
    db
      .selectFrom('fleet_discoveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>', now - HOUR_MS)
      .executeTakeFirst(),
  ]);
  return { online: Number(online?.n ?? 0), findsLastHour: Number(finds?.n ?? 0) };
}
