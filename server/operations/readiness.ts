import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { ReadinessCheck, ReadinessPart, Readiness as ReadinessReport } from '../../common/operations.ts';
import type { AppContext } from '../context.ts';
import { migrations } from '../db/migrations/index.ts';

declare module '../context.ts' {
  interface AppServices {
    /** What /readyz reports; the graceful shutdown marks it (server/operations/shutdown.ts). */
    readiness?: Readiness;
  }
}

/**
 * How long one check may take. A load balancer's probe usually gives up after 2 s: every check
 * runs at once and each is cut off here, so even a hung database is reported within that.
 */
export const CHECK_TIMEOUT_MS = 1500;

/** Kysely's bookkeeping table: one row per applied migration (server/db/migrate.ts). */
const MIGRATION_TABLE = 'kysely_migration';

type Outcome = { ok: true } | { ok: false; error: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs `work` against a timer: the outcome is known within `timeoutMs` even if `work` never
 * settles. A late rejection is swallowed (it was reported as a timeout already).
 */
async function withinTime(work: () => Promise<Outcome>, timeoutMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const pending = work().catch((error: unknown): Outcome => ({ ok: false, error: messageOf(error) }));
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `timed out after ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance can serve: a database round trip (which also reads the applied
 * migrations), Redis PING with REDIS_URL, and not shutting down. Concurrent probes share the check
 * in progress, so a hung database never piles up a query per probe.
 */
export class Readiness {
  private shuttingDown = false;
  private inProgress: Promise<ReadinessReport> | undefined;
  /** The failed parts last reported, so a change (not every probe) is logged. */
  private lastFailed = '';

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {}

  /** From now on /readyz answers 503 `shutting-down`, so the load balancer sends no new work. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  check(): Promise<ReadinessReport> {
    this.inProgress ??= this.runChecks().finally(() => {
      this.inProgress = undefined;
    });
    return this.inProgress;
  }

  private async runChecks(): Promise<ReadinessReport> {
    const checks: Partial<Record<ReadinessPart, ReadinessCheck>> = {};
    if (this.shuttingDown) {
      checks['shutting-down'] = { ok: false, error: 'the server is shutting down', durationMs: 0 };
    }
    let appliedMigrations: string[] | undefined;
    const database = this.timed(async () => {
      // One round trip that also says which migrations this database has.
      const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(
        this.ctx.db,
      );
      appliedMigrations = rows.rows.map((row) => row.name);
      return { ok: true };
    });
    const bus = this.ctx.bus;
    const redis: Promise<ReadinessCheck | undefined> = this.ctx.config.REDIS_URL
      ? this.timed(async () => {
          await bus.ping();
          return { ok: true };
        })
      : Promise.resolve(undefined);
    checks.database = await database;
    if (appliedMigrations) checks.migrations = migrationsCheck(appliedMigrations);
    const redisCheck = await redis;
    if (redisCheck) checks.redis = redisCheck;

    const failed = (Object.keys(checks) as ReadinessPart[]).filter((part) => !checks[part]?.ok);
    this.logChange(failed, checks);
    return { status: failed.length === 0 ? 'ready' : 'unavailable', failed, checks };
  }

  private async timed(work: () => Promise<Outcome>): Promise<ReadinessCheck> {
    const started = performance.now();
    const outcome = await withinTime(work, this.timeoutMs);
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    return outcome.ok ? { ok: true, durationMs } : { ok: false, error: outcome.error, durationMs };
  }

  /** One warning when the instance stops being ready (and what failed), one line when it is back. */
  private logChange(failed: ReadinessPart[], checks: Partial<Record<ReadinessPart, ReadinessCheck>>): void {
    const key = failed.join(',');
    if (key === this.lastFailed) return;
    this.lastFailed = key;
    if (failed.length === 0) this.log.info('ready again: every readiness check passes');
    else if (!(failed.length === 1 && failed[0] === 'shutting-down')) {
      const errors = Object.fromEntries(failed.map((part) => [part, checks[part]?.error]));
      this.log.warn({ failed: errors }, `not ready: ${failed.join(', ')}`);
    }
  }
}

/** Every migration this build knows is recorded (a newer instance may have added more). */
function migrationsCheck(applied: string[]): ReadinessCheck {
  const recorded = new Set(applied);
  const missing = Object.keys(migrations).filter((name) => !recorded.has(name));
  return missing.length === 0
    ? { ok: true, durationMs: 0 }
    : { ok: false, error: `not applied: ${missing.join(', ')}`, durationMs: 0 };
}
