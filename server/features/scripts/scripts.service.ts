import { DEFAULT_SCRIPTS_PAGE_CONFIG, type ScriptsPageConfig } from '../../../common/scripts-page.ts';
import type { AppContext } from '../../context.ts';
import { findScriptsPageConfig, insertScriptsPageConfigIfMissing } from './scripts.store.ts';

/** A fresh install shows the default scripts page. Never overwrites what the admin saved. */
export async function seedScriptsPageConfig(ctx: AppContext): Promise<void> {
  await insertScriptsPageConfigIfMissing(ctx.db, DEFAULT_SCRIPTS_PAGE_CONFIG, ctx.now());
}

/** The stored page config; the default one if none is stored under `key`. */
export async function getScriptsPageConfig(ctx: AppContext, key = 'default'): Promise<ScriptsPageConfig> {
  return (await findScriptsPageConfig(ctx.db, key)) ?? { ...DEFAULT_SCRIPTS_PAGE_CONFIG, key };
}
