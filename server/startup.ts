import type { AppContext } from './context.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureAdminSecret } from './features/auth/auth.service.ts';
import { seedProjectScripts } from './features/scripts/project-scripts.ts';
import { seedScriptsPageConfig } from './features/scripts/scripts-page.service.ts';
import { seedSystemConfiguration } from './features/system/system.service.ts';

/**
 * Brings the database to what the app expects: migrations, then the defaults a fresh install shows
 * (30 slots, the public scripts page, the Lua scripts shipped in SCRIPTS_DIR). Returns the admin
 * secret when this start generated it.
 */
export async function prepareDatabase(ctx: AppContext): Promise<{ generatedSecret: string | null }> {
  await migrateToLatest(ctx.db);
  await seedSystemConfiguration(ctx);
  await seedScriptsPageConfig(ctx);
  const projectScripts = await seedProjectScripts(ctx);
  // Runs before the app (and its logger) exists; a shipped file that cannot be served is a release bug.
  for (const { filename, problem } of projectScripts.skipped) {
    console.warn(`Shipped script ${filename} was not loaded: ${problem}`);
  }
  const { generated } = await ensureAdminSecret(ctx);
  return { generatedSecret: generated };
}
