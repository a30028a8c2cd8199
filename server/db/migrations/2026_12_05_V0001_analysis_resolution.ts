import type { Kysely } from 'kysely';

/*
 * How a finding or recommendation was closed: 'automatic' when an analysis run found its condition
 * no longer held, 'operator' when the administrator resolved the finding. Recommendations get the
 * time as well (findings had resolved_at already). Findings resolved before this were resolved by
 * the administrator: nothing else closed them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analysis_findings').addColumn('resolution', 'text').execute();
  await db
    .updateTable('analysis_findings')
    .set({ resolution: 'operator' })
    .where('is_resolved', '=', 1)
    .execute();
  await db.schema.alterTable('recommendations').addColumn('resolved_at', 'bigint').execute();
  await db.schema.alterTable('recommendations').addColumn('resolution', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('recommendations').dropColumn('resolution').execute();
  await db.schema.alterTable('recommendations').dropColumn('resolved_at').execute();
  await db.schema.alterTable('analysis_findings').dropColumn('resolution').execute();
}
