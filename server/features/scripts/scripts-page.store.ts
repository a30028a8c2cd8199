import type { Selectable } from 'kysely';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import type { Db } from '../../db/index.ts';
import type { ScriptsPageConfigTable } from './scripts.table.ts';

/** The row keeps the config without its key (the key is the row's primary key). */
export function scriptsPageConfigRowToConfig(row: Selectable<ScriptsPageConfigTable>): ScriptsPageConfig {
  return { ...JSON.parse(row.config), key: row.key };
}

export async function findScriptsPageConfig(db: Db, key: string): Promise<ScriptsPageConfig | undefined> {
  const row = await db
    .selectFrom('scripts_page_config')
    .selectAll()
    .where('key', '=', key)
    .executeTakeFirst();
  return row && scriptsPageConfigRowToConfig(row);
}

/** Inserts the config unless one is stored under its key already (another instance may be starting too). */
export async function insertScriptsPageConfigIfMissing(
  db: Db,
  config: ScriptsPageConfig,
  now: number,
): Promise<void> {
  const { key, ...content } = config;
  await db
    .insertInto('scripts_page_config')
    .values({ key, config: JSON.stringify(content), updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Stores the config under its key, replacing what was there. */
export async function upsertScriptsPageConfig(db: Db, config: ScriptsPageConfig, now: number): Promise<void> {
  const { key, ...content } = config;
  const json = JSON.stringify(content);
  await db
    .insertInto('scripts_page_config')
    .values({ key, config: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ config: json, updated_at: now }))
    .execute();
}
