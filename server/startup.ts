import type { AppContext } from './context.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureAdminSecret } from './features/auth/auth.service.ts';
import { seedScriptsPageConfig } from './features/scripts/scripts.service.ts';
import { seedSystemConfiguration } from './features/system/system.service.ts';

/**
 * Brings the database to what the app expects: migrations, then the defaults a fresh install shows
 * (30 slots, the public scripts page). Returns the admin secret when this start generated it.
 */
export async function prepareDatabase(ctx: AppContext): Promise<{ generatedSecret: string | null }> {
  await migrateToLatest(ctx.db);
  await seedSystemConfiguration(ctx);
  await seedScriptsPageConfig(ctx);
  const { generated } = await ensureAdminSecret(ctx);
  return { generatedSecret: generated };
}
