import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * The hop and find stream positions a server's database holds, read straight from it (the server
 * may be stopped), and for SQLite the result of PRAGMA integrity_check.
 */
export async function storedSeqs(
  dialect: string,
  databaseUrl: string,
): Promise<{ hops: Set<number>; finds: Set<number>; integrity: string }> {
  if (dialect === 'sqlite') {
    const db = new SQLite(databaseUrl, { readonly: false });
    try {
      const integrity = (db.pragma('integrity_check', { simple: true }) as string) ?? '';
      const hops = new Set(
        (db.prepare('SELECT seq FROM fleet_hops').all() as Array<{ seq: number }>).map((r) => Number(r.seq)),
      );
      const finds = new Set(
        (db.prepare('SELECT seq FROM fleet_discoveries').all() as Array<{ seq: number }>).map((r) =>
          Number(r.seq),
        ),
      );
      return { hops, finds, integrity };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const hops = new Set(
      (await client.query('SELECT seq FROM fleet_hops')).rows.map((r: { seq: string }) => Number(r.seq)),
    );
    const finds = new Set(
      (await client.query('SELECT seq FROM fleet_discoveries')).rows.map((r: { seq: string }) =>
        Number(r.seq),
      ),
    );
    return { hops, finds, integrity: 'ok' };
  } finally {
    await client.end();
  }
}
