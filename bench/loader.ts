/*
 * Loader benchmark (`npm run bench:loader`): premium loader calls (valid key, bound device, 20 KiB
 * script) against a baseline route of the same server that answers the same 20 KiB from memory
 * with no checks, measured in one run with autocannon over loopback, in alternating rounds. The
 * loader is measured twice more, on a server with metrics (the default) and one with
 * METRICS_ENABLED=false (no metric recorded at all), both fresh, alternating, so the cost of the
 * metrics is a ratio from the same run.
 *
 * The server runs in a child process (bench/loader-server.ts) on a temporary SQLite file, with
 * rate limits too high to refuse anything (their counting still runs on every call). It is seeded
 * through the real API: admin login, a PREMIUM script, a redemption code redeemed for a bound key.
 * When a call it needs is missing or refuses, the benchmark says which and measures the baseline only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_SCRIPT_BYTES, BENCH_SCRIPT_FILE, benchScriptContent } from './premium-script.ts';
import { profileArgs } from './realtime-clients.ts';

const CONNECTIONS = 100;
const WARM_UP_SECONDS = 3;
const MEASURE_SECONDS = 15;
/** Alternating rounds the measured seconds are split into (see main). */
const ROUNDS = 5;
/**
 * The goal: the loader keeps at least 0.8 of the baseline's throughput (it did before the last
 * capabilities landed, and again since issue 39), with p99 under 20 ms.
 */
const GOAL_THROUGHPUT_RATIO = 0.8;
const GOAL_P99_MS = 20;
/** The metrics may cost at most 5% of the loader's throughput (issue 22). */
const GOAL_METRICS_RATIO = 0.95;
/** Rounds of with/without measurements, alternating, so drift in the machine's load hits both alike. */
const METRICS_ROUNDS = 4;
const BENCH_HWID = 'bench-device-0001';
/** High enough that no limit refuses a benchmark request. */
const UNLIMITED = '1000000000';

