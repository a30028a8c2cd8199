import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('scripts'))
    .addColumn('filename', 'text', (c) => c.notNull().unique())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('access_type', 'text', (c) => c.notNull().defaultTo('FREE'))
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('current_version', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('shipped_sha256', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('script_versions'))
    .addColumn('script_id', 'integer', (c) => c.notNull().references('scripts.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Two saves that both think they made version N: the second insert fails instead of forking history.
    .addUniqueConstraint('script_versions_script_version', ['script_id', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('script_versions').execute();
  await db.schema.dropTable('scripts').execute();
}
