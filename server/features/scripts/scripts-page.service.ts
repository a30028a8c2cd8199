import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import type { AppContext } from '../../context.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  findScriptsPageConfig,
  insertScriptsPageConfigIfMissing,
  upsertScriptsPageConfig,
} from './scripts-page.store.ts';

/** A fresh install shows the default scripts page. Never overwrites what the admin saved. */
export async function seedScriptsPageConfig(ctx: AppContext): Promise<void> {
  await insertScriptsPageConfigIfMissing(ctx.db, DEFAULT_SCRIPTS_PAGE_CONFIG, ctx.now());
}

/** The stored page config; the default one if none is stored under `key`. Read fresh every time. */
export async function getScriptsPageConfig(ctx: AppContext, key = 'default'): Promise<ScriptsPageConfig> {
  return (await findScriptsPageConfig(ctx.db, key)) ?? { ...DEFAULT_SCRIPTS_PAGE_CONFIG, key };
}

/** Replaces the page config stored under its key; the public page shows it on its next load. */
export async function saveScriptsPageConfig(
  ctx: AppContext,
  config: ScriptsPageConfig,
  client: { ip: string },
): Promise<ScriptsPageConfig> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await upsertScriptsPageConfig(trx, config, now);
    await insertAuditLog(
      trx,
      {
        eventType: 'scripts_page_config_saved',
        success: true,
        ipAddress: client.ip,
        details: { key: config.key, sections: config.sections.length },
      },
      now,
    );
  });
  return getScriptsPageConfig(ctx, config.key);
}

/** Puts the default page back ("Reset to Default"). */
export async function resetScriptsPageConfig(
  ctx: AppContext,
  client: { ip: string },
): Promise<ScriptsPageConfig> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await upsertScriptsPageConfig(trx, DEFAULT_SCRIPTS_PAGE_CONFIG, now);
    await insertAuditLog(
      trx,
      {
        eventType: 'scripts_page_config_reset',
        success: true,
        ipAddress: client.ip,
        details: { key: DEFAULT_SCRIPTS_PAGE_CONFIG.key },
      },
      now,
    );
  });
  return getScriptsPageConfig(ctx, DEFAULT_SCRIPTS_PAGE_CONFIG.key);
}
