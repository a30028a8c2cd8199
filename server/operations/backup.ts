import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../config.ts';
import { isPostgresUrl } from '../db/index.ts';

/*
 * `npm run backup -- --out FILE`: a consistent copy of the SQLite database, taken while the server
 * runs, through SQLite's online backup API (better-sqlite3's db.backup). The database is the one the
 * server uses: DATABASE_URL, or the default ./data/scanline.db (server/config.ts).
 */

const USAGE = 'Usage: npm run backup -- --out FILE   (copies the SQLite database named by DATABASE_URL)';

/** A refusal the operator can act on: printed as one line, exit code 2. */
export class BackupRefused extends Error {}

export interface BackupResult {
  source: string;
  out: string;
  bytes: number;
  ms: number;
}

/**
 * Copies the SQLite database at `source` to `out`. The copy is written beside `out` and renamed
 * into place once complete, so `out` is never a half-written file. Writers go on meanwhile: the
 * copy is the database as of one moment (SQLite restarts the copy if another connection writes
 * between two steps, so after the first step the rest is copied in one).
 */
export async function backupSqlite(source: string, out: string): Promise<BackupResult> {
  const started = Date.now();
  if (!existsSync(source)) throw new BackupRefused(`No SQLite database at ${source} (DATABASE_URL)`);
  if (resolve(source) === resolve(out)) throw new BackupRefused('--out must not be the database itself');
  const partial = `${out}.partial`;
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(partial, { progress: () => Number.MAX_SAFE_INTEGER });
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  return { source, out, bytes: statSync(out).size, ms: Date.now() - started };
}

/** The command line: parses the arguments, refuses PostgreSQL, and reports in one line. */
export async function runBackupCommand(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  let out: string | undefined;
  try {
    ({ out } = parseArgs({ args, options: { out: { type: 'string' } } }).values);
  } catch (error) {
    throw new BackupRefused(`${error instanceof Error ? error.message : String(error)}. ${USAGE}`);
  }
  if (!out) throw new BackupRefused(USAGE);
  const { DATABASE_URL } = loadConfig(env);
  if (isPostgresUrl(DATABASE_URL)) {
    throw new BackupRefused(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump (pg_dump --format=custom --file=FILE "$DATABASE_URL"; restore with pg_restore). npm run backup copies SQLite only.',
    );
  }
  const { source, bytes, ms } = await backupSqlite(DATABASE_URL, out);
  return `Backed up ${source} to ${out} (${Math.round(bytes / 1024)} KiB in ${ms} ms)`;
}

// Run as a command (npm run backup), not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBackupCommand(process.argv.slice(2), process.env).then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(error instanceof BackupRefused ? error.message : `Backup failed: ${String(error)}`);
      process.exitCode = error instanceof BackupRefused ? 2 : 1;
    },
  );
}