interface BenchServer {
  url: string;
  /** The server process's CPU time so far (user + system, ms), from /proc: what a call costs it. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Starts bench/loader-server.ts in its own Node process and waits until it listens. */
async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...profileArgs(), '--import', 'tsx', 'bench/loader-server.ts'],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the bench server did not start within 60 s')), 60_000);
      child.once('message', (message: { port: number }) => {
        clearTimeout(timer);
        resolve(message.port);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the bench server exited with ${code} before listening`));
      });
    });
    // Fields 14 and 15 of /proc/PID/stat (after the command's closing parenthesis): clock ticks of 10 ms.
    const cpuMs = () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) * 10;
    };
    return { url: `http://127.0.0.1:${port}`, cpuMs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A seeding call that did not answer as the benchmark needs: names the call and what came back. */
class SeedingError extends Error {}

async function call(
  server: BenchServer,
  method: string,
  path: string,
  body: unknown,
  cookie = '',
): Promise<{ status: number; headers: Headers; json: () => Record<string, unknown> }> {
  const res = await fetch(server.url + path, {
    method,
    // The app's own Origin, as its pages send: admin changes from anywhere else are refused (CSRF).
    headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status === 404 && text.includes('Not found')) {
    throw new SeedingError(`${method} ${path} does not exist yet (404)`);
  }
  if (res.status >= 300)
    throw new SeedingError(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return {
    status: res.status,
    headers: res.headers,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

/**
 * Seeds a PREMIUM script and a key bound to BENCH_HWID through the admin and script-user API, and
 * checks the loader serves the script for them; returns the loader path to measure.
 */
async function seedPremiumLoader(server: BenchServer, adminSecret: string): Promise<string> {
  const login = await call(server, 'POST', '/api/admin/login', { adminSecret });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!cookie) throw new SeedingError('POST /api/admin/login set no session cookie');

  const content = benchScriptContent();
  await call(server, 'POST', '/api/admin/scripts/save', { filename: BENCH_SCRIPT_FILE, content }, cookie);
  await call(
    server,
    'PUT',
    `/api/admin/scripts/${BENCH_SCRIPT_FILE}/access-type`,
    { accessType: 'PREMIUM' },
    cookie,
  );
  const created = await call(
    server,
    'POST',
    '/api/admin/create-redemption-key',
    { keyType: 'PREMIUM', maxHardwareBindings: 1, validityDuration: 24 },
    cookie,
  );
  const code = (created.json().redemptionKey as { redemptionCode?: string } | undefined)?.redemptionCode;
  if (!code)
    throw new SeedingError(
      'POST /api/admin/create-redemption-key answered without redemptionKey.redemptionCode',
    );
  const redeemed = await call(server, 'POST', '/api/script/redeem', { code, hwid: BENCH_HWID });
  const scriptKey = redeemed.json().scriptKey;
  if (typeof scriptKey !== 'string')
    throw new SeedingError('POST /api/script/redeem answered without scriptKey');

  const path = `/api/script/loader?script=${BENCH_SCRIPT_FILE}&key=${encodeURIComponent(scriptKey)}&hwid=${BENCH_HWID}`;
  const res = await fetch(server.url + path);
  // The loader puts one `local SCANLINE = {…}` line before every script it serves.
  const served = (await res.text()).replace(/^local SCANLINE = \{[^\n]*\}\n/, '');
  if (res.status !== 200 || served !== content) {
    throw new SeedingError(
      `the loader did not serve the premium script for the redeemed key (status ${res.status}, ` +
        `${Buffer.byteLength(served)} bytes: ${served.slice(0, 200)})`,
    );
  }
  return path;
}

interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server's CPU time per call, µs (NaN when not measured). */
  cpuUs: number;
}

async function measure(
  name: string,
  url: string,
  seconds: number,
  server?: BenchServer,
): Promise<Measurement> {
  const cpuBefore = server?.cpuMs() ?? Number.NaN;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  const cpuUs = (((server?.cpuMs() ?? Number.NaN) - cpuBefore) * 1000) / result.requests.total;
  return {
    cpuUs,
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function printTable(rows: Measurement[]): void {
  console.log(
    `\n${'route'.padEnd(10)}${'requests/s'.padStart(12)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}` +
      `${'non-2xx'.padStart(10)}${'errors'.padStart(9)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(10)}${r.requestsPerSecond.toFixed(0).padStart(12)}${r.p50.toFixed(1).padStart(9)}` +
        `${r.p99.toFixed(1).padStart(9)}${String(r.non2xx).padStart(10)}${String(r.errors).padStart(9)}`,
    );
  }
}

/** The bench server's environment: its own database file, metrics on or off. */
function serverEnv(dir: string, name: string, adminSecret: string, metrics: boolean): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, `${name}.db`),
    BOT_TOKEN_FILE: join(dir, `${name}-bot-token`),
    ADMIN_SECRET: adminSecret,
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    METRICS_ENABLED: String(metrics),
    RATE_LIMIT_LOGIN: UNLIMITED,
    RATE_LIMIT_REDEEM: UNLIMITED,
    RATE_LIMIT_CHALLENGE: UNLIMITED,
    RATE_LIMIT_LOADER: UNLIMITED,
  };
}

function mean(rows: Measurement[], name: string): Measurement {
  const of = rows.filter((r) => r.name === name);
  const avg = (pick: (r: Measurement) => number) => of.reduce((sum, r) => sum + pick(r), 0) / of.length;
  const sum = (pick: (r: Measurement) => number) => of.reduce((total, r) => total + pick(r), 0);
  return {
    name,
    requestsPerSecond: avg((r) => r.requestsPerSecond),
    p50: avg((r) => r.p50),
    p99: avg((r) => r.p99),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    cpuUs: avg((r) => r.cpuUs),
  };
}

/**
 * The loader on a server with metrics and on one without (METRICS_ENABLED=false), alternating for
 * METRICS_ROUNDS rounds; prints both figures (means of the rounds) and their ratio.
 */
async function measureMetricsCost(withMetrics: string, withoutMetrics: string): Promise<void> {
  const rows: Measurement[] = [];
  for (let round = 1; round <= METRICS_ROUNDS; round++) {
    const pair = [
      ['with', withMetrics],
      ['without', withoutMetrics],
    ] as const;
    // Each goes first in every other round, so whatever drifts during a round hits both alike.
    for (const [name, url] of round % 2 === 1 ? pair : [...pair].reverse()) {
      console.log(`measuring the loader ${name} metrics (round ${round}/${METRICS_ROUNDS}) …`);
      rows.push(await measure(name, url, MEASURE_SECONDS));
    }
  }
  const [on, off] = [mean(rows, 'with'), mean(rows, 'without')];
  printTable([on, off]);
  const ratio = on.requestsPerSecond / off.requestsPerSecond;
  console.log(`\nloader with/without metrics throughput: ${ratio.toFixed(3)}`);
  console.log(
    `goal (metrics cost at most ${Math.round((1 - GOAL_METRICS_RATIO) * 100)}%: ratio >= ${GOAL_METRICS_RATIO}): ` +
      `${ratio >= GOAL_METRICS_RATIO && on.non2xx + off.non2xx === 0 ? 'met' : 'NOT met'}`,
  );
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-bench-'));
  const adminSecret = randomBytes(18).toString('base64url');
  let server: BenchServer | undefined;
  let bare: BenchServer | undefined;
  const stopOnSignal = () => {
    void Promise.all([server?.stop(), bare?.stop()]).finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    server = await startServer(serverEnv(dir, 'metrics', adminSecret, true));
    console.log(
      `Loader benchmark: ${BENCH_SCRIPT_BYTES / 1024} KiB script, ${CONNECTIONS} connections, ` +
        `${WARM_UP_SECONDS} s warm-up and ${MEASURE_SECONDS} s measured per route in ${ROUNDS} rounds, server at ${server.url}`,
    );

    let loaderPath: string | undefined;
    let missing: string | undefined;
    try {
      loaderPath = await seedPremiumLoader(server, adminSecret);
    } catch (error) {
      if (!(error instanceof SeedingError)) throw error;
      missing = error.message;
    }

    const targets = [
      { name: 'baseline', url: `${server.url}/bench/baseline` },
      ...(loaderPath ? [{ name: 'loader', url: server.url + loaderPath }] : []),
    ];
    for (const target of targets) {
      console.log(`warming up ${target.name} …`);
      await measure(target.name, target.url, WARM_UP_SECONDS);
    }
    // In alternating rounds, each going first every other round: on a shared machine the load drifts
    // within seconds, and both routes must meet the same drift for their ratio to mean anything.
    const rounds: Measurement[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`measuring ${targets.map((t) => t.name).join(' and ')} (round ${round}/${ROUNDS}) …`);
      for (const target of round % 2 === 1 ? targets : [...targets].reverse())
        rounds.push(await measure(target.name, target.url, MEASURE_SECONDS / ROUNDS, server));
    }
    const results = targets.map((target) => mean(rounds, target.name));
    printTable(results);

    const [baseline, loader] = results;
    if (!baseline || !loader) {
      console.log(`\nLoader not measured: ${missing ?? 'no loader path'}.`);
      return 1;
    }
    const ratio = loader.requestsPerSecond / baseline.requestsPerSecond;
    const met = ratio >= GOAL_THROUGHPUT_RATIO && loader.p99 < GOAL_P99_MS && loader.non2xx === 0;
    console.log(`\nloader/baseline throughput: ${ratio.toFixed(2)}`);
    // What each call costs the server, whatever else the machine runs: the throughput the loader would
    // keep of the baseline's on a server with the CPU to itself.
    console.log(
      `server CPU per call: baseline ${baseline.cpuUs.toFixed(0)} µs, loader ${loader.cpuUs.toFixed(0)} µs ` +
        `(baseline/loader ${(baseline.cpuUs / loader.cpuUs).toFixed(2)})`,
    );
    console.log(
      `goal (>= ${GOAL_THROUGHPUT_RATIO} of baseline, p99 < ${GOAL_P99_MS} ms, no failed calls): ` +
        `${met ? 'met' : 'NOT met'}`,
    );

    // The metrics' cost: two fresh servers alike but for metrics (the first one's database has grown
    // by every call measured above), seeded and warmed up the same way.
    await server.stop();
    server = await startServer(serverEnv(dir, 'with-metrics', adminSecret, true));
    bare = await startServer(serverEnv(dir, 'bare', adminSecret, false));
    const withPath = await seedPremiumLoader(server, adminSecret);
    const barePath = await seedPremiumLoader(bare, adminSecret);
    console.log('\nwarming up the loader with and without metrics …');
    await measure('with', server.url + withPath, WARM_UP_SECONDS);
    await measure('without', bare.url + barePath, WARM_UP_SECONDS);
    await measureMetricsCost(server.url + withPath, bare.url + barePath);
    return 0;
  } finally {
    await Promise.all([server?.stop(), bare?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
