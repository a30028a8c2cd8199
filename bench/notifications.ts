/*
 * Notifications benchmark (`npm run bench:notifications`), over loopback, in one run:
 *
 * - the real server (its own process, a temporary SQLite file) with 5 destinations on a fake
 *   Discord (server/test/fake-discord.ts): four value tiers that split the finds between them and
 *   one JSON endpoint that gets them all; bots report 20 finds/s through the bot API. Prints the
 *   p50/p99 time from a bot sending a find to the fake receiving its post, per kind of destination.
 * - the baseline: the same 20 finds/s posted straight to the fake from here, one request each.
 *
 * The fake's per-webhook limit is raised for the run ("no limit reached"): the figure is the
 * pipeline's (batched write, outbox, dispatcher, request), not Discord's waiting. The goal is p99 < 1 s.
 * Options: --duration S (default 30, or BENCH_NOTIFY_SECONDS).
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
  adminSession,
  type DestinationSpec,
  duplicates,
  FIND_PLAN,
  findsBot,
  findsReceived,
  matches,
} from '../tests/reliability/notification-load.ts';
import { type BenchProcess, Histogram, startProcess } from './realtime-clients.ts';

const { values: args } = parseArgs({ options: { duration: { type: 'string' } } });
const DURATION_SECONDS = Number(args.duration ?? process.env.BENCH_NOTIFY_SECONDS ?? 30);
const FINDS_PER_SECOND = 20;
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-bench-notify-'));
  const fake = await startFakeDiscord({ limit: 100_000 });
  let server: BenchProcess | undefined;
  try {
    console.log(
      `baseline: ${FINDS_PER_SECOND} finds/s posted straight to the fake for ${DURATION_SECONDS} s …`,
    );
    const direct = await baseline(fake);

    const adminSecret = randomBytes(12).toString('hex');
    server = await startProcess('bench/realtime-server.ts', {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'bench.db'),
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
    const cookie = await adminSession(server.url, adminSecret);
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
    destinations.push({
      webhookId: all.id,
      spec: { name: 'every find (json)', kind: 'json', url: all.url, minValue: 0, maxValue: null },
    });
    for (const d of destinations) await addDestination(server.url, cookie, d.spec);

    console.log(
      `scanline: ${FINDS_PER_SECOND} finds/s from ${BOTS} bots into 5 destinations for ${DURATION_SECONDS} s …`,
    );
    const acked: AckedFind[] = [];
    const stop = { now: false };
    const bots = Array.from({ length: BOTS }, (_, i) =>
      findsBot(server!.url, BOT_TOKEN, `bench-notify-${i}`, acked, stop, {
        perBatch: 1,
        everyMs: (1000 * BOTS) / FINDS_PER_SECOND,
      }),
    );
    await sleep(DURATION_SECONDS * 1000);
    stop.now = true;
    await Promise.all(bots);
    // Let the last posts land.
    const expected = destinations.reduce((n, d) => n + acked.filter((a) => matches(d.spec, a)).length, 0);
    const deadline = Date.now() + 30_000;
    const got = () =>
      destinations.reduce((n, d) => n + new Set(findsReceived(fake, d.webhookId).map((f) => f.seq)).size, 0);
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
    const both = new Histogram();
    both.merge(discord.buckets, discord.count);
    both.merge(json.buckets, json.count);

    console.log('');
    console.log(
      `finds acknowledged: ${acked.length}; posts expected ${expected}, received ${got()}, twice ${twice}, 429s ${fake.rateLimited}`,
    );
    console.log(report('baseline (straight to the fake)', direct));
    console.log(report('scanline → 4 Discord tiers', discord));
    console.log(report('scanline → json (every find)', json));
    console.log(report('scanline, all destinations', both));
    const p99 = both.percentile(0.99);
    console.log(`goal p99 < 1000 ms: ${p99 < 1000 ? 'met' : 'NOT met'} (${fmt(p99)})`);
  } finally {
    await server?.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
