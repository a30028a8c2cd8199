import type { Kysely } from 'kysely';
import unhomoglyph from 'unhomoglyph';

/*
 * scripts.name_key and scripts.name_skeleton (server/features/scripts/script-names.ts), each unique:
 * names differing only in case are one script, and no two scripts look alike. Computed here in
 * JavaScript rather than with lower() so both databases agree (their case rules differ outside
 * ASCII). A script whose key or skeleton an older one already holds keeps it null, reachable by
 * its exact name, rather than failing the upgrade.
 *
 * Frozen: the two functions are copied here as they were when it was written, so the migration
 * keeps its meaning whatever the feature's rules become.
 */

/** A name's identity: NFC, lower case. */
function scriptNameKey(filename: string): string {
  return filename.normalize('NFC').toLowerCase();
}

/** What a name looks like: Unicode's confusable skeleton of its lower-cased form (UTS #39). */
function scriptNameSkeleton(filename: string): string {
  return unhomoglyph(filename.normalize('NFD').toLowerCase()).normalize('NFD').toLowerCase();
}
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scripts').addColumn('name_key', 'text').execute();
  await db.schema.alterTable('scripts').addColumn('name_skeleton', 'text').execute();
  const rows = await db.selectFrom('scripts').select(['id', 'filename']).orderBy('id').execute();
  const keys = new Set<string>();
  const skeletons = new Set<string>();
  for (const row of rows) {
    const key = scriptNameKey(row.filename);
    const skeleton = scriptNameSkeleton(row.filename);
    if (keys.has(key) || skeletons.has(skeleton)) {
      console.warn(
        `Script ${row.filename} (id ${row.id}) looks like an older script: only its exact name finds it`,
      );
      continue;
    }
    keys.add(key);
    skeletons.add(skeleton);
    await db
      .updateTable('scripts')
      .set({ name_key: key, name_skeleton: skeleton })
      .where('id', '=', row.id)
      .execute();
  }
  await db.schema.createIndex('scripts_name_key').on('scripts').column('name_key').unique().execute();
  await db.schema
    .createIndex('scripts_name_skeleton')
    .on('scripts')
    .column('name_skeleton')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scripts_name_skeleton').execute();
  await db.schema.dropIndex('scripts_name_key').execute();
  await db.schema.alterTable('scripts').dropColumn('name_skeleton').execute();
  await db.schema.alterTable('scripts').dropColumn('name_key').execute();
}
