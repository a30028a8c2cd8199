/*
 * Notifications benchmark (`npm run bench:notifications`), over loopback. Scenarios (--scenario, all
 * by default):
 *
 * load:
 * - the real server (its own process, a temporary SQLite file) with 5 destinations on a fake
 *   Discord (server/test/fake-discord.ts): four value tiers that split the finds between them and
 *   one JSON endpoint that gets them all; bots report 20 finds/s through the bot API. Prints the
 *   p50/p99 time from a bot sending a find to the fake receiving its post, per kind of destination.
 * - the baseline: the same 20 finds/s posted straight to the fake from here, one request each.
 *
 * The fake's per-webhook limit is raised for the run ("no limit reached"): the figure is the
 * pipeline's (batched write, outbox, dispatcher, request), not Discord's waiting. The goal is p99 < 1 s.
 *
 * slow: the same, with the JSON endpoint answering every post after 4 s: the Discord tiers' p99
 * beside it (each destination has its own lane: the goal is the same p99 < 1 s).
 *
 * outage: one premium channel (a Discord webhook taking every find, no delay, Discord's own limit of
 * 5 posts per 2 s) under the same load; the fake Discord drops every connection for --outage S
 * (default 60) and comes back. Prints how long after it is back the first post arrives, the age of
 * what is posted then (nothing past the 60 s maximum age), how many finds were dropped as too old, and
 * the find-to-post time of finds made after the recovery.
 *
 * Options: --duration S (default 30, or BENCH_NOTIFY_SECONDS), --scenario load|slow|outage|all,
 * --outage S, --rate N finds a second (default 20; the premium channel takes at most 25 a second
 * through Discord's 5 messages per 2 s, so at 20 a backlog drains at 5 a second).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { postJson } from '../server/features/notifications/outbound-request.ts';
import { type FakeDiscord, startFakeDiscord } from '../server/test/fake-discord.ts';
import {
  type AckedFind,
  addDestination,
  adminCall,
  adminSession,
  type DestinationSpec,
  duplicates,
  FIND_PLAN,
  findsBot,
  findsReceived,
  matches,
} from '../tests/reliability/notification-load.ts';
import { type BenchProcess, Histogram, startProcess } from './realtime-clients.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string' },
    scenario: { type: 'string' },
    outage: { type: 'string' },
    rate: { type: 'string' },
  },
});
const DURATION_SECONDS = Number(args.duration ?? process.env.BENCH_NOTIFY_SECONDS ?? 30);
const SCENARIO = args.scenario ?? 'all';
const OUTAGE_SECONDS = Number(args.outage ?? 60);
const FINDS_PER_SECOND = Number(args.rate ?? 20);
const BOTS = 4;
const BOT_TOKEN = 'bench-notify-token';
const UNLIMITED = '1000000';
const policy = { allowHosts: ['127.0.0.1'], allowPrivate: true };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function report(name: string, h: Histogram): string {
  return `${name.padEnd(34)} n=${String(h.count).padStart(5)}  p50 ${fmt(h.percentile(0.5)).padStart(10)}  p99 ${fmt(h.percentile(0.99)).padStart(10)}`;
}

/** Posts FINDS_PER_SECOND finds straight to a webhook of the fake: the floor of any delivery. */
async function baseline(fake: FakeDiscord): Promise<Histogram> {
  const hook = fake.createWebhook();
  const sent = new Map<number, number>();
  const requests: Promise<unknown>[] = [];
  const total = FINDS_PER_SECOND * DURATION_SECONDS;
  const start = Date.now();
  for (let i = 0; i < total; i++) {
    await sleep(Math.max(0, start + (i * 1000) / FINDS_PER_SECOND - Date.now()));
    const plan = FIND_PLAN[i % FIND_PLAN.length]!;
    sent.set(i, Date.now());
    requests.push(
      postJson(
        hook.url,
        { find: { seq: i, ...plan, numericValue: 0, timestamp: new Date().toISOString() } },
        policy,
        'json',
      ),
    );
  }
  await Promise.all(requests);
  const h = new Histogram();
  for (const f of findsReceived(fake, hook.id)) h.record(f.receivedAt - sent.get(f.seq)!);
  return h;
}

