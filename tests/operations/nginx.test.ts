import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseOptions } from '../../bots/options.ts';
import { seededRandom } from '../../bots/pets.ts';
import { Simulator } from '../../bots/simulator.ts';
import { SESSION_COOKIE } from '../../common/auth.ts';
import type { ServerHopEvent } from '../../common/fleet.ts';
import { TestClient } from '../../server/test/socket-client.ts';
import { freePort, type ServerProcess, startServer, stopServer } from '../reliability/server-process.ts';
import { createFreshDatabase, type FreshDatabase } from './fresh-database.ts';
import { type NginxProcess, startNginx, UPSTREAM_HEADER } from './nginx.ts';

/*
 * docs/deploy/nginx.conf as an operator runs it: Debian's nginx in front of two built server
 * processes on one PostgreSQL database (created for this run, dropped after) and one Redis. Every
 * client goes through nginx; which instance answered is read from a header the test's own nginx
 * main configuration adds (the deploy file does not expose it).
 */

const ADMIN_SECRET = 'nginx-test-admin-secret';
const BOT_TOKEN = 'nginx-test-bot-token';

let database: FreshDatabase | undefined;
let dir: string | undefined;
const servers: ServerProcess[] = [];
let nginx: NginxProcess | undefined;
const sockets: WebSocket[] = [];
const ports: number[] = [];

beforeAll(async () => {
  database = await createFreshDatabase(process.env.TEST_DATABASE_URL ?? '', 'nginx');
  dir = mkdtempSync(join(tmpdir(), 'scanline-nginx-'));
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    REDIS_KEY_PREFIX: `scanline-test:${randomBytes(6).toString('hex')}:`,
    ADMIN_SECRET,
    BOT_TOKEN,
    // nginx runs on this host: its hop is trusted for X-Forwarded-For/-Proto/-Host, no other.
    TRUST_PROXY: 'loopback',
    // Ten-minute windows: a slow machine still makes its 121 calls inside one.
    RATE_LIMIT_WINDOW_MS: '600000',
    // The fleet test enrolls a thousand bots from this one address.
    RATE_LIMIT_BOT_ENROLL: '5000',
    FLEET_MAX_BOTS: '2000',
  };
  ports.push(await freePort(), await freePort());
  // One after the other: the first applies the migrations.
  for (const port of ports) servers.push(await startServer(env, port));
  nginx = await startNginx(dir, await freePort(), [ports[0]!, ports[1]!]);
});

afterAll(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await nginx?.stop();
  for (const server of servers.splice(0)) await stopServer(server);
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const upstreamOf = (port: number) => `127.0.0.1:${port}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Logs in through nginx the way the admin's browser does (Origin: the site nginx serves). */
async function logIn(): Promise<string> {
  const res = await fetch(`${nginx!.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: nginx!.url },
    body: JSON.stringify({ adminSecret: ADMIN_SECRET }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const session = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!session) throw new Error('login set no session cookie');
  return session.split(';', 1)[0]!;
}

/**
 * Opens `path` (`/ws`, `/ws/feed`) through nginx until it lands on the instance on `port` (nginx takes turns between
 * the two, so it gets there within a few tries); the sockets that landed elsewhere are closed.
 */
async function socketOn(
  port: number,
  path: string,
  headers: Record<string, string>,
  origin?: string,
): Promise<TestClient> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const ws = new WebSocket(`${nginx!.url.replace(/^http/, 'ws')}${path}`, {
      headers,
      ...(origin ? { origin } : {}),
    });
    sockets.push(ws);
    const client = new TestClient(ws);
    const upstream = await new Promise<string | undefined>((resolve, reject) => {
      ws.once('upgrade', (res) => resolve(res.headers[UPSTREAM_HEADER] as string | undefined));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
      ws.once('error', reject);
    });
    await new Promise<void>((resolve) =>
      ws.readyState === WebSocket.OPEN ? resolve() : ws.once('open', () => resolve()),
    );
    if (upstream === upstreamOf(port)) return client;
    ws.close();
  }
  throw new Error(`nginx never passed a socket to the instance on port ${port}`);
}

