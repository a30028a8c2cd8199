/*
 * bench:scale's options (bench/scale.ts) and the runs they ask for. Every value is checked before
 * anything starts, and a bad one is refused with the option's name and what it takes.
 */
import { parseArgs } from 'node:util';
import { MAX_SIMULATED_BOTS } from '../bots/options.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface ScaleOptions {
  /** Fleet sizes asked for, in the order given, without repeats. */
  bots: number[];
  instances: Array<1 | 2>;
  databases: DatabaseKind[];
  /** Measured seconds of each run (after the ramp and the warm-up). */
  seconds: number;
  /** Seconds over which the fleet connects; null: each run's own (defaultRampSeconds). */
  rampSeconds: number | null;
  /** The PostgreSQL server each run's database is created on (and dropped from). */
  databaseUrl: string;
}

/** Every database × instance count runs this fleet first: the figures' baseline. */
export const BASELINE_BOTS = 70;
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export const USAGE = `Usage: npm run bench:scale -- [options]

  --bots LIST          fleet sizes, comma-separated, each 1 to ${MAX_SIMULATED_BOTS} (default 70,1000,2000); a
                       ${BASELINE_BOTS}-bot run comes first for each database and instance count: the baseline
  --instances LIST     1, 2 or 1,2 (default 1,2); two instances run on PostgreSQL only, behind nginx
  --db LIST            sqlite, postgres or sqlite,postgres (default sqlite,postgres)
  --seconds S          measured seconds per run, after the ramp and a warm-up (default 60)
  --ramp-s S           seconds over which a run's bots connect (default: 1 per 100 bots, at least 1)
  --database-url URL   the PostgreSQL server each run's database is created on and dropped from
                       (default TEST_DATABASE_URL, else ${DEFAULT_DATABASE_URL})
  --help               this text`;

export class ScaleOptionsError extends Error {}

function list(raw: string): string[] {
  return raw.split(',').map((item) => item.trim());
}

function positiveNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new ScaleOptionsError(`${name} must be a number of seconds from ${min} to ${max} (got '${raw}')`);
  }
  return value;
}

/** Reads the options (argv without node and the script); null for --help. */
export function parseScaleOptions(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): ScaleOptions | null {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        bots: { type: 'string' },
        instances: { type: 'string' },
        db: { type: 'string' },
        seconds: { type: 'string' },
        'ramp-s': { type: 'string' },
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ScaleOptionsError((error as Error).message);
  }
  if (values.help) return null;
  const flag = (name: string) => values[name] as string | undefined;

  const rawBots = flag('bots') ?? '70,1000,2000';
  const bots = list(rawBots).map(Number);
  if (bots.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_SIMULATED_BOTS)) {
    throw new ScaleOptionsError(
      `--bots must be fleet sizes from 1 to ${MAX_SIMULATED_BOTS} separated by commas, such as 70,1000 (got '${rawBots}')`,
    );
  }

  const rawInstances = flag('instances') ?? '1,2';
  const instances = list(rawInstances);
  if (instances.some((n) => n !== '1' && n !== '2')) {
    throw new ScaleOptionsError(`--instances must be 1, 2 or 1,2 (got '${rawInstances}')`);
  }

  const rawDb = flag('db') ?? 'sqlite,postgres';
  const databases = list(rawDb);
  if (databases.some((d) => d !== 'sqlite' && d !== 'postgres')) {
    throw new ScaleOptionsError(`--db must be sqlite, postgres or sqlite,postgres (got '${rawDb}')`);
  }

  const databaseUrl = flag('database-url') ?? env.TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  if (!/^postgres(ql)?:\/\/\S+$/.test(databaseUrl)) {
    throw new ScaleOptionsError(
      `--database-url must be a postgres:// URL such as ${DEFAULT_DATABASE_URL} (got '${databaseUrl}')`,
    );
  }

  const rawRamp = flag('ramp-s');
  return {
    bots: [...new Set(bots)],
    instances: [...new Set(instances.map((n) => Number(n) as 1 | 2))],
    databases: [...new Set(databases as DatabaseKind[])],
    seconds: positiveNumber('--seconds', flag('seconds'), 60, 1, 3_600),
    rampSeconds: rawRamp === undefined ? null : positiveNumber('--ramp-s', rawRamp, 0, 0, 600),
    databaseUrl,
  };
}

/** One run: a fleet of `bots` against `instances` server processes on `database`. */
export interface RunPlan {
  database: DatabaseKind;
  instances: 1 | 2;
  bots: number;
  rampSeconds: number;
}

/** The ramp when none is given: a hundred bots a second, so a large fleet's hellos come as a slope. */
export function defaultRampSeconds(bots: number): number {
  return Math.max(1, Math.ceil(bots / 100));
}

/**
 * The runs, database by database and instance count by instance count, each group's 70-bot baseline
 * first; `skipped` says which combinations cannot run (two instances on SQLite: there is no shared
 * database). Throws when nothing is left.
 */
export function planRuns(options: ScaleOptions): { runs: RunPlan[]; skipped: string[] } {
  const runs: RunPlan[] = [];
  const skipped: string[] = [];
  const sizes = [BASELINE_BOTS, ...options.bots.filter((n) => n !== BASELINE_BOTS)];
  for (const database of options.databases) {
    for (const instances of options.instances) {
      if (database === 'sqlite' && instances === 2) {
        skipped.push(
          'sqlite × 2 instances: skipped, two instances share one database and SQLite is a file of one process; they run on PostgreSQL',
        );
        continue;
      }
      for (const bots of sizes) {
        runs.push({
          database,
          instances,
          bots,
          rampSeconds: options.rampSeconds ?? defaultRampSeconds(bots),
        });
      }
    }
  }
  if (runs.length === 0) {
    throw new ScaleOptionsError(
      'nothing to run: two instances need PostgreSQL (add --db postgres, or --instances 1 for SQLite)',
    );
  }
  return { runs, skipped };
}
