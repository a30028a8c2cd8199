import type { Selectable } from 'kysely';
import type { SystemConfiguration, SystemConfigurationView } from '../../../common/system.ts';
import type { Db } from '../../db/index.ts';
import { notALicensesScriptKey } from '../../db/key-filters.ts';
import type { SystemConfigurationTable } from './system.table.ts';

/** The configuration lives in one row. */
const CONFIGURATION_ID = 1;

/** The configuration as stored; the service adds which wallets fail their check. */
export type StoredSystemConfiguration = Omit<SystemConfigurationView, 'walletProblems'>;

/** The stored row; hwidResetsPerWeek is `defaultResetsPerWeek` (HWID_RESETS_PER_WEEK) until an admin sets it. */
export function systemConfigurationRowToConfiguration(
  row: Selectable<SystemConfigurationTable>,
  defaultResetsPerWeek: number,
): StoredSystemConfiguration {
  return {
    totalSlots: row.total_slots,
    paymentWallets: JSON.parse(row.payment_wallets),
    hwidResetsPerWeek: row.hwid_resets_per_week ?? defaultResetsPerWeek,
    communityInviteUrl: row.community_invite_url ?? null,
  };
}

export async function findSystemConfiguration(
  db: Db,
  defaultResetsPerWeek: number,
): Promise<StoredSystemConfiguration | undefined> {
  const row = await db
    .selectFrom('system_configuration')
    .selectAll()
    .where('id', '=', CONFIGURATION_ID)
    .executeTakeFirst();
  return row && systemConfigurationRowToConfiguration(row, defaultResetsPerWeek);
}

/** Inserts the configuration unless a row exists already (another instance may be starting too). */
export async function insertSystemConfigurationIfMissing(
  db: Db,
  configuration: SystemConfiguration,
  now: number,
): Promise<void> {
  await db
    .insertInto('system_configuration')
    .values({
      id: CONFIGURATION_ID,
      total_slots: configuration.totalSlots,
      payment_wallets: JSON.stringify(configuration.paymentWallets),
      updated_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Writes the whole configuration, creating the row if it is missing; an absent hwidResetsPerWeek or
 * communityInviteUrl keeps the stored one.
 */
export async function upsertSystemConfiguration(
  db: Db,
  configuration: SystemConfiguration,
  now: number,
): Promise<void> {
  const values = {
    total_slots: configuration.totalSlots,
    payment_wallets: JSON.stringify(configuration.paymentWallets),
    updated_at: now,
    ...(configuration.hwidResetsPerWeek === undefined
      ? {}
      : { hwid_resets_per_week: configuration.hwidResetsPerWeek }),
    ...(configuration.communityInviteUrl === undefined
      ? {}
      : { community_invite_url: configuration.communityInviteUrl }),
  };
  await db
    .insertInto('system_configuration')
    .values({ id: CONFIGURATION_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/** What takes premium slots now: sold ones, and pending orders with the earliest end of their holds. */
export interface SlotTakers {
  /** ACTIVE PREMIUM and VIP license keys, switched-on premium script keys, paid orders not yet redeemed. */
  sold: number;
  /** Pending orders whose hold has not run out. */
  pending: number;
  /** When the first of those holds runs out (null without one). */
  firstHoldEndsAt: number | null;
  /** When the first sold slot with an end (a key's expiry) ends; null when none has one. */
  firstSoldEndsAt: number | null;
}

/**
 * What takes a premium slot: ACTIVE PREMIUM and VIP license keys, and switched-on PREMIUM, VIP and
 * premium_24h script keys, each not past its expiry; a paid order until its code is redeemed (then
 * the script key it became takes the slot); and, held rather than sold, a pending order until its
 * hold runs out (system.service decides how many of those count). One query per table.
 */
export async function countSlotTakers(db: Db, now: number): Promise<SlotTakers> {
  const [licenseKeys, scriptKeys, pendingOrders, paidOrders] = await Promise.all([
    db
      .selectFrom('license_keys')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('expires_at').as('first_end')])
      .where('status', '=', 'ACTIVE')
      .where('key_type', 'in', ['PREMIUM', 'VIP'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('script_keys')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('expires_at').as('first_end')])
      // A license key's own script key is that license key's slot: counted once, above.
      .where(notALicensesScriptKey)
      .where('is_active', '=', 1)
      .where('script_type', 'in', ['PREMIUM', 'VIP', 'premium_24h'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('expires_at').as('first_end')])
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .innerJoin('redemption_keys', 'redemption_keys.id', 'orders.redemption_key_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('orders.status', '=', 'paid')
      .where('redemption_keys.is_redeemed', '=', 0)
      .executeTakeFirstOrThrow(),
  ]);
  const soldEnds = [licenseKeys.first_end, scriptKeys.first_end].map(toTime).filter((t) => t !== null);
  return {
    sold: Number(licenseKeys.n) + Number(scriptKeys.n) + Number(paidOrders.n),
    pending: Number(pendingOrders.n),
    firstHoldEndsAt: toTime(pendingOrders.first_end),
    firstSoldEndsAt: soldEnds.length > 0 ? Math.min(...soldEnds) : null,
  };
}

/** A MIN() of epoch milliseconds as a number (PostgreSQL answers bigint as text); null stays null. */
function toTime(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
