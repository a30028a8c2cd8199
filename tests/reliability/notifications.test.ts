import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeDiscord, type FakeWebhook, startFakeDiscord } from '../../server/test/fake-discord.ts';
import { DIALECTS } from '../../server/test/helper.ts';
import { createFreshDatabase } from '../operations/fresh-database.ts';
import {
  type AckedFind,
  addDestination,
  adminCall,
  adminSession,
  type DestinationSpec,
  duplicates,
  findsBot,
  findsReceived,
  matches,
} from './notification-load.ts';
import { freePort, type ServerProcess, startServer, stopServer } from './server-process.ts';

/*
 * Notifications end to end: the built server, bots reporting finds through the bot API, the
 * destinations added through the admin API, and a fake Discord on loopback receiving the posts.
 * Each find that matches a destination must reach it exactly once, never one outside its range
 * and never before its delay; through kill -9 and a restart; and with two instances on one
 * PostgreSQL database.
 */

const BOT_TOKEN = 'reliability-notify-token';
const ADMIN_SECRET = 'reliability-notify-secret';

function serverEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    BOT_TOKEN,
    ADMIN_SECRET,
    BOT_TOKEN_FILE: join(tmpdir(), `scanline-notify-token-${randomBytes(4).toString('hex')}`),
    RATE_LIMIT_BOT_EVENTS: '100000',
    RATE_LIMIT_BOT_EVENTS_BURST: '100000',
    // The fake Discord is on 127.0.0.1 over plain http.
    NOTIFY_ALLOW_PRIVATE: 'true',
    NOTIFY_ALLOW_HOSTS: '127.0.0.1',
  };
}

function sqliteFile(cleanups: (() => unknown)[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-notify-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'scanline.db');
}

/** Three tiers as an operator sets them up, each on its own webhook of the fake. */
function tiers(fake: FakeDiscord): { hook: FakeWebhook; spec: DestinationSpec }[] {
  const low = fake.createWebhook();
  const high = fake.createWebhook();
  const owls = fake.createWebhook();
  return [
    {
      hook: low,
      spec: { name: '1M-10M', kind: 'discord', url: low.url, minValue: 1_000_000, maxValue: 9_999_999 },
    },
    {
      hook: high,
      spec: {
        name: '10M+ (late)',
        kind: 'discord',
        url: high.url,
        minValue: 10_000_000,
        maxValue: null,
        delaySeconds: 2,
      },
    },
    {
      hook: owls,
      spec: {
        name: 'Owls',
        kind: 'json',
        url: owls.url,
        minValue: 10_000_000,
        maxValue: null,
        petNames: ['Cosmic Owl'],
      },
    },
  ];
}

/** Runs bots against the servers (round robin) until `stop.now`. */
function load(urls: () => string[], acked: AckedFind[], stop: { now: boolean }, bots = 2): Promise<void>[] {
  const suffix = randomBytes(3).toString('hex');
  return Array.from({ length: bots }, (_, i) => {
    const ghost = `notify-bot-${suffix}-${i}`;
    const url = urls()[i % urls().length]!;
    return findsBot(url, BOT_TOKEN, ghost, acked, stop, { perBatch: 1, everyMs: 200 });
  });
}

/**
 * A longer load, by hand: SOAK_SECONDS of it (`SOAK_SECONDS=60`: some 600 finds, at the two bots' 10 a second).
 * CI: none beyond LOADED_FINDS.
 */
const SOAK_MS = Number(process.env.SOAK_SECONDS ?? 0) * 1000;
/**
 * Finds acknowledged under load before it stops: some 4 s of two bots, each tier past Discord's
 * limit (5 posts per 2 s a webhook), so its rate limit has to be obeyed; more with SOAK_SECONDS.
 */
const LOADED_FINDS = Math.max(40, Math.round(SOAK_MS / 100));

/**
 * Waits until `check` holds, looking every 50 ms; throws naming `what` after `limitMs`. The load
 * runs until the server has acknowledged so many finds, not for a fixed time: as long as that takes
 * on the machine at hand, and no longer.
 */
async function until(check: () => boolean, what: string, limitMs = 30_000 + 2 * SOAK_MS): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until every acknowledged find a tier matches reached its webhook. */
async function allDelivered(fake: FakeDiscord, setup: ReturnType<typeof tiers>, acked: AckedFind[]) {
  await vi.waitFor(
    () => {
      for (const { hook, spec } of setup) {
        const got = new Set(findsReceived(fake, hook.id).map((f) => f.seq));
        const missing = acked.filter((a) => matches(spec, a) && !got.has(a.seq));
        expect(
          missing.map((m) => m.seq),
          `${spec.name} is missing finds`,
        ).toEqual([]);
      }
    },
    { timeout: 45_000 + SOAK_MS, interval: 250 },
  );
}

/** Every find a tier received is in its range and was posted after its delay. */
function expectWithinRules(fake: FakeDiscord, setup: ReturnType<typeof tiers>) {
  for (const { hook, spec } of setup) {
    const got = findsReceived(fake, hook.id);
    expect(
      got.filter((f) => !matches(spec, f)).map((f) => f.seq),
      `${spec.name}: outside its rules`,
    ).toEqual([]);
    const early = got.filter((f) => f.receivedAt < f.foundAt + (spec.delaySeconds ?? 0) * 1000);
    expect(
      early.map((f) => f.seq),
      `${spec.name}: before its delay`,
    ).toEqual([]);
  }
}

