import {
  computeSlotUsage,
  DEFAULT_TOTAL_SLOTS,
  type SlotUsage,
  SYSTEM_TEXTS,
  type SystemConfiguration,
  type SystemConfigurationView,
} from '../../../common/system.ts';
import type { AppContext } from '../../context.ts';
import {
  countUsedSlots,
  findSystemConfiguration,
  insertSystemConfigurationIfMissing,
  upsertSystemConfiguration,
} from './system.store.ts';

const DEFAULT_CONFIGURATION: SystemConfiguration = { totalSlots: DEFAULT_TOTAL_SLOTS, paymentWallets: {} };

/** A fresh install offers 30 slots and no wallets. Safe when several instances start at once. */
export async function seedSystemConfiguration(ctx: AppContext): Promise<void> {
  await insertSystemConfigurationIfMissing(ctx.db, DEFAULT_CONFIGURATION, ctx.now());
}

export async function getSystemConfiguration(ctx: AppContext): Promise<SystemConfigurationView> {
  const resetsPerWeek = ctx.config.HWID_RESETS_PER_WEEK;
  return (
    (await findSystemConfiguration(ctx.db, resetsPerWeek)) ?? {
      ...DEFAULT_CONFIGURATION,
      hwidResetsPerWeek: resetsPerWeek,
    }
  );
}

/** Saves slots and wallets and tells every open admin dashboard to refresh. */
export async function updateSystemConfiguration(
  ctx: AppContext,
  configuration: SystemConfiguration,
): Promise<SystemConfigurationView> {
  await upsertSystemConfiguration(ctx.db, configuration, ctx.now());
  // Saved whatever happens to the notice: dashboards also poll every 30 s, so a bus outage must not
  // turn a successful save into an error.
  await ctx.services.publisher
    .toAll('admin', 'system_config_update', {
      message: SYSTEM_TEXTS.configurationUpdated,
    })
    .catch(() => {});
  return getSystemConfiguration(ctx);
}

export async function getSlotUsage(ctx: AppContext): Promise<SlotUsage> {
  const [configuration, usedSlots] = await Promise.all([
    getSystemConfiguration(ctx),
    countUsedSlots(ctx.db, ctx.now()),
  ]);
  return computeSlotUsage(configuration.totalSlots, usedSlots);
}
