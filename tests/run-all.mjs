#!/usr/bin/env node
// `npm test`: every test, in tiers that do not fight over the machine's cores, each printing its time
// against a budget, ending with the plain line "N passed, N failed" that CI reads. Exits non-zero
// on any failure. `npm test -- <vitest arguments>` runs the static checks, then just those.
//   1. static checks: typecheck, lint, build (the browser tests drive the built server)
//   2. fast: unit, web and API tests on SQLite, in parallel
//   3. postgres: the API tests' PostgreSQL half (when TEST_DATABASE_URL is set)
//   4. the serial projects one after another: e2e, reliability, client, operations
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const bin = (name) => `./node_modules/.bin/${name}`;
const minutes = (ms) =>
  `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;

/** Runs a command with a hard stop at twice its budget, so one hung tier cannot hold CI for ever. */
function run(cmd, args, { env = process.env, budgetMs }) {
  const result = spawnSync(cmd, args, {
    stdio: 'inherit',
    env,
    timeout: budgetMs * 2,
    killSignal: 'SIGKILL',
  });
  if (result.error?.code === 'ETIMEDOUT')
    console.log(`\n${cmd} ${args[0] ?? ''} stopped after ${minutes(budgetMs * 2)}`);
  return result.status ?? 1;
}

/** Runs Vitest with the JSON reporter and returns its counts. */
function vitest(name, args, { env = process.env, budgetMs }) {
  const results = `.vitest-results-${name}.json`;
  rmSync(results, { force: true });
  const status = run(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...args],
    { env, budgetMs },
  );
  if (!existsSync(results)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(results, 'utf8'));
  rmSync(results, { force: true });
  const failures = failuresOf(report);
  const failed = failures.length;
  return { passed: report.numPassedTests, failed: failed > 0 || status === 0 ? failed : 1, failures };
}

/** Each failed test, and each file that failed outside a test, as "file > name: first line of the error". */
function failuresOf(report) {
  const firstLine = (text = '') =>
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  return report.testResults.flatMap((file) => {
    const path = file.name.replace(`${process.cwd()}/`, '');
    const tests = file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${path} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (tests.length === 0 && file.status === 'failed') return [`${path}: ${firstLine(file.message)}`];
    return tests;
  });
}

/** API test files with a PostgreSQL half: they loop over DIALECTS or ask for PostgreSQL by name. */
function postgresTestFiles(dir = 'server') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return postgresTestFiles(path);
    if (!entry.name.endsWith('.test.ts')) return [];
    return /\bDIALECTS\b|'postgres'|TEST_DATABASE_URL/.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

const MINUTE = 60_000;
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;
const extraArgs = process.argv.slice(2);

const tiers = [
  {
    name: 'static checks',
    budgetMs: 4 * MINUTE,
    run: (budgetMs) => {
      for (const [cmd, args] of [
        [bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
        [bin('biome'), ['check', '.']],
        ['npm', ['run', '--silent', 'build']],
      ]) {
        if (run(cmd, args, { budgetMs }) !== 0) return { passed: 0, failed: 1 };
      }
      return { passed: 0, failed: 0 };
    },
  },
  ...(extraArgs.length > 0
    ? [
        {
          name: 'selected',
          budgetMs: 30 * MINUTE,
          run: (budgetMs) => vitest('selected', extraArgs, { budgetMs }),
        },
      ]
    : [
        {
          name: 'unit, web, API on SQLite',
          budgetMs: 6 * MINUTE,
          run: (budgetMs) =>
            vitest(
              'fast',
              [
                ...['--project', 'unit', '--project', 'web', '--project', 'api', '--project', 'api-isolated'],
                // Vitest's default on two cores is one worker; the API tests wait on I/O half the time.
                ...['--maxWorkers', process.env.TEST_FAST_WORKERS ?? '2'],
              ],
              { env: withoutPostgres, budgetMs },
            ),
        },
        ...(TEST_DATABASE_URL
          ? [
              {
                name: 'API on PostgreSQL',
                budgetMs: 4 * MINUTE,
                // Every PostgreSQL test is named `postgres: …` (the DIALECTS loops name them so).
                run: (budgetMs) =>
                  vitest(
                    'postgres',
                    [
                      '--project',
                      'api',
                      '--project',
                      'api-isolated',
                      '--maxWorkers',
                      process.env.TEST_POSTGRES_WORKERS ?? '3',
                      '--testNamePattern',
                      '^postgres',
                      ...postgresTestFiles(),
                    ],
                    { env: { ...process.env, TEST_DIALECTS: 'postgres' }, budgetMs },
                  ),
              },
            ]
          : []),
        ...[
          // Browser files wait on their pages more than they use the cores: two at a time took 8m41s
          // where one at a time took 10m48s on two cores, every test passing both ways.
          ['e2e', 10, ['--fileParallelism', '--maxWorkers', process.env.TEST_E2E_WORKERS ?? '2']],
          ['reliability', 4],
          ['client', 2],
          ['operations', 3],
        ].map(([project, budget, args = []]) => ({
          name: project,
          budgetMs: budget * MINUTE,
          run: (budgetMs) => vitest(project, ['--project', project, ...args], { budgetMs }),
        })),
      ]),
];

const totals = { passed: 0, failed: 0 };
/** Named at the end, where a CI log's tail shows them. */
const failedTests = [];
const lines = [];
for (const tier of tiers) {
  const started = Date.now();
  console.log(`\n=== ${tier.name} (budget ${minutes(tier.budgetMs)}) ===`);
  const { passed, failed, failures = [] } = tier.run(tier.budgetMs);
  const took = Date.now() - started;
  totals.passed += passed;
  totals.failed += failed;
  failedTests.push(...failures.map((failure) => `${tier.name}: ${failure}`.slice(0, 400)));
  const over = took > tier.budgetMs ? '  OVER BUDGET' : '';
  lines.push(
    `${tier.name.padEnd(26)} ${minutes(took).padStart(7)} of ${minutes(tier.budgetMs)}  ${passed} passed, ${failed} failed${over}`,
  );
  // A broken build or type error makes every later tier meaningless.
  if (tier.name === 'static checks' && failed > 0) break;
}
if (failedTests.length > 0) console.log(`\nFailed:\n${failedTests.join('\n')}`);
console.log(`\nTiers:\n${lines.join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
