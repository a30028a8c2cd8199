/*
 * Realtime benchmark (`npm run bench:realtime`, part of `npm run bench`), over loopback, in one run:
 *
 * (a) fan-out: 70 bots sending 20 messages/s each (half of them hops, a tenth discoveries, the rest
 *     scanner statuses and heartbeats) with 50 dashboards connected, against the real server and
 *     against a bare `ws` broadcast server doing the same fan-out (bench/ws-baseline-server.ts).
 *     Prints the ingest rate, bot-send -> dashboard-receive p50/p99 of hops and discoveries, server
 *     CPU and RSS for both, and the ratios.
 * (b) feed: 2,000 feed clients on /ws/feed while bots report 20 discoveries/s: delivery p50/p99.
 * (c) pool: claims per second from 64 concurrent callers on SQLite, and how many servers were
 *     handed out twice (must be 0).
 *
 * Each server runs in its own process on a temporary SQLite file; the clients run here. A part
 * whose server side is missing prints 'skipped: <why>'. Options: --duration S (default 60, or
 * BENCH_REALTIME_SECONDS) for (a) and (b), --feed-clients N (default 2000), --parts a,b,c.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type WebSocket from 'ws';
import {
  type BenchProcess,
  closeAll,
  Histogram,
  loopbackAddress,
  openMany,
  openSocket,
  sleep,
  startProcess,
  UpgradeRefused,
} from './realtime-clients.ts';
import { absoluteNow, type ReceiversConfig } from './realtime-receivers.ts';

const BOTS = 70;
const MESSAGES_PER_BOT_PER_SECOND = 20;
const DASHBOARDS = 50;
const FEED_DISCOVERIES_PER_SECOND = 20;
const WARM_UP_SECONDS = 5;
const POOL_SECONDS = 15;
const POOL_CALLERS = 64;
const POOL_SERVERS = 40_000;
const GOALS = { fanOutP99Ms: 100, cpuRatio: 2, feedP99Ms: 100, claimsPerSecond: 1_000 } as const;
const BOT_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const UNLIMITED = '1000000000';

/* One second of a bot's messages: 10 hops, 2 discoveries, 6 statuses, 2 heartbeats. */
const CYCLE = [
  'hop',
  'status',
  'hop',
  'discovery',
  'hop',
  'status',
  'hop',
  'heartbeat',
  'hop',
  'status',
] as const;

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    'feed-clients': { type: 'string' },
    parts: { type: 'string' },
  },
});
const DURATION_SECONDS = Number(flags.duration ?? process.env.BENCH_REALTIME_SECONDS ?? 60);
const FEED_CLIENTS = Number(flags['feed-clients'] ?? 2_000);
const PARTS = new Set((flags.parts ?? 'a,b,c').split(',').map((p) => p.trim()));
if (!(DURATION_SECONDS > 0) || !(FEED_CLIENTS > 0)) {
  console.error('--duration and --feed-clients must be positive numbers');
  process.exit(2);
}

const now = absoluteNow;
/** An id that carries its send time, so whoever receives the event knows how long it took. */
const stamped = (prefix: string, bot: number, n: number) => `${prefix}-${bot}-${n}-${now().toFixed(2)}`;

interface Receivers {
  /** Events sent before this absolute time are not counted. */
  measureFrom(time: number): void;
  stop(): Promise<{ histogram: Histogram; delivered: number }>;
}

