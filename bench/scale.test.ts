import { describe, expect, it } from 'vitest';
import { refusedUpgrades } from './scale-deployment.ts';
import { HopTimer } from './scale-hop-timer.ts';
import {
  DEFAULT_DATABASE_URL,
  parseScaleOptions,
  planRuns,
  type RunPlan,
  ScaleOptionsError,
} from './scale-options.ts';
import { formatMs, type RunResult, ratio, resultTable } from './scale-report.ts';
import {
  listenOverflowsFromNetstat,
  loopLagP99FromMetrics,
  parseProcStat,
  percentile,
  summarizeUsage,
} from './scale-stats.ts';

/* bench:scale's options, plan and arithmetic; the bench itself is run by hand (docs/development.md). */

const parse = (args: string, env: Record<string, string> = {}) =>
  parseScaleOptions(args === '' ? [] : args.split(' '), env);

describe('bench:scale options', () => {
  it('defaults to the issue’s sizes on both databases, one and two instances', () => {
    expect(parse('')).toEqual({
      bots: [70, 1000, 2000],
      instances: [1, 2],
      databases: ['sqlite', 'postgres'],
      seconds: 60,
      rampSeconds: null,
      databaseUrl: DEFAULT_DATABASE_URL,
    });
    expect(parse('', { TEST_DATABASE_URL: 'postgres://u@db:5432/test' })?.databaseUrl).toBe(
      'postgres://u@db:5432/test',
    );
    expect(parse('--help')).toBeNull();
  });

  it('reads lists without repeats, and the seconds', () => {
    expect(
      parse(
        '--bots 1000,70,1000 --instances 2 --db postgres --seconds 10 --ramp-s 0 --database-url postgres://x',
      ),
    ).toMatchObject({
      bots: [1000, 70],
      instances: [2],
      databases: ['postgres'],
      seconds: 10,
      rampSeconds: 0,
      databaseUrl: 'postgres://x',
    });
  });

  it.each([
    ['--bots 0', "--bots must be fleet sizes from 1 to 10000 separated by commas, such as 70,1000 (got '0')"],
    [
      '--bots 70,,1000',
      "--bots must be fleet sizes from 1 to 10000 separated by commas, such as 70,1000 (got '70,,1000')",
    ],
    [
      '--bots 10001',
      "--bots must be fleet sizes from 1 to 10000 separated by commas, such as 70,1000 (got '10001')",
    ],
    [
      '--bots 1.5',
      "--bots must be fleet sizes from 1 to 10000 separated by commas, such as 70,1000 (got '1.5')",
    ],
    ['--instances 3', "--instances must be 1, 2 or 1,2 (got '3')"],
    ['--db mysql', "--db must be sqlite, postgres or sqlite,postgres (got 'mysql')"],
    ['--seconds 0', "--seconds must be a number of seconds from 1 to 3600 (got '0')"],
    ['--seconds soon', "--seconds must be a number of seconds from 1 to 3600 (got 'soon')"],
    ['--ramp-s 601', "--ramp-s must be a number of seconds from 0 to 600 (got '601')"],
    [
      '--database-url mysql://x',
      "--database-url must be a postgres:// URL such as postgres://postgres@127.0.0.1:5432/postgres (got 'mysql://x')",
    ],
    ['--frob', "Unknown option '--frob'"],
  ])('refuses %s, saying what it takes', (args, message) => {
    expect(() => parse(args)).toThrow(new ScaleOptionsError(message));
  });
});

