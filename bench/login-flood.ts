/*
 * Login flood benchmark (`npm run bench:login`), over loopback: the real server (server/main.ts in
 * its own process, a temporary SQLite file, no ADMIN_SECRET, so it generates and prints one as on a
 * first start) while 2,000 loopback addresses (127.0.1.1 …, in a worker thread) send wrong admin
 * secrets, each on one kept-alive connection, the next as soon as the last is answered (or --pace
 * ms later). Meanwhile the admin signs in with the printed secret every half second, each time from
 * its own address: first from browsers that show the login form (their connection opened by a page
 * load before the flood), then on new connections. Prints each run's answers, p50, max and every
 * time, beside the same sign-ins with no flood (the baseline), and the flood's answers.
 * The goal: every sign-in from an open login form 200 within 2 s. (A new connection to a Node
 * process that a flood keeps saturated can wait in libuv for seconds before it is read: a limit of
 * the HTTP layer, for a proxy's per-address connection limits, not of the login.)
 * Options: --addresses N (default 2000), --tries N (default 15), --interval MS (default 500),
 * --pace MS (default 0). BENCH_PROF=dir writes the server's CPU profile there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { login, openPage } from './login-client.ts';
import { Histogram, sleep } from './realtime-clients.ts';

const { values: args } = parseArgs({
  options: {
    addresses: { type: 'string' },
    tries: { type: 'string' },
    interval: { type: 'string' },
    pace: { type: 'string' },
  },
});
const ADDRESSES = Number(args.addresses ?? 2000);
const TRIES = Number(args.tries ?? 15);
const INTERVAL_MS = Number(args.interval ?? 500);
const PACE_MS = Number(args.pace ?? 0);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts server/main.ts as an operator would on a first start; resolves with the secret it prints. */
async function startServer(port: number, dir: string): Promise<{ child: ChildProcess; secret: string }> {
  const { ADMIN_SECRET: _unset, ...env } = process.env;
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
      '--import',
      'tsx',
      'server/main.ts',
    ],
    {
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'scanline.db'),
        BOT_TOKEN_FILE: join(dir, 'bot-token'),
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const secret = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /Admin secret: (\S+)/.exec(out);
      if (found?.[1] && out.includes('Sign in at')) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
  return { child, secret };
}

/** The admin's n-th address: 127.0.250.1 and up, far from the flood's. */
const adminAddress = (n: number) => `127.0.${250 + Math.floor(n / 250)}.${1 + (n % 250)}`;

/**
 * The admin's browsers, one per address from `firstAddress` on, each showing the login form: its
 * connection opened by a page load (kept alive, as a browser keeps it) before any flood begins.
 */
async function openBrowsers(
  port: number,
  firstAddress: number,
): Promise<{ address: string; agent: Agent }[]> {
  return Promise.all(
    Array.from({ length: TRIES }, async (_, i) => {
      const browser = {
        address: adminAddress(firstAddress + i),
        agent: new Agent({ keepAlive: true, maxSockets: 1 }),
      };
      await openPage(port, browser.address, browser.agent);
      return browser;
    }),
  );
}

/** One sign-in every INTERVAL_MS, each from its own address; `browsers` send on their open connection, else a new one. */
async function adminTries(
  port: number,
  secret: string,
  tries: { address: string; agent: Agent | false }[],
): Promise<{ times: Histogram; statuses: number[]; each: number[] }> {
  const times = new Histogram();
  const statuses: number[] = [];
  const each: number[] = [];
  for (const { address, agent } of tries) {
    const { status, ms } = await login(port, address, secret, agent);
    statuses.push(status);
    times.record(ms);
    each.push(Math.round(ms));
    if (agent) agent.destroy();
    await sleep(INTERVAL_MS);
  }
  return { times, statuses, each };
}

const fresh = (firstAddress: number) =>
  Array.from({ length: TRIES }, (_, i) => ({
    address: adminAddress(firstAddress + i),
    agent: false as const,
  }));

/** Starts the flood in a worker thread (bench/login-flooders.ts); `stop` resolves with its answers' statuses. */
async function startFlood(port: number): Promise<{ stop(): Promise<Map<number, number>> }> {
  // Node 20 cannot start a worker from a .ts file: a small script registers tsx in the worker first.
  const entry = new URL('./login-flooders.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: { port, addresses: ADDRESSES, paceMs: PACE_MS } },
  );
  await new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', resolve);
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once('message', (message: { statuses: [number, number][] }) => {
          resolve(new Map(message.statuses));
          void worker.terminate();
        });
        worker.postMessage('stop');
      }),
  };
}

const counts = (codes: number[] | Map<number, number>) => {
  const tally = Array.isArray(codes)
    ? codes.reduce((c, s) => c.set(s, (c.get(s) ?? 0) + 1), new Map<number, number>())
    : codes;
  return [...tally].map(([status, n]) => `${n} × ${status}`).join(', ');
};

function report(name: string, run: { times: Histogram; statuses: number[]; each: number[] }): void {
  console.log(
    `${name.padEnd(26)} ${counts(run.statuses).padEnd(12)} p50 ${run.times.percentile(0.5).toFixed(0).padStart(5)} ms  max ${run.times.percentile(1).toFixed(0).padStart(5)} ms  (${run.each.join(' ')})`,
  );
}

const total = (statuses: Map<number, number>) => [...statuses.values()].reduce((a, b) => a + b, 0);

const dir = mkdtempSync(join(tmpdir(), 'scanline-bench-login-'));
const port = await freePort();
const { child, secret } = await startServer(port, dir);
try {
  const baseline = await adminTries(port, secret, await openBrowsers(port, 0));
  const browsers = await openBrowsers(port, TRIES);
  const started = performance.now();
  const flood = await startFlood(port);
  const during = await adminTries(port, secret, browsers);
  const duringFresh = await adminTries(port, secret, fresh(2 * TRIES));
  const floodCodes = await flood.stop();
  const seconds = (performance.now() - started) / 1000;
  console.log(`admin sign-ins (${TRIES} each, one every ${INTERVAL_MS} ms, each from its own address):`);
  report('  no flood (baseline)', baseline);
  report(`  ${ADDRESSES}-address flood`, during);
  report('  same, on new connections', duringFresh);
  console.log(
    `flood: ${total(floodCodes)} wrong logins in ${seconds.toFixed(1)} s (${(total(floodCodes) / seconds).toFixed(0)}/s): ${counts(floodCodes)}`,
  );
  const ok = during.statuses.every((s) => s === 200) && during.times.percentile(1) < 2000;
  console.log(
    ok ? 'goal met: every sign-in 200 within 2 s' : 'GOAL MISSED: a sign-in was refused or took 2 s or more',
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
