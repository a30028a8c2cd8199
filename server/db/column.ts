import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/** The one place where the dialects differ in DDL: an auto-incrementing integer primary key. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
