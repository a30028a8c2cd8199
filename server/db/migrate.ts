import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from './migrations/index.ts';

/** Migrations are listed in code (not read from disk) so the same list runs under tsx, tests and the build. */
const provider: MigrationProvider = {
  getMigrations: async () => migrations as Record<string, Migration>,
};

/**
 * PostgreSQL: the schema this connection works in. Kysely looks for its migration tables in every
 * schema unless told which one, so another schema's bookkeeping (a second app, a parallel test)
 * would make it skip creating its own.
 */
async function currentSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrationTableSchema = await currentSchema(db);
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