/** The real server in its own process, on a temporary SQLite file, with an admin session. */
async function startScanline(dir: string): Promise<{ server: BenchProcess; cookie: string }> {
  const adminSecret = randomBytes(12).toString('hex');
  const server = await startProcess('bench/realtime-server.ts', {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, `bench-${randomBytes(4).toString('hex')}.db`),
    BOT_TOKEN,
    BOT_TOKEN_FILE: join(dir, 'bot-token'),
    ADMIN_SECRET: adminSecret,
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN: UNLIMITED,
    RATE_LIMIT_BOT_EVENTS: UNLIMITED,
    RATE_LIMIT_BOT_EVENTS_BURST: UNLIMITED,
    NOTIFY_ALLOW_PRIVATE: 'true',
    NOTIFY_ALLOW_HOSTS: '127.0.0.1',
  });
  return { server, cookie: await adminSession(server.url, adminSecret) };
}

/** Bots reporting FINDS_PER_SECOND finds through the bot API until `stop.now`. */
function startBots(url: string, acked: AckedFind[], stop: { now: boolean }, name: string): Promise<void>[] {
  return Array.from({ length: BOTS }, (_, i) =>
    findsBot(url, BOT_TOKEN, `bench-${name}-${i}`, acked, stop, {
      perBatch: 1,
      everyMs: (1000 * BOTS) / FINDS_PER_SECOND,
    }),
  );
}

/** Four Discord value tiers and one JSON endpoint taking every find (answering after `jsonDelayMs`). */
async function tiersAndJson(
  fake: FakeDiscord,
  dir: string,
  jsonDelayMs: number,
): Promise<{ discord: Histogram; json: Histogram; line: string }> {
  const { server, cookie } = await startScanline(dir);
  try {
    const tiers: [number, number | null][] = [
      [0, 999_999],
      [1_000_000, 2_999_999],
      [3_000_000, 9_999_999],
      [10_000_000, null],
    ];
    const destinations: { spec: DestinationSpec; webhookId: string }[] = [];
    for (const [min, max] of tiers) {
      const hook = fake.createWebhook();
      destinations.push({
        webhookId: hook.id,
        spec: { name: `tier ${min}+`, kind: 'discord', url: hook.url, minValue: min, maxValue: max },
      });
    }
    const all = fake.createWebhook();
    if (jsonDelayMs > 0) fake.setBehaviour(all.id, { answerDelayMs: jsonDelayMs });
    destinations.push({
      webhookId: all.id,
      spec: { name: 'every find (json)', kind: 'json', url: all.url, minValue: 0, maxValue: null },
    });
    for (const d of destinations) await addDestination(server.url, cookie, d.spec);

    const acked: AckedFind[] = [];
    const stop = { now: false };
    const bots = startBots(server.url, acked, stop, `tiers-${jsonDelayMs}`);
    await sleep(DURATION_SECONDS * 1000);
    stop.now = true;
    await Promise.all(bots);
    // Let the last posts land (the Discord tiers; a slow JSON endpoint may trail).
    const discordOnes = destinations.filter((d) => d.spec.kind === 'discord');
    const expected = discordOnes.reduce((n, d) => n + acked.filter((a) => matches(d.spec, a)).length, 0);
    const got = () =>
      discordOnes.reduce((n, d) => n + new Set(findsReceived(fake, d.webhookId).map((f) => f.seq)).size, 0);
    const deadline = Date.now() + 30_000;
    while (got() < expected && Date.now() < deadline) await sleep(100);

    const sentAt = new Map(acked.map((a) => [a.seq, a.sentAt]));
    const discord = new Histogram();
    const json = new Histogram();
    let twice = 0;
    for (const d of destinations) {
      const received = findsReceived(fake, d.webhookId);
      twice += duplicates(received).length;
      for (const f of received) {
        const t = sentAt.get(f.seq);
        if (t !== undefined) (d.spec.kind === 'json' ? json : discord).record(f.receivedAt - t);
      }
    }
    const line = `finds acknowledged: ${acked.length}; Discord posts expected ${expected}, received ${got()}, twice ${twice}, 429s ${fake.rateLimited}`;
    return { discord, json, line };
  } finally {
    await server.stop();
  }
}

