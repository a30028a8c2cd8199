import { countWhere } from '../../db/aggregates.ts';
import type { Db } from '../../db/index.ts';
import { notALicensesScriptKey } from '../../db/key-filters.ts';

export interface LicenseKeyCounts {
  total: number;
  active: number;
  expired: number;
  revoked: number;
}

/**
 * License keys by derived status in one pass: REVOKED as stored, EXPIRED when not revoked and past
 * its expiry, ACTIVE otherwise.
 */
export async function countLicenseKeysByStatus(db: Db, now: number): Promise<LicenseKeyCounts> {
  const row = await db
    .selectFrom('license_keys')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      countWhere(eb('status', '=', 'REVOKED')).as('revoked'),
      countWhere(
        eb.and([
          eb('status', '<>', 'REVOKED'),
          eb('expires_at', 'is not', null),
          eb('expires_at', '<=', now),
        ]),
      ).as('expired'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const revoked = Number(row.revoked);
  const expired = Number(row.expired);
  return { total, active: total - revoked - expired, expired, revoked };
}

export interface ScriptKeyCounts {
  total: number;
  active: number;
  expired: number;
  /** Switched off by the admin and not expired (an expired key counts as expired, whatever its switch). */
  inactive: number;
}

/**
 * Script keys by display status in one pass: expired first, then active or switched off. A license
 * key's own script key is left out: it is the same key, counted once, as the license key.
 */
export async function countScriptKeysByStatus(db: Db, now: number): Promise<ScriptKeyCounts> {
  const row = await db
    .selectFrom('script_keys')
    .where(notALicensesScriptKey)
    .select((eb) => {
      const expired = eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]);
      const unexpired = eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
      return [
        eb.fn.countAll<number>().as('total'),
        countWhere(expired).as('expired'),
        countWhere(eb.and([eb('is_active', '=', 0), unexpired])).as('inactive'),
      ];
    })
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const expired = Number(row.expired);
  const inactive = Number(row.inactive);
  return { total, active: total - expired - inactive, expired, inactive };
}

export async function countHardwareBindings(db: Db): Promise<{ total: number; active: number }> {
  const row = await db
    .selectFrom('hardware_bindings')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      countWhere(eb('status', '=', 'ACTIVE')).as('active'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active) };
}

/** Uses on `today`, since `weekStart` and since `monthStart` (days as 'YYYY-MM-DD', which sort as text). */
export async function sumUsageByWindow(
  db: Db,
  days: { today: string; weekStart: string; monthStart: string },
): Promise<{ today: number; week: number; month: number }> {
  const row = await db
    .selectFrom('usage_daily')
    .where('day', '>=', days.monthStart)
    .where('day', '<=', days.today)
    .select((eb) => [
      eb.fn
        .coalesce(
          eb.fn.sum<number>(
            eb.case().when('day', '=', days.today).then(eb.ref('uses')).else(eb.lit(0)).end(),
          ),
          eb.lit(0),
        )
        .as('today'),
      eb.fn
        .coalesce(
          eb.fn.sum<number>(
            eb.case().when('day', '>=', days.weekStart).then(eb.ref('uses')).else(eb.lit(0)).end(),
          ),
          eb.lit(0),
        )
        .as('week'),
      eb.fn.coalesce(eb.fn.sum<number>('uses'), eb.lit(0)).as('month'),
    ])
    .executeTakeFirstOrThrow();
  return { today: Number(row.today), week: Number(row.week), month: Number(row.month) };
}