describe('bench:scale plan', () => {
  it('runs the 70-bot baseline first in each group, and skips SQLite with two instances, saying so', () => {
    const { runs, skipped } = planRuns(parse('--bots 2000,1000')!);
    const label = (r: RunPlan) => `${r.database}×${r.instances}:${r.bots}/${r.rampSeconds}s`;
    expect(runs.map(label)).toEqual([
      'sqlite×1:70/1s',
      'sqlite×1:2000/20s',
      'sqlite×1:1000/10s',
      'postgres×1:70/1s',
      'postgres×1:2000/20s',
      'postgres×1:1000/10s',
      'postgres×2:70/1s',
      'postgres×2:2000/20s',
      'postgres×2:1000/10s',
    ]);
    expect(skipped).toEqual([expect.stringMatching(/^sqlite × 2 instances: skipped, .*PostgreSQL/)]);
    expect(planRuns(parse('--bots 500 --ramp-s 3 --db sqlite --instances 1')!).runs).toEqual([
      { database: 'sqlite', instances: 1, bots: 70, rampSeconds: 3 },
      { database: 'sqlite', instances: 1, bots: 500, rampSeconds: 3 },
    ]);
  });

  it('refuses a plan with nothing left to run', () => {
    expect(() => planRuns(parse('--db sqlite --instances 2')!)).toThrow(
      /nothing to run: two instances need PostgreSQL/,
    );
  });
});

describe('bench:scale arithmetic', () => {
  it('takes percentiles by nearest rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('reads CPU ticks and RSS from /proc/<pid>/stat, a command with spaces and parentheses too', () => {
    const line =
      '4242 (node (main) x) S 1 4242 4242 0 -1 4194304 5000 0 0 0 150 50 0 0 20 0 11 0 1000 1234567 2560 18446744073709551615';
    expect(parseProcStat(line)).toEqual({ ticks: 200, rssPages: 2560 });
    expect(() => parseProcStat('garbage')).toThrow(/not a \/proc stat line/);
  });

  it('turns readings a second apart into CPU mean and max of one core, and peak RSS', () => {
    const usage = summarizeUsage(
      [
        { at: 0, ticks: 0, rssBytes: 100 },
        { at: 1000, ticks: 20, rssBytes: 300 },
        { at: 2000, ticks: 80, rssBytes: 200 },
        { at: 4000, ticks: 100, rssBytes: 250 },
      ],
      100,
    );
    expect(usage).toEqual({ cpuMeanPercent: 25, cpuMaxPercent: 60, rssMaxBytes: 300 });
    expect(summarizeUsage([], 100).cpuMeanPercent).toBeNaN();
  });

  it("reads the event loop's p99 from /metrics, less prom-client's 10 ms sampling period", () => {
    const text = '# HELP x\nnodejs_eventloop_lag_p90_seconds 0.5\nnodejs_eventloop_lag_p99_seconds 0.0375\n';
    expect(loopLagP99FromMetrics(text)).toBeCloseTo(27.5);
    expect(loopLagP99FromMetrics('nodejs_eventloop_lag_p99_seconds 0.009')).toBe(0);
    expect(loopLagP99FromMetrics('up 1')).toBeNull();
  });

  it("reads the machine's listen-queue overflows from /proc/net/netstat", () => {
    const text =
      'TcpExt: SyncookiesSent PruneCalled ListenOverflows ListenDrops\nTcpExt: 0 36 37966 37966\n' +
      'IpExt: InNoRoutes ListenOverflows\nIpExt: 0 5\n';
    expect(listenOverflowsFromNetstat(text)).toBe(37966);
    expect(listenOverflowsFromNetstat('IpExt: a\nIpExt: 1\n')).toBeNull();
  });

  it("counts the bot socket upgrades nginx's access log shows refused, by status", () => {
    const line = (path: string, status: number) =>
      `127.0.0.1 - - [29/Nov/2026:01:20:00 +0000] "GET ${path} HTTP/1.1" ${status} 0 "-" "-"\n`;
    const log =
      line('/ws?ghostId=ghost-0001', 502) +
      line('/ws?ghostId=ghost-0002', 504) +
      line('/ws?ghostId=ghost-0003', 502) +
      line('/ws?ghostId=ghost-0004', 101) +
      line('/api/server-pool/claim', 502);
    expect(refusedUpgrades(log)).toEqual({ '502': 2, '504': 1 });
  });

  it('joins a hop sent with its arrival on the admin socket, whichever is told first, inside the window only', () => {
    const timer = new HopTimer();
    timer.measure(1_000, 2_000);
    timer.onSent('ghost-1', 'job-a', 1_100, 'A');
    timer.onArrived('ghost-1', 'job-a', 1_112.5);
    timer.onArrived('ghost-2', 'job-b', 1_530); // the fleet's batch comes after the arrival
    timer.onSent('ghost-2', 'job-b', 1_500, 'B');
    timer.onSent('ghost-3', 'job-c', 900, 'A'); // before the window
    timer.onArrived('ghost-3', 'job-c', 1_005);
    timer.onSent('ghost-4', 'job-d', 1_900, 'A'); // never arrives
    expect(timer.samples).toEqual([
      { ms: 12.5, instance: 'A' },
      { ms: 30, instance: 'B' },
    ]);
    expect(timer.sentInWindow).toBe(3);
  });
});

