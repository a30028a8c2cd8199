import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/** Health reports (AI System Debugging): one row per Generate Report, the whole report as JSON. */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('health_reports'))
    .addColumn('report_id', 'text', (c) => c.notNull().unique())
    .addColumn('generated_at', 'bigint', (c) => c.notNull())
    .addColumn('health_score', 'integer', (c) => c.notNull())
    .addColumn('system_status', 'text', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('health_reports').execute();
}