/** Opens receiving sockets in a worker thread (bench/realtime-receivers.ts); rejects if one is refused. */
function startReceivers(config: ReceiversConfig): Promise<Receivers> {
  // Node 20 cannot start a worker from a .ts file: a small script registers tsx in the worker first.
  const entry = new URL('./realtime-receivers.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: config },
  );
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { ready?: boolean; error?: string; status?: number }) => {
      if (!message.ready) {
        void worker.terminate();
        reject(message.status ? new UpgradeRefused(message.status) : new Error(message.error));
        return;
      }
      resolve({
        measureFrom: (time) => worker.postMessage({ measureFrom: time }),
        stop: () =>
          new Promise((done) => {
            worker.once('message', (result: { buckets: Uint32Array; count: number; delivered: number }) => {
              const histogram = new Histogram();
              histogram.merge(result.buckets, result.count);
              done({ histogram, delivered: result.delivered });
              setTimeout(() => void worker.terminate(), 3_000).unref();
            });
            worker.postMessage({ stop: true });
          }),
      });
    });
  });
}

function frame(type: string, payload: unknown): string {
  return JSON.stringify({ type, payload });
}

interface FanOutTarget {
  name: string;
  server: BenchProcess;
  botUrl: string;
  botHeaders: Record<string, string>;
  dashboardUrl: string;
  dashboardHeaders: Record<string, string>;
}

interface FanOutResult {
  name: string;
  ingestPerSecond: number;
  deliveredPerSecond: number;
  deliveredShare: number;
  p50: number;
  p99: number;
  cpuPercent: number;
  rssMiB: number;
  refusals: number;
}

/** (a) for one target: bots at 20 msg/s, dashboards timing each hop and discovery they receive. */
async function runFanOut(target: FanOutTarget, seconds: number): Promise<FanOutResult> {
  let measuring = false;
  const receivers = await startReceivers({
    url: target.dashboardUrl,
    headers: target.dashboardHeaders,
    count: DASHBOARDS,
    addressOffset: 0,
  });
  let refusals = 0;
  const bots = await openMany(BOTS, 10, (i) =>
    openSocket(target.botUrl, {
      headers: target.botHeaders,
      localAddress: loopbackAddress(DASHBOARDS + i),
      onMessage: (text) => {
        if (text.startsWith('{"type":"error"')) refusals += 1;
      },
    }),
  );
  bots.forEach((socket, i) => {
    socket.send(frame('hello', { ghostId: `bench-bot-${i + 1}`, version: 'bench' }));
  });

  let sent = 0;
  let events = 0;
  const counters = bots.map(() => 0);
  const send = (socket: WebSocket, bot: number) => {
    const n = counters[bot]!++;
    const kind = CYCLE[n % CYCLE.length]!;
    const jobId = stamped('bench', bot, n);
    if (kind === 'hop') {
      socket.send(
        frame('server_hop', {
          fromJobId: null,
          toJobId: jobId,
          fromPlaceId: null,
          toPlaceId: '109983668079237',
          success: n % 7 !== 0,
          latencyMs: 300 + (n % 900),
          errorMessage: n % 7 === 0 ? 'Teleport failed: the server is full (GameFull)' : null,
          hopReason: n % 7 === 0 ? 'server_full' : 'auto_scan',
          attemptNumber: 1,
          totalServersAttempted: 1,
        }),
      );
    } else if (kind === 'discovery') {
      socket.send(
        frame('pet_discovered', {
          name: 'Tralalero Tralala',
          type: 'Brainrot God',
          value: '$1.5M/s',
          count: 1,
          placeid: '109983668079237',
          jobid: jobId,
        }),
      );
    } else if (kind === 'status') {
      socket.send(
        frame('scanner_status', {
          status: 'scanning',
          scansPerMinute: 30,
          petsFound: n,
          uptime: 99,
          currentJobId: null,
        }),
      );
    } else {
      socket.send(frame('heartbeat', {}));
    }
    sent += 1;
    if (measuring && (kind === 'hop' || kind === 'discovery')) events += 1;
  };
  // Each bot on its own 50 ms timer, started at a random phase so the fleet does not send in lockstep.
  const timers: NodeJS.Timeout[] = [];
  bots.forEach((socket, bot) => {
    timers.push(
      setTimeout(
        () => timers.push(setInterval(() => send(socket, bot), 1000 / MESSAGES_PER_BOT_PER_SECOND)),
        Math.random() * 50,
      ),
    );
  });

  await sleep(WARM_UP_SECONDS * 1000);
  measuring = true;
  const measureStart = now();
  receivers.measureFrom(measureStart);
  const sentAtStart = sent;
  const usageStart = await target.server.usage();
  let peakRss = usageStart.rss;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    peakRss = Math.max(peakRss, (await target.server.usage()).rss);
  }
  const usageEnd = await target.server.usage();
  const elapsed = (now() - measureStart) / 1000;
  const ingest = (sent - sentAtStart) / elapsed;
  for (const timer of timers) clearInterval(timer);
  // Let what is in flight arrive before counting deliveries.
  await sleep(500);
  measuring = false;
  const { histogram, delivered } = await receivers.stop();
  await closeAll(bots);
  return {
    name: target.name,
    ingestPerSecond: ingest,
    deliveredPerSecond: delivered / elapsed,
    deliveredShare: events === 0 ? 0 : delivered / (events * DASHBOARDS),
    p50: histogram.percentile(0.5),
    p99: histogram.percentile(0.99),
    cpuPercent: ((usageEnd.cpuMicros - usageStart.cpuMicros) / 1e6 / elapsed) * 100,
    rssMiB: peakRss / 2 ** 20,
    refusals,
  };
}