describe('bench:scale report', () => {
  const result = (bots: number, cpu: number[], database: 'sqlite' | 'postgres' = 'sqlite'): RunResult => ({
    plan: { database, instances: cpu.length as 1 | 2, bots, rampSeconds: 1 },
    seconds: 60,
    connected: bots,
    connectedMin: bots,
    hopsOfferedPerSecond: bots / 5,
    hopsHandledPerSecond: bots / 5,
    claims: { poolEmpty: 0, refused: 0, failed: 0 },
    errors: 0,
    lastError: null,
    instances: cpu.map((c, i) => ({
      name: 'AB'[i]!,
      cpuMeanPercent: c,
      cpuMaxPercent: c * 2,
      rssMaxBytes: 200 * 1024 * 1024,
      loopLagP99Ms: 12.34,
    })),
    fleetCpuMeanPercent: 10,
    healthz: { ms: [1, 2, 3, 40], timedOut: 0, failed: 0 },
    stats: { ms: [5, 6, 7, 80], timedOut: 0, failed: 0 },
    hopToAdminOther: cpu.length === 2 ? [3, 4, 90] : [],
    hopToAdminSame: [2, 3, 50],
    hopsSentInWindow: 6,
    connectionShortages: 0,
    refusedUpgrades: {},
    listenOverflows: 0,
  });

  it('formats milliseconds and ratios', () => {
    expect(formatMs(3.14)).toBe('3.1');
    expect(formatMs(123.6)).toBe('124');
    expect(formatMs(Number.NaN)).toBe('–');
    expect(ratio(30, 12)).toBe('2.50×');
    expect(ratio(30, 0)).toBe('–');
  });

  it("puts each run's total server CPU against the 70-bot run on the same database and instances", () => {
    const table = resultTable([
      result(70, [10]),
      result(1000, [45]),
      result(70, [6, 6], 'postgres'),
      result(1000, [30, 24], 'postgres'),
      result(500, [20], 'postgres'), // no postgres ×1 baseline ran
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^run\s+bots conn\.\s+hops\/s offered\/handled .* CPU vs 70 bots$/);
    expect(lines[1]).toMatch(
      /^sqlite ×1 70 bots .* 10\/20 .* 200 .* 12 .* 2\.0\/40 .* 6\.0\/80 .* 50 .* 1\.00×$/,
    );
    expect(lines[2]).toMatch(/^sqlite ×1 1000 bots .* 45\/90 .* 4\.50×$/);
    expect(lines[3]).toMatch(/^postgres ×2 70 bots .* 6\/12 \+ 6\/12 .* 200 \+ 200 .* 90 .* 1\.00×$/);
    expect(lines[4]).toMatch(/^postgres ×2 1000 bots .* 30\/60 \+ 24\/48 .* 4\.50×$/);
    expect(lines[5]).toMatch(/^postgres ×1 500 bots .* –$/);
  });
});