describe('notifications end to end', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(env: Record<string, string>, port?: number): Promise<ServerProcess> {
    const server = await startServer(env, port ?? (await freePort()));
    cleanups.push(() => stopServer(server));
    return server;
  }

  async function fakeDiscord(): Promise<FakeDiscord> {
    const fake = await startFakeDiscord();
    cleanups.push(() => fake.close());
    return fake;
  }

  it('under bot load, posts every matching find once, within its range and after its delay; a deleted webhook turns its destination off', async () => {
    const fake = await fakeDiscord();
    const server = await serve(serverEnv(sqliteFile(cleanups)));
    const cookie = await adminSession(server.url, ADMIN_SECRET);
    const setup = tiers(fake);
    for (const { spec } of setup) await addDestination(server.url, cookie, spec);
    const gone = fake.createWebhook();
    fake.deleteWebhook(gone.id);
    const goneId = await addDestination(server.url, cookie, {
      name: 'Deleted webhook',
      kind: 'discord',
      url: gone.url,
      minValue: 0,
      maxValue: null,
    });

    const acked: AckedFind[] = [];
    const stop = { now: false };
    const bots = load(() => [server.url], acked, stop);
    await until(() => acked.length >= LOADED_FINDS, `${LOADED_FINDS} finds acknowledged`);
    stop.now = true;
    await Promise.all(bots);
    expect(acked.length).toBeGreaterThan(30);

    await allDelivered(fake, setup, acked);
    expectWithinRules(fake, setup);
    for (const { hook, spec } of setup) {
      expect(duplicates(findsReceived(fake, hook.id)), `${spec.name}: posted twice`).toEqual([]);
    }
    expect(fake.rateLimited, "Discord's rate limit was obeyed").toBe(0);
    const { destinations } = await adminCall<{
      destinations: { id: number; enabled: boolean; disabledReason: string | null }[];
    }>(server.url, cookie, 'GET', '/api/admin/notifications/destinations');
    expect(destinations.find((d) => d.id === goneId)).toMatchObject({
      enabled: false,
      disabledReason: 'Unknown Webhook (404)',
    });
  });

  it('loses none and posts none twice through kill -9 and a restart (at most the message in flight)', async () => {
    const fake = await fakeDiscord();
    const env = serverEnv(sqliteFile(cleanups));
    const port = await freePort();
    let server = await serve(env, port);
    const cookie = await adminSession(server.url, ADMIN_SECRET);
    const setup = tiers(fake);
    for (const { spec } of setup) await addDestination(server.url, cookie, spec);

    const acked: AckedFind[] = [];
    const stop = { now: false };
    const bots = load(() => [server.url], acked, stop);
    // Killed mid-load, with posts to Discord under way: half the load before the kill, half after.
    await until(() => acked.length >= LOADED_FINDS / 2, `${LOADED_FINDS / 2} finds acknowledged`);
    const killedAt = Date.now();
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    server = await serve(env, port);
    const afterRestart = () => acked.filter((a) => a.sentAt > killedAt).length;
    await until(
      () => afterRestart() >= LOADED_FINDS / 2,
      `${LOADED_FINDS / 2} finds acknowledged after the restart`,
    );
    stop.now = true;
    await Promise.all(bots);
    expect(afterRestart(), 'load after the restart').toBeGreaterThan(5);

    await allDelivered(fake, setup, acked);
    expectWithinRules(fake, setup);
    console.log(
      `notifications, kill -9 mid-load: ${acked.length} finds acknowledged; posted ` +
        setup.map(({ hook, spec }) => `${spec.name} ${findsReceived(fake, hook.id).length}`).join(', ') +
        `; twice: ${setup.map(({ hook }) => duplicates(findsReceived(fake, hook.id)).length).join('/')}`,
    );
    for (const { hook, spec } of setup) {
      const got = findsReceived(fake, hook.id);
      const twice = duplicates(got);
      // A post Discord took just before the kill, not yet marked sent, is the one that may repeat.
      const firstPosts = new Set(twice.map((seq) => got.find((f) => f.seq === seq)!.post));
      expect(firstPosts.size, `${spec.name}: finds posted twice ${twice.join(', ')}`).toBeLessThanOrEqual(1);
      for (const post of firstPosts) expect(fake.received[post]!.at).toBeLessThanOrEqual(killedAt);
    }
  });

  // Only where a PostgreSQL is given (CI), as the other dialect loops do.
  if (DIALECTS.includes('postgres')) {
    it('posts each find once with two instances on one PostgreSQL database', async () => {
      const fake = await fakeDiscord();
      const database = await createFreshDatabase(process.env.TEST_DATABASE_URL ?? '', 'notify');
      cleanups.push(() => database.drop());
      const env = serverEnv(database.url);
      const first = await serve(env);
      const cookie = await adminSession(first.url, ADMIN_SECRET);
      const setup = tiers(fake);
      for (const { spec } of setup) await addDestination(first.url, cookie, spec);
      // Started after the destinations exist, so it loads them when ready.
      const second = await serve(env);

      const acked: AckedFind[] = [];
      const stop = { now: false };
      const bots = load(() => [first.url, second.url], acked, stop, 4);
      await until(() => acked.length >= LOADED_FINDS, `${LOADED_FINDS} finds acknowledged`);
      stop.now = true;
      await Promise.all(bots);
      expect(acked.length).toBeGreaterThan(30);

      await allDelivered(fake, setup, acked);
      expectWithinRules(fake, setup);
      for (const { hook, spec } of setup) {
        expect(duplicates(findsReceived(fake, hook.id)), `${spec.name}: posted twice`).toEqual([]);
      }
    });
  }
});
