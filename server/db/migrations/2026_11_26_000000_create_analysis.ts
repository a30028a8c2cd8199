import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * AI health analysis: the findings the detectors open (one open row per analysis type and subject,
 * held by the unique `open_key` while unresolved), the recommendations derived from them, and the
 * one row saying how far the analysis has read the system's data (its watermark).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('analysis_findings'))
    .addColumn('analysis_type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('suggested_action', 'text', (c) => c.notNull())
    .addColumn('frequency', 'integer', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('is_resolved', 'integer', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    // Type and subject while open, null once resolved: a recurrence after that opens a new row.
    .addColumn('open_key', 'text', (c) => c.unique())
    .execute();
  await db.schema
    .createIndex('analysis_findings_resolved_created')
    .on('analysis_findings')
    .columns(['is_resolved', 'created_at'])
    .execute();

  await withId(db, db.schema.createTable('recommendations'))
    .addColumn('analysis_id', 'integer', (c) => c.references('analysis_findings.id').onDelete('cascade'))
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('reasoning', 'text', (c) => c.notNull())
    .addColumn('estimated_impact', 'text', (c) => c.notNull())
    .addColumn('implementation_notes', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('action_label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('valid_until', 'bigint', (c) => c.notNull())
    .addColumn('is_implemented', 'integer', (c) => c.notNull())
    .addColumn('implemented_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('recommendations_analysis_id')
    .on('recommendations')
    .column('analysis_id')
    .execute();

  await db.schema
    .createTable('analysis_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('watermark', 'bigint')
    .execute();
  await db.insertInto('analysis_state').values({ id: 1, watermark: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analysis_state').execute();
  await db.schema.dropTable('recommendations').execute();
  await db.schema.dropTable('analysis_findings').execute();
}