const percentileOf = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The premium channel through an outage of the fake Discord. */
async function outage(dir: string): Promise<void> {
  const fake = await startFakeDiscord();
  const { server, cookie } = await startScanline(dir);
  try {
    const hook = fake.createWebhook();
    const spec: DestinationSpec = {
      name: 'premium',
      kind: 'discord',
      url: hook.url,
      minValue: 0,
      maxValue: null,
    };
    const id = await addDestination(server.url, cookie, spec);
    const acked: AckedFind[] = [];
    const stop = { now: false };
    const bots = startBots(server.url, acked, stop, 'outage');
    await sleep(10_000);
    fake.takeDown('reset');
    const downAt = Date.now();
    console.log(`outage: the fake Discord drops every connection for ${OUTAGE_SECONDS} s …`);
    await sleep(OUTAGE_SECONDS * 1000);
    const postsBefore = fake.received.length;
    fake.bringUp();
    const upAt = Date.now();
    await sleep(30_000);
    stop.now = true;
    await Promise.all(bots);
    await sleep(3_000);

    const received = findsReceived(fake, hook.id);
    const after = received.filter((f) => f.post >= postsBefore);
    const firstAfter = after[0];
    const sentAt = new Map(acked.map((a) => [a.seq, a.sentAt]));
    // What went out in the first 10 s after it was back: the catch-up.
    const catchUp = after.filter((f) => f.receivedAt - upAt < 10_000);
    const ages = catchUp.map((f) => f.receivedAt - (sentAt.get(f.seq) ?? f.foundAt));
    const madeAfter = after
      .filter((f) => (sentAt.get(f.seq) ?? 0) >= upAt)
      .map((f) => f.receivedAt - sentAt.get(f.seq)!);
    const { destinations } = await adminCall<{
      destinations: { id: number; stats: { dropped: number; sent: number; pending: number } }[];
    }>(server.url, cookie, 'GET', '/api/admin/notifications/destinations');
    const stats = destinations.find((d) => d.id === id)!.stats;
    const duringOutage = acked.filter((a) => a.sentAt >= downAt && a.sentAt < upAt).length;

    console.log('');
    console.log(
      `premium channel, ${OUTAGE_SECONDS} s outage: finds acknowledged ${acked.length} (${duringOutage} during the outage); sent ${stats.sent}, dropped as too old ${stats.dropped}, pending ${stats.pending}; twice ${duplicates(received).length}`,
    );
    console.log(
      `first post after the receiver was back: ${firstAfter ? seconds(firstAfter.receivedAt - upAt) : 'none'}`,
    );
    console.log(
      `age of what was posted in the 10 s after: p50 ${seconds(percentileOf(ages, 0.5))}, max ${seconds(Math.max(...ages))} (n=${ages.length}; maximum age 60 s)`,
    );
    console.log(
      `finds made after the recovery, find to post: p50 ${seconds(percentileOf(madeAfter, 0.5))}, p99 ${seconds(percentileOf(madeAfter, 0.99))}, max ${seconds(Math.max(...madeAfter))} (n=${madeAfter.length})`,
    );
  } finally {
    await server.stop();
    await fake.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-bench-notify-'));
  const fake = await startFakeDiscord({ limit: 100_000 });
  try {
    if (SCENARIO === 'all' || SCENARIO === 'load') {
      console.log(
        `baseline: ${FINDS_PER_SECOND} finds/s posted straight to the fake for ${DURATION_SECONDS} s …`,
      );
      const direct = await baseline(fake);
      console.log(
        `scanline: ${FINDS_PER_SECOND} finds/s from ${BOTS} bots into 5 destinations for ${DURATION_SECONDS} s …`,
      );
      const { discord, json, line } = await tiersAndJson(fake, dir, 0);
      const both = new Histogram();
      both.merge(discord.buckets, discord.count);
      both.merge(json.buckets, json.count);
      console.log('');
      console.log(line);
      console.log(report('baseline (straight to the fake)', direct));
      console.log(report('scanline → 4 Discord tiers', discord));
      console.log(report('scanline → json (every find)', json));
      console.log(report('scanline, all destinations', both));
      const p99 = both.percentile(0.99);
      console.log(`goal p99 < 1000 ms: ${p99 < 1000 ? 'met' : 'NOT met'} (${fmt(p99)})`);
    }
    if (SCENARIO === 'all' || SCENARIO === 'slow') {
      console.log('');
      console.log(
        `slow: the same, the JSON endpoint answering each post after 4 s, for ${DURATION_SECONDS} s …`,
      );
      const { discord, json, line } = await tiersAndJson(fake, dir, 4_000);
      console.log(line);
      console.log(report('scanline → 4 Discord tiers', discord));
      console.log(report('scanline → json answering in 4 s', json));
      const p99 = discord.percentile(0.99);
      console.log(`goal Discord p99 < 1000 ms beside it: ${p99 < 1000 ? 'met' : 'NOT met'} (${fmt(p99)})`);
    }
    if (SCENARIO === 'all' || SCENARIO === 'outage') {
      console.log('');
      await outage(dir);
    }
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
