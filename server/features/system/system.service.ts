import {
  computeSlotUsage,
  DEFAULT_TOTAL_SLOTS,
  type SlotUsage,
  SYSTEM_TEXTS,
  type SystemConfiguration,
  type SystemConfigurationView,
} from '../../../common/system.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { HttpError } from '../../http-error.ts';
import {
  countSlotTakers,
  findSystemConfiguration,
  insertSystemConfigurationIfMissing,
  type StoredSystemConfiguration,
  upsertSystemConfiguration,
} from './system.store.ts';
import { walletProblems } from './wallet-address.ts';

const DEFAULT_CONFIGURATION: SystemConfiguration = { totalSlots: DEFAULT_TOTAL_SLOTS, paymentWallets: {} };

/** A fresh install offers 30 slots and no wallets. Safe when several instances start at once. */
export async function seedSystemConfiguration(ctx: AppContext): Promise<void> {
  await insertSystemConfigurationIfMissing(ctx.db, DEFAULT_CONFIGURATION, ctx.now());
}

async function findStoredConfiguration(ctx: AppContext): Promise<StoredSystemConfiguration> {
  const resetsPerWeek = ctx.config.HWID_RESETS_PER_WEEK;
  return (
    (await findSystemConfiguration(ctx.db, resetsPerWeek)) ?? {
      ...DEFAULT_CONFIGURATION,
      hwidResetsPerWeek: resetsPerWeek,
      communityInviteUrl: null,
    }
  );
}

/** The configuration, with the saved wallets that fail their check (buyers are not shown those). */
export async function getSystemConfiguration(ctx: AppContext): Promise<SystemConfigurationView> {
  const stored = await findStoredConfiguration(ctx);
  return { ...stored, walletProblems: walletProblems(stored.paymentWallets) };
}

/** The wallets buyers may be shown: those whose address passes the check for its currency. */
export function publishableWallets(configuration: SystemConfigurationView): Record<string, string> {
  return Object.fromEntries(
    Object.entries(configuration.paymentWallets).filter(([code]) => !(code in configuration.walletProblems)),
  );
}

/** A save refused for its wallets: 400 with each refused wallet's reason (the form shows them per row). */
export class WalletProblemsError extends HttpError {
  constructor(readonly walletProblems: Record<string, string>) {
    super(400, Object.values(walletProblems).join('; '));
  }
}

/**
 * Saves slots and wallets and tells every open admin dashboard to refresh; `from` is the saving tab's
 * X-Server-Id, so that tab can tell the notice is its own.
 */
export async function updateSystemConfiguration(
  ctx: AppContext,
  configuration: SystemConfiguration,
  from?: string,
): Promise<SystemConfigurationView> {
  // A wallet added or changed must pass its check. One saved before addresses were checked may stay
  // (so slots can still be saved); it remains hidden from buyers and flagged on the form.
  const stored = await findStoredConfiguration(ctx);
  const changed = Object.fromEntries(
    Object.entries(configuration.paymentWallets).filter(
      ([code, address]) => stored.paymentWallets[code] !== address,
    ),
  );
  const problems = walletProblems(changed);
  if (Object.keys(problems).length > 0) throw new WalletProblemsError(problems);
  await upsertSystemConfiguration(ctx.db, configuration, ctx.now());
  // Saved whatever happens to the notice: dashboards also poll every 30 s, so a bus outage must not
  // turn a successful save into an error.
  await ctx.services.publisher
    .toAll('admin', 'system_config_update', {
      message: SYSTEM_TEXTS.configurationUpdated,
      ...(from ? { from } : {}),
    })
    .catch(() => {});
  return getSystemConfiguration(ctx);
}

/** The slots as a buyer meets them: sold, held by pending orders, and still for sale. */
export interface SlotCount {
  totalSlots: number;
  /** Taken for good: keys, and paid orders not yet redeemed. */
  sold: number;
  /** Pending orders whose hold has not run out. */
  pending: number;
  /** The slots those holds keep from the next buyer: at most PENDING_ORDERS_MAX_SHARE of the unsold. */
  held: number;
  /** What the next buyer can order. */
  available: number;
  /** While a hold counts: when the first one runs out (a slot frees then, unless that order is paid). */
  freeAgainAt: number | null;
  /** When the first sold slot with an end (a key's expiry) frees; null when none has one. */
  firstSoldEndsAt: number | null;
}

/**
 * Counts the slots. Pending orders hold at most PENDING_ORDERS_MAX_SHARE percent of the unsold
 * slots (rounded up, so the last slot is held for the one buyer paying for it): holds alone never
 * stop a buyer while more than that share is unsold. `db` may be the transaction an order is placed in.
 */
export async function countSlots(ctx: AppContext, db: Db = ctx.db, totalSlots?: number): Promise<SlotCount> {
  const [total, takers] = await Promise.all([
    totalSlots ?? getSystemConfiguration(ctx).then((c) => c.totalSlots),
    countSlotTakers(db, ctx.now()),
  ]);
  const unsold = Math.max(0, total - takers.sold);
  const held = Math.min(takers.pending, Math.ceil((unsold * ctx.config.PENDING_ORDERS_MAX_SHARE) / 100));
  return {
    totalSlots: total,
    sold: takers.sold,
    pending: takers.pending,
    held,
    available: unsold - held,
    freeAgainAt: held > 0 ? takers.firstHoldEndsAt : null,
    firstSoldEndsAt: takers.firstSoldEndsAt,
  };
}

/** The admin's slot usage: a slot a pending order holds counts as used. */
export async function getSlotUsage(ctx: AppContext): Promise<SlotUsage> {
  const slots = await countSlots(ctx);
  return computeSlotUsage(slots.totalSlots, slots.sold + slots.held);
}
