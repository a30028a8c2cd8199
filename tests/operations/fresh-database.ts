import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database of its own for one test run: `url` to hand the servers, `drop` when done. */
export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty database beside the one `serverUrl` names (TEST_DATABASE_URL). */
export async function createFreshDatabase(serverUrl: string, label = 'ops'): Promise<FreshDatabase> {
  const name = `scanline_${label}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a server killed before it closed its pool leaves connections behind.
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
