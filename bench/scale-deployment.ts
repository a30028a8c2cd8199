/*
 * One run's deployment for bench:scale, as an operator runs it: the built server (dist/) on a fresh
 * database, SQLite (a file in a temporary directory) or PostgreSQL (a database created for the run
 * and dropped after); for two instances, one PostgreSQL database, a Redis of the bench's own on a
 * free port and nginx with the documented configuration (docs/deploy/nginx-main.conf and
 * nginx.conf) in front. Each part is handed to the teardown as it starts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { canStartRedis, ThrowawayRedis } from '../server/test/throwaway-redis.ts';
import { createFreshDatabase, type FreshDatabase } from '../tests/operations/fresh-database.ts';
import { NGINX, startNginx } from '../tests/operations/nginx.ts';
import { freePort, startServer, stopServer } from '../tests/reliability/server-process.ts';
import type { RunPlan } from './scale-options.ts';
import type { Teardown } from './scale-teardown.ts';

export const ADMIN_SECRET = `bench-admin-${randomBytes(12).toString('hex')}`;
export const BOT_TOKEN = `bench-bots-${randomBytes(12).toString('hex')}`;

export interface Instance {
  /** A, B: the admin socket and the dashboards are on the last one. */
  name: string;
  url: string;
  pid: number;
  /** host:port, as nginx names it in its upstream header. */
  address: string;
  /** Why it is no longer running (its exit and the end of its output), or null while it runs. */
  gone(): string | null;
}

export interface Deployment {
  instances: Instance[];
  /** Where the fleet connects: nginx for two instances, else the instance itself. */
  fleetUrl: string;
  /** Lines of nginx's error log saying a worker ran out of connections (0 without nginx). */
  connectionShortages(): number;
  /** Bot socket upgrades nginx answered with an error so far, by status ({} without nginx). */
  refusedUpgrades(): Record<string, number>;
  describe: string;
}

/** What the runs need that this machine lacks, one sentence each (none: every run can start). */
export async function missingForRuns(runs: readonly RunPlan[], postgresServerUrl: string): Promise<string[]> {
  const missing: string[] = [];
  if (runs.some((r) => r.database === 'postgres')) {
    const client = new pg.Client({ connectionString: postgresServerUrl });
    try {
      await client.connect();
    } catch (error) {
      missing.push(
        `PostgreSQL at ${postgresServerUrl} cannot be reached (${(error as Error).message}): start it, or pass --database-url`,
      );
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (runs.some((r) => r.instances === 2)) {
    if (!canStartRedis)
      missing.push('two instances need redis-server (or REDIS_SERVER_BIN), which is not there');
    if (!existsSync(NGINX)) missing.push(`two instances need nginx, which is not at ${NGINX} (NGINX_BIN)`);
  }
  return missing;
}

/** Settings for every instance: the fleet enrolls from one address and may be larger than the default cap. */
function serverEnv(plan: RunPlan, databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ADMIN_SECRET,
    BOT_TOKEN,
    FLEET_MAX_BOTS: String(Math.max(1_000, plan.bots)),
    RATE_LIMIT_BOT_ENROLL: String(plan.bots + 100),
    // nginx runs on this host: its hop is trusted for X-Forwarded-For/-Proto/-Host, no other.
    TRUST_PROXY: 'loopback',
  };
}

export async function startDeployment(
  plan: RunPlan,
  postgresServerUrl: string,
  teardown: Teardown,
): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-scale-'));
  teardown.add('the temporary directory', () => rmSync(dir, { recursive: true, force: true }));
  let databaseUrl = join(dir, 'scanline.db');
  if (plan.database === 'postgres') {
    let database: FreshDatabase;
    try {
      database = await createFreshDatabase(postgresServerUrl, 'scale');
    } catch (error) {
      throw new Error(
        `could not create a database on ${postgresServerUrl} (--database-url): ${(error as Error).message}`,
      );
    }
    teardown.add('the PostgreSQL database', () => database.drop());
    databaseUrl = database.url;
  }
  const env = serverEnv(plan, databaseUrl);
  if (plan.instances === 2) {
    const redis = await ThrowawayRedis.start();
    teardown.add('Redis', () => redis.kill());
    env.REDIS_URL = redis.url;
  }

  const instances: Instance[] = [];
  // One after the other: the first applies the migrations.
  for (const name of ['A', 'B'].slice(0, plan.instances)) {
    const port = await freePort();
    const server = await startServer(env, port);
    teardown.add(`instance ${name}`, () => stopServer(server));
    const { child } = server;
    instances.push({
      name,
      url: server.url,
      pid: child.pid ?? 0,
      address: `127.0.0.1:${port}`,
      gone: () =>
        child.exitCode === null && child.signalCode === null
          ? null
          : `exited (${child.signalCode ?? child.exitCode}): ${server.output().slice(-2_000)}`,
    });
  }
  const where = plan.database === 'sqlite' ? `SQLite ${databaseUrl}` : `PostgreSQL ${databaseUrl}`;
  if (plan.instances === 1) {
    return {
      instances,
      fleetUrl: instances[0]!.url,
      connectionShortages: () => 0,
      refusedUpgrades: () => ({}),
      describe: `1 instance (${instances[0]!.address}, pid ${instances[0]!.pid}) on ${where}`,
    };
  }

  const ports = instances.map((i) => Number(i.address.split(':')[1])) as [number, number];
  const nginxDir = join(dir, 'nginx');
  const nginx = await startNginx(nginxDir, await freePort(), ports);
  teardown.add('nginx', () => nginx.stop());
  return {
    instances,
    fleetUrl: nginx.url,
    connectionShortages: () => nginx.output().split('worker_connections are not enough').length - 1,
    refusedUpgrades: () => refusedUpgrades(readFileSync(join(nginxDir, 'access.log'), 'utf8')),
    describe:
      `2 instances (${instances.map((i) => `${i.name} ${i.address} pid ${i.pid}`).join(', ')}) on ${where}, ` +
      `Redis ${env.REDIS_URL}, nginx ${nginx.url} (docs/deploy, one worker)`,
  };
}

/**
 * The /ws requests in an nginx access log (its default format) answered with an error, by status. An
 * upgraded socket is logged only when it closes, so while the fleet runs the log holds the failures.
 */
export function refusedUpgrades(accessLog: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [, status] of accessLog.matchAll(/"GET \/ws\?\S* HTTP\/1\.1" (\d{3}) /g)) {
    if (status !== '101') counts[status!] = (counts[status!] ?? 0) + 1;
  }
  return counts;
}