describe('nginx in front of two instances on PostgreSQL and Redis', () => {
  it('passes a bot on one instance and a dashboard on the other the same fleet events', async () => {
    const cookie = await logIn();
    const dashboard = await socketOn(ports[1]!, '/ws', { cookie }, nginx!.url);
    await dashboard.next((f) => f.type === 'fleet_backfill', { timeoutMs: 10_000 });

    // A premium script's feed socket (here keyless: the free tier) on the other instance too.
    const feed = await socketOn(ports[1]!, '/ws/feed', {});
    await feed.next((f) => f.type === 'ready', { timeoutMs: 10_000 });

    const bot = await socketOn(ports[0]!, '/ws', { authorization: `Bearer ${BOT_TOKEN}` });
    bot.send({ type: 'hello', payload: { ghostId: 'nginx-bot-1', version: '1.0.0' } });
    await bot.next((f) => f.type === 'config', { timeoutMs: 10_000 });
    bot.send({ type: 'scanner_status', payload: { status: 'hopping', petsFound: 3 } });
    bot.send({
      type: 'server_hop',
      payload: {
        fromJobId: null,
        toJobId: 'job-through-nginx',
        fromPlaceId: null,
        toPlaceId: '1',
        success: true,
        latencyMs: 12,
        hopReason: 'manual',
      },
    });

    // The dashboard, on the other instance, hears of the bot and its hop (through Redis).
    const hop = await dashboard.next(
      (f) => f.type === 'server_hop' && (f.payload as ServerHopEvent).botId === 'nginx-bot-1',
      { timeoutMs: 10_000 },
    );
    expect(hop.payload).toMatchObject({ toJobId: 'job-through-nginx', success: true, latencyMs: 12 });
    await dashboard.next(
      (f) =>
        f.type === 'scanner_status' &&
        (f.payload as { scanners: { botId: string; status: string }[] }).scanners.some(
          (s) => s.botId === 'nginx-bot-1' && s.status === 'hopping',
        ),
      { timeoutMs: 10_000 },
    );

    // A find the bot reports on the first instance reaches the feed socket on the second.
    bot.send({
      type: 'pet_discovered',
      payload: { name: 'Noobini Pizzanini', value: '$850K/s', placeid: '1', jobid: 'job-through-nginx' },
    });
    const find = await feed.next((f) => f.type === 'discovery', { timeoutMs: 10_000 });
    expect(find.payload).toMatchObject({ name: 'Noobini Pizzanini', value: '$850K/s' });
  });

  it('holds an admin login made through nginx on both instances', async () => {
    const cookie = await logIn();
    const answeredBy = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${nginx!.url}/api/admin/dashboard/stats`, { headers: { cookie } });
      expect(res.status).toBe(200);
      answeredBy.add(res.headers.get(UPSTREAM_HEADER) ?? '');
    }
    expect([...answeredBy].sort()).toEqual(ports.map(upstreamOf).sort());
    // Straight to each instance, the same cookie is a session on both (sessions are in the database).
    for (const server of servers) {
      expect((await fetch(`${server.url}/api/admin/dashboard/stats`, { headers: { cookie } })).status).toBe(
        200,
      );
      expect((await fetch(`${server.url}/api/admin/dashboard/stats`)).status).toBe(401);
    }
  });

  it('refuses the 121st feed call of a window, the instances taking turns', async () => {
    // A client address of its own, named as a trusted outer proxy (a CDN) would: this test's
    // client is itself on loopback, which the instances trust (TRUST_PROXY), as they trust nginx.
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    const answeredBy = new Set<string>();
    for (let i = 0; i < 121; i++) {
      const res = await fetch(`${nginx!.url}/api/script/feed?since=0`, { headers });
      await res.arrayBuffer();
      statuses.push(res.status);
      answeredBy.add(res.headers.get(UPSTREAM_HEADER) ?? '');
    }
    expect(statuses.slice(0, 120)).toEqual(Array(120).fill(200));
    expect(statuses[120]).toBe(429);
    expect([...answeredBy].sort()).toEqual(ports.map(upstreamOf).sort());
  });

  it("carries 1,000 bot sockets through the documented configuration, past Debian's 768 connections", async () => {
    const options = parseOptions(
      ['--bots', '1000', '--url', nginx!.url, '--token', BOT_TOKEN, '--hop-interval', '3600000'],
      {},
      () => '',
    );
    const fleet = new Simulator(
      { ...options!, ghostPrefix: 'fleet-', discoveryRate: 0, statusIntervalMs: 0, rampSeconds: 5 },
      seededRandom(7),
      () => {},
    );
    try {
      await fleet.start();
      const deadline = Date.now() + 60_000;
      while (fleet.connectedBots < 1000 && Date.now() < deadline) await sleep(250);
      expect(fleet.connectedBots, `${fleet.statusLine()}\n${nginx!.output()}`).toBe(1000);
      // Each bot holds a pool server through nginx too: no claim failed or was refused.
      expect(fleet.counters).toMatchObject({ claimsFailed: 0, claimsRefused: 0 });
    } finally {
      await fleet.stop();
    }
    expect(nginx!.output()).not.toContain('worker_connections are not enough');
  }, 120_000);

  it('refuses an admin change from another origin through nginx, as without it', async () => {
    const cookie = await logIn();
    const res = await fetch(`${nginx!.url}/api/admin/logout`, {
      method: 'POST',
      headers: { cookie, origin: 'http://evil.example' },
    });
    expect(res.status).toBe(403);
  });
});
