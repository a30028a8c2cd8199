import type { Selectable } from 'kysely';
import type { ConfigurationProfile } from '../../../common/configuration.ts';
import type { Db } from '../../db/index.ts';
import type { ConfigurationProfilesTable } from './configuration.table.ts';

/* The configuration profiles: named sets of parameters, built in or the administrator's. */

export type ProfileRow = Selectable<ConfigurationProfilesTable>;

export function profileRowToProfile(row: ProfileRow): ConfigurationProfile {
  return {
    id: row.id,
    name: row.name,
    profileType: row.profile_type,
    isBuiltIn: Number(row.is_built_in) === 1,
    usageCount: Number(row.usage_count),
    description: row.description,
    hopFrequencyMs: Number(row.hop_frequency_ms),
    minPetValue: Number(row.min_pet_value),
    stealthMode: Number(row.stealth_mode) === 1,
    batchSize: Number(row.batch_size),
  };
}

export async function findProfiles(db: Db): Promise<ProfileRow[]> {
  return db
    .selectFrom('configuration_profiles')
    .selectAll()
    .orderBy('is_built_in', 'desc')
    .orderBy('name')
    .execute();
}

export async function findProfile(db: Db, id: string): Promise<ProfileRow | undefined> {
  return db.selectFrom('configuration_profiles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function incrementProfileUsage(trx: Db, id: string): Promise<void> {
  await trx
    .updateTable('configuration_profiles')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('id', '=', id)
    .execute();
}
