/*
 * Scale benchmark (`npm run bench:scale`, issue 39): N bots against one or two instances of the built
 * server, on SQLite or PostgreSQL, printing what an operator needs to size a deployment. E.g.
 *
 *   npm run bench:scale -- --bots 70,1000,2000 --instances 1,2 --db sqlite,postgres
 *
 * For each database and instance count it runs a 70-bot fleet first (the baseline), then each size
 * asked. One instance: the server on a fresh SQLite file or PostgreSQL database. Two instances
 * (PostgreSQL only): one fresh database, a Redis of the bench's own and nginx with the documented
 * configuration in front; the fleet connects through nginx and --bots counts bots across both.
 * The fleet is the bot simulator (bots/simulator.ts) in a process of its own; a run measures
 * --seconds after its --ramp-s and a warm-up (bench/scale-run.ts). Per run it prints bots connected,
 * hops/s offered and handled (acknowledged), each instance's CPU mean/max (% of one core, /proc
 * every second), peak RSS and event-loop lag p99 (/metrics), /healthz and dashboard stats p50/p99
 * (4 samples a second each), and hop → admin socket p99 (across instances with two); then a table
 * with each run's server CPU against its baseline's. It prints the machine's load at start and end,
 * and stops everything it started, also on Ctrl-C or an error. Options: `-- --help`.
 */
import { availableParallelism, freemem, loadavg, totalmem } from 'node:os';
import { missingForRuns } from './scale-deployment.ts';
import { type DatabaseKind, parseScaleOptions, planRuns, ScaleOptionsError, USAGE } from './scale-options.ts';
import { baselineOf, describeRun, type RunResult, resultTable, runLabel } from './scale-report.ts';
import { runOnce } from './scale-run.ts';
import { stopOnSignals, Teardown } from './scale-teardown.ts';

function machineLoad(when: string): string {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
  return (
    `machine load ${when}: load average ${one} ${five} ${fifteen} on ${availableParallelism()} cores, ` +
    `${gib(freemem())} of ${gib(totalmem())} GiB memory free`
  );
}

let plan: ReturnType<typeof planRuns>;
let seconds: number;
let databaseUrl: string;
try {
  const options = parseScaleOptions(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    process.exit(0);
  }
  plan = planRuns(options);
  ({ seconds, databaseUrl } = options);
} catch (error) {
  if (!(error instanceof ScaleOptionsError)) throw error;
  console.error(`bench:scale: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}

const missing = await missingForRuns(plan.runs, databaseUrl);
if (missing.length > 0) {
  for (const line of missing) console.error(`bench:scale: ${line}`);
  process.exit(2);
}

const results: RunResult[] = [];
function printTable(): void {
  if (results.length === 0) return;
  console.log(
    `\nPer run (CPU: % of one core per instance, A + B; lag: event-loop p99; hop→admin: across instances with two):`,
  );
  console.log(resultTable(results));
}

const teardown = new Teardown();
const signals = stopOnSignals(teardown, () => {
  printTable();
  console.log(`\n${machineLoad('at the end')}`);
});
console.log(machineLoad('at the start'));
if (loadavg()[0]! > availableParallelism()) {
  console.log(
    '  (more work waiting than there are cores: other processes take CPU from the runs, and the figures move)',
  );
}
for (const line of plan.skipped) console.log(line);
const uses = (database: DatabaseKind) => plan.runs.some((r) => r.database === database);
console.log(
  `${plan.runs.length} runs of ${seconds} s each (after the ramp and warm-up)` +
    (uses('postgres') ? `; PostgreSQL databases created on ${databaseUrl}` : ''),
);

/** Stopped by Ctrl-C: the signal's handler stops everything, prints and exits; nothing more here. */
const leaveItToTheSignal = () => new Promise<never>(() => {});

let failed = false;
try {
  for (const run of plan.runs) {
    if (signals.received()) await leaveItToTheSignal();
    console.log(`\n${runLabel(run)}:`);
    const log = (line: string) => console.log(`  ${line}`);
    try {
      const result = await runOnce(run, seconds, databaseUrl, teardown, log);
      results.push(result);
      for (const line of describeRun(result, baselineOf(result, results))) log(line);
    } finally {
      await teardown.runAll();
    }
  }
} catch (error) {
  if (signals.received()) await leaveItToTheSignal();
  failed = true;
  console.error(`\nbench:scale stopped: ${(error as Error).stack ?? error}`);
} finally {
  await teardown.runAll();
}

printTable();
console.log(`\n${machineLoad('at the end')}`);
process.exit(failed ? 1 : 0);