function printFanOut(results: FanOutResult[]): void {
  console.log(
    `\n${'server'.padEnd(10)}${'ingest msg/s'.padStart(14)}${'delivered/s'.padStart(13)}${'delivered'.padStart(11)}` +
      `${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU %'.padStart(8)}${'RSS MiB'.padStart(9)}${'refused'.padStart(9)}`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(10)}${r.ingestPerSecond.toFixed(0).padStart(14)}${r.deliveredPerSecond.toFixed(0).padStart(13)}` +
        `${`${(r.deliveredShare * 100).toFixed(1)}%`.padStart(11)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}` +
        `${r.cpuPercent.toFixed(0).padStart(8)}${r.rssMiB.toFixed(0).padStart(9)}${String(r.refusals).padStart(9)}`,
    );
  }
}

/** The admin session cookie for the dashboards, through the real login. */
async function adminCookie(server: BenchProcess, adminSecret: string): Promise<string> {
  const response = await fetch(`${server.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ adminSecret }),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (response.status !== 200 || !cookie) throw new Error(`admin login answered ${response.status}`);
  return cookie;
}

/** (b): feed sockets timing each discovery; skipped when /ws/feed does not exist. */
async function runFeed(server: BenchProcess, seconds: number): Promise<string> {
  const feedUrl = `${server.url.replace('http', 'ws')}/ws/feed`;
  console.log(`opening ${FEED_CLIENTS} feed sockets …`);
  let clients: Receivers;
  try {
    clients = await startReceivers({ url: feedUrl, headers: {}, count: FEED_CLIENTS, addressOffset: 0 });
  } catch (error) {
    if (error instanceof UpgradeRefused)
      return `skipped: /ws/feed answered ${error.status} (no feed socket yet)`;
    throw error;
  }
  const bot = await openSocket(`${server.url.replace('http', 'ws')}/ws`, {
    headers: { authorization: `Bearer ${BOT_TOKEN}` },
    localAddress: loopbackAddress(FEED_CLIENTS + 1),
  });
  bot.send(frame('hello', { ghostId: 'bench-feed-bot', version: 'bench' }));
  let n = 0;
  let measured = 0;
  let measuring = false;
  // Values under $5M/s: a keyless (FREE) client receives them with their join data.
  const timer = setInterval(() => {
    bot.send(
      frame('pet_discovered', {
        name: 'Chimpanzini Bananini',
        type: 'Mythic',
        value: '$2.5M/s',
        count: 1,
        placeid: '109983668079237',
        jobid: stamped('bench', 0, n++),
      }),
    );
    if (measuring) measured += 1;
  }, 1000 / FEED_DISCOVERIES_PER_SECOND);
  await sleep(WARM_UP_SECONDS * 1000);
  measuring = true;
  clients.measureFrom(now());
  await sleep(seconds * 1000);
  clearInterval(timer);
  await sleep(500);
  const { histogram, delivered } = await clients.stop();
  await closeAll([bot]);
  const share = measured === 0 ? 0 : delivered / (measured * FEED_CLIENTS);
  const p99 = histogram.percentile(0.99);
  return (
    `${FEED_CLIENTS} clients, ${FEED_DISCOVERIES_PER_SECOND} discoveries/s: ${(share * 100).toFixed(1)}% delivered, ` +
    `p50 ${histogram.percentile(0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
    `(goal p99 < ${GOALS.feedP99Ms} ms: ${p99 < GOALS.feedP99Ms && share > 0.99 ? 'met' : 'NOT met'})`
  );
}

async function botCall(server: BenchProcess, path: string, body: unknown) {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BOT_TOKEN}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json().catch(() => null)) as unknown };
}

/** (c): concurrent claims until the pool runs dry or POOL_SECONDS pass; counts double hand-outs. */
async function runPool(server: BenchProcess): Promise<string> {
  const probe = await botCall(server, '/api/server-pool/servers', {
    servers: [{ placeId: '1', jobId: 'bench-probe' }],
  });
  if (probe.status === 404) return 'skipped: POST /api/server-pool/servers answered 404 (no server pool yet)';
  if (probe.status >= 300) return `skipped: POST /api/server-pool/servers answered ${probe.status}`;
  for (let start = 0; start < POOL_SERVERS; start += 500) {
    const servers = Array.from({ length: 500 }, (_, i) => ({
      placeId: '109983668079237',
      jobId: `bench-pool-${start + i}`,
    }));
    const { status } = await botCall(server, '/api/server-pool/servers', { servers });
    if (status >= 300) return `skipped: adding servers answered ${status}`;
  }
  const handedOut = new Map<string, number>();
  let claims = 0;
  let refused = 0;
  let failed = 0;
  // Each caller is one bot of the fleet (the pool serves only bots that said hello); the server
  // lets each hold up to 1,000 servers, so 64 of them can empty the pool.
  const ghosts = Array.from({ length: POOL_CALLERS }, (_, i) => `bench-ghost-${i}`);
  for (const ghostId of ghosts) {
    const hello = { type: 'hello', payload: { ghostId, version: 'bench' } };
    const { status } = await botCall(server, '/api/bot/events', { ghostId, events: [hello] });
    if (status >= 300) return `skipped: hello answered ${status}`;
  }
  const deadline = now() + POOL_SECONDS * 1000;
  const started = now();
  let dry = false;
  await Promise.all(
    ghosts.map(async (ghostId) => {
      while (!dry && now() < deadline) {
        const { status, json } = await botCall(server, '/api/server-pool/claim', { ghostId });
        const jobId = (json as { server?: { jobId?: string } } | null)?.server?.jobId;
        if (status === 200 && jobId) {
          claims += 1;
          handedOut.set(jobId, (handedOut.get(jobId) ?? 0) + 1);
        } else if (status === 404 || status === 409) {
          refused += 1;
          dry = true;
        } else {
          failed += 1;
        }
      }
    }),
  );
  const elapsed = (now() - started) / 1000;
  const duplicates = [...handedOut.values()].filter((count) => count > 1).length;
  const rate = claims / elapsed;
  return (
    `${claims} claims in ${elapsed.toFixed(1)} s from ${POOL_CALLERS} callers: ${rate.toFixed(0)} claims/s, ` +
    `${duplicates} servers handed out twice, ${refused} refused (pool empty), ${failed} failed ` +
    `(goal >= ${GOALS.claimsPerSecond} claims/s with 0 duplicates: ` +
    `${rate >= GOALS.claimsPerSecond && duplicates === 0 && failed === 0 ? 'met' : 'NOT met'})`
  );
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-bench-realtime-'));
  const adminSecret = randomBytes(18).toString('base64url');
  const processes: BenchProcess[] = [];
  const stopAll = () => Promise.allSettled(processes.map((p) => p.stop()));
  const stopOnSignal = () => {
    void stopAll().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    console.log(
      `Realtime benchmark: (a) ${BOTS} bots x ${MESSAGES_PER_BOT_PER_SECOND} msg/s with ${DASHBOARDS} dashboards ` +
        `for ${DURATION_SECONDS} s after ${WARM_UP_SECONDS} s warm-up, real server vs bare ws; ` +
        `(b) ${FEED_CLIENTS} feed sockets; (c) pool claims on SQLite`,
    );
    const results: FanOutResult[] = [];
    if (PARTS.has('a')) {
      const baseline = await startProcess('bench/ws-baseline-server.ts', {});
      processes.push(baseline);
      const wsBase = `${baseline.url.replace('http', 'ws')}/ws`;
      console.log('measuring the bare ws baseline …');
      results.push(
        await runFanOut(
          {
            name: 'baseline',
            server: baseline,
            botUrl: wsBase,
            botHeaders: {},
            dashboardUrl: `${wsBase}?role=dashboard`,
            dashboardHeaders: {},
          },
          DURATION_SECONDS,
        ),
      );
      await baseline.stop();
    }

    const server = await startProcess('bench/realtime-server.ts', {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'bench.db'),
      BOT_TOKEN,
      BOT_TOKEN_FILE: join(dir, 'bot-token'),
      ADMIN_SECRET: adminSecret,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_LOGIN: UNLIMITED,
      RATE_LIMIT_FEED: UNLIMITED,
      POOL_MAX_SERVERS_PER_BOT: '1000',
    });
    processes.push(server);

    if (PARTS.has('a')) {
      console.log('measuring the real server …');
      const cookie = await adminCookie(server, adminSecret);
      const wsUrl = `${server.url.replace('http', 'ws')}/ws`;
      results.push(
        await runFanOut(
          {
            name: 'scanline',
            server,
            botUrl: wsUrl,
            botHeaders: { authorization: `Bearer ${BOT_TOKEN}` },
            dashboardUrl: wsUrl,
            // The admin socket upgrade must come from the app's own origin (CSRF), as a browser's does.
            dashboardHeaders: { cookie, origin: server.url },
          },
          DURATION_SECONDS,
        ),
      );
      printFanOut(results);
      const [base, real] = results;
      if (real && real.deliveredPerSecond === 0) {
        console.log(
          '(a) skipped: the real server delivered no hop or discovery to a dashboard (its bot protocol has not landed)',
        );
      } else if (base && real) {
        const cpuRatio = real.cpuPercent / base.cpuPercent;
        const met = real.p99 < GOALS.fanOutP99Ms && cpuRatio <= GOALS.cpuRatio && real.deliveredShare > 0.99;
        console.log(
          `scanline/baseline: CPU ${cpuRatio.toFixed(2)}x, RSS ${(real.rssMiB / base.rssMiB).toFixed(2)}x, ` +
            `p99 ${(real.p99 / base.p99).toFixed(2)}x, ingest ${(real.ingestPerSecond / base.ingestPerSecond).toFixed(2)}x`,
        );
        console.log(
          `(a) goal (p99 < ${GOALS.fanOutP99Ms} ms, CPU <= ${GOALS.cpuRatio}x baseline, every event delivered): ` +
            `${met ? 'met' : 'NOT met'}`,
        );
      }
    }
    if (PARTS.has('b')) {
      console.log('\n(b) feed …');
      console.log(`(b) ${await runFeed(server, DURATION_SECONDS)}`);
    }
    if (PARTS.has('c')) {
      console.log('\n(c) pool claims …');
      console.log(`(c) ${await runPool(server)}`);
    }
    return 0;
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
