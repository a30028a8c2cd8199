import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { AppBase } from '../context.ts';
import { createDb, type DbHandle, type ObservedDbOptions, openSqlite } from '../db/index.ts';
import { createLocalBus } from '../realtime/bus.ts';
import { migrateAndSeed } from '../startup.ts';

/*
 * Test databases start from a template that was migrated and seeded once (immich's test setup,
 * STYLE 17): a SQLite image in memory per process, a PostgreSQL template database per version of
 * the source, shared by every worker and run. A clone costs well under a millisecond on SQLite and
 * tens of milliseconds on PostgreSQL, where migrating costs hundreds.
 */

const root = resolve(import.meta.dirname, '../..');

/** Seeds stamp rows with the clock's time: the template is seeded at the test clock's start. */
type TemplateBase = Pick<AppBase, 'config' | 'now'>;

async function seedInto(handle: DbHandle, base: TemplateBase): Promise<void> {
  const bus = createLocalBus();
  await migrateAndSeed({ ...base, db: handle.db, dialect: handle.dialect, bus });
  await bus.close();
}

let sqliteImage: Promise<Buffer> | undefined;

/** A fresh in-memory SQLite database holding the migrated template, seeded with the shipped scripts. */
export async function cloneSqlite(base: TemplateBase, options: ObservedDbOptions = {}): Promise<DbHandle> {
  sqliteImage ??= (async () => {
    const sqlite = new SQLite(':memory:');
    const handle = openSqlite(sqlite);
    await seedInto(handle, base);
    const bytes = sqlite.serialize();
    await handle.db.destroy();
    return bytes;
  })();
  return openSqlite(new SQLite(await sqliteImage), options);
}

/** `url` pointing at another database of the same server, each session committing without waiting. */
export function urlForDatabase(url: string, database: string): string {
  const target = new URL(url);
  target.pathname = `/${database}`;
  // Tests need no durability: a commit need not wait for its WAL flush.
  target.searchParams.set('options', '-c synchronous_commit=off');
  return target.toString();
}

let adminPool: pg.Pool | undefined;
/** One small pool per process on the server's own database, for CREATE and DROP DATABASE. */
function admin(url: string): pg.Pool {
  adminPool ??= new pg.Pool({
    connectionString: url,
    max: 2,
    allowExitOnIdle: true,
    idleTimeoutMillis: 2000,
  });
  return adminPool;
}

/**
 * Changes to the migrations, seeds or shipped scripts make a new template; tests never see a stale one.
 * Paths count relative to the checkout, so clones of the same commit share one template.
 */
function sourceFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.includes('.test.')) hash.update(relative(root, path)).update(readFileSync(path));
    }
  };
  for (const dir of ['server', 'common', 'scripts']) walk(join(root, dir));
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE_PREFIX = 'scanline_tpl_';
const CLONE_PREFIX = 'scanline_t_';
/** Templates of other source versions and clones a crashed run left behind go after this long. */
const LEFTOVER_AGE_MS = 6 * 3600_000;

let templateName: Promise<string> | undefined;

/** The PostgreSQL template for today's source, created once under an advisory lock if missing. */
function postgresTemplate(url: string, base: TemplateBase): Promise<string> {
  templateName ??= (async () => {
    const name = `${TEMPLATE_PREFIX}${sourceFingerprint()}`;
    const client = await admin(url).connect();
    try {
      await client.query(`SELECT pg_advisory_lock(hashtext('scanline-test-template'))`);
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        await dropLeftovers(client, name);
        // Built under another name and renamed when complete: a crash never leaves half a template.
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${building}`);
        const handle = createDb(urlForDatabase(url, building));
        try {
          await seedInto(handle, base);
        } finally {
          await handle.db.destroy();
        }
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        await client.query(`COMMENT ON DATABASE ${name} IS '${Date.now()}'`);
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext('scanline-test-template'))`);
      client.release();
    }
    return name;
  })();
  return templateName;
}

async function dropLeftovers(client: pg.PoolClient, keep: string): Promise<void> {
  const { rows } = await client.query<{ datname: string; note: string | null }>(
    `SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database
     WHERE datname LIKE '${TEMPLATE_PREFIX}%' OR datname LIKE '${CLONE_PREFIX}%'`,
  );
  for (const { datname, note } of rows) {
    if (datname === keep) continue;
    const created = datname.startsWith(CLONE_PREFIX) ? Number(datname.split('_')[2]) * 1000 : Number(note);
    if (Date.now() - (created || 0) > LEFTOVER_AGE_MS) {
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  }
}

/**
 * A new PostgreSQL database for one test: a clone of the template (`fromTemplate`, for a test of
 * the shipped scripts), or an empty one the caller migrates. Its name carries its birth time so a
 * crashed run's leftovers can be told apart.
 */
export async function createPostgresDatabase(
  url: string,
  base: TemplateBase,
  fromTemplate: boolean,
): Promise<{ database: string; drop(): Promise<void> }> {
  const database = `${CLONE_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(5).toString('hex')}`;
  const template = fromTemplate ? ` TEMPLATE ${await postgresTemplate(url, base)}` : '';
  await admin(url).query(`CREATE DATABASE ${database}${template}`);
  return {
    database,
    // Not awaited: nothing waits for a finished test's database to go (a run that stops first
    // leaves it to dropLeftovers).
    drop: async () => {
      void dropWhenIdle(admin(url), database).catch(() => {});
    },
  };
}

/**
 * A closed pool's backends take a moment to exit; forcing them out would make each one report a
 * lost connection. Waits up to 2 s for them to go, then forces.
 */
async function dropWhenIdle(pool: pg.Pool, database: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await pool.query(`DROP DATABASE IF EXISTS ${database}`);
      return;
    } catch (error) {
      // 55006: "being accessed by other users"; anything else is not for waiting out.
      if ((error as { code?: string }).code !== '55006') throw error;
      await setTimeout(100);
    }
  }
  await pool.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}
