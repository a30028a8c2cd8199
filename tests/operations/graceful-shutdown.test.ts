import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { type AcknowledgedEvent, Simulator } from '../../bots/simulator.ts';
import { connectTestClient, type TestClient } from '../../server/test/socket-client.ts';
import { type Acked, httpBot } from '../reliability/http-bot.ts';
import { freePort, type ServerProcess, startServer, stopServer } from '../reliability/server-process.ts';
import { storedSeqs } from '../reliability/stored-writes.ts';

/*
 * A deploy's SIGTERM under load: the built server in its own process on a SQLite file, 20 simulated
 * bots on sockets and two bots posting events over HTTP, a dashboard and a bare bot socket watching.
 * SIGTERM; then the server is started again on the same file. It holds when /readyz stopped saying
 * ready at once, every socket was told 1012 (service restart), the process exited 0, no write the
 * server acknowledged is missing, and every simulated bot is connected again.
 */

const BOT_TOKEN = 'operations-shutdown-token';
const ADMIN_SECRET = 'operations-shutdown-secret';
const BOTS = 20;
/**
 * The load runs until the fleet is connected and 40 writes each way are acknowledged (a few seconds):
 * enough for requests and frames to be in flight at the signal. SOAK_SECONDS makes it run at least
 * that long first (`SOAK_SECONDS=60`: a minute of load, more rows for the shutdown to flush); CI: none.
 */
const MIN_LOAD_MS = Number(process.env.SOAK_SECONDS ?? 0) * 1000;

async function until(check: () => boolean, what: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The admin's dashboard socket: a session from the login call, then /ws with its cookie. */
async function dashboard(url: string): Promise<TestClient> {
  const login = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ adminSecret: ADMIN_SECRET }),
  });
  if (login.status !== 200) throw new Error(`login ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return connectTestClient(`${url.replace('http', 'ws')}/ws`, cookie);
}

/** A bot socket as a real bot opens it: bearer token, then hello. */
async function botSocket(url: string, ghostId: string): Promise<TestClient> {
  const client = await connectTestClient(`${url.replace('http', 'ws')}/ws?token=${BOT_TOKEN}`, undefined, {
    origin: null,
  });
  client.send({ type: 'hello', payload: { ghostId, version: '1' }, id: 'hello' });
  await client.next((f) => f.type === 'hello');
  return client;
}

/** What /readyz answers right after the signal, until the process is gone: statuses, or `refused`. */
async function watchReadiness(url: string, server: ServerProcess): Promise<string[]> {
  const seen: string[] = [];
  let gone = false;
  void server.exited.then(() => {
    gone = true;
  });
  while (!gone && !seen.includes('refused')) {
    try {
      const res = await fetch(`${url}/readyz`);
      const body = (await res.json().catch(() => ({}))) as { failed?: string[] };
      seen.push(body.failed?.length ? `${res.status} ${body.failed.join(',')}` : String(res.status));
    } catch {
      seen.push('refused');
    }
  }
  return seen;
}

describe('sqlite: SIGTERM under simulator load', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('turns unready, closes sockets with 1012, exits 0, loses no acknowledged write, and the bots come back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-shutdown-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = join(dir, 'scanline.db');
    const env = {
      DATABASE_URL: databaseUrl,
      BOT_TOKEN,
      ADMIN_SECRET,
      BOT_TOKEN_FILE: join(dir, 'bot-token'),
      RATE_LIMIT_BOT_EVENTS: '100000',
      RATE_LIMIT_BOT_EVENTS_BURST: '100000',
    };
    const port = await freePort();
    let server: ServerProcess | undefined = await startServer(env, port);
    cleanups.push(() => stopServer(server));
    const { url } = server;

    // The fleet on sockets; every hop and find the server acknowledges is recorded.
    const acknowledged: AcknowledgedEvent[] = [];
    const simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: BOTS,
        hopIntervalMs: 500,
        discoveryRate: 60,
        url,
        token: BOT_TOKEN,
        statusIntervalMs: 0,
      },
      Math.random,
      () => {},
    );
    simulator.onAcknowledged = (event) => acknowledged.push(event);
    cleanups.push(() => simulator.stop());
    await simulator.start();
    // Two bots posting batches over HTTP: requests in flight when the signal comes.
    const posted: Acked[] = [];
    const stopPosting = { now: false };
    const counts = { sent: 0, refused: 0 };
    const posters = [0, 1].map((i) => httpBot(url, BOT_TOKEN, `http-bot-${i}`, posted, stopPosting, counts));
    const watchers = [await dashboard(url), await botSocket(url, 'watching-bot')];
    const loadEnds = Date.now() + MIN_LOAD_MS;
    await until(
      () =>
        simulator.connectedBots === BOTS &&
        acknowledged.length >= 40 &&
        posted.length >= 40 &&
        Date.now() >= loadEnds,
      'the fleet to connect and the server to acknowledge writes',
      MIN_LOAD_MS + 60_000,
    );

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const readiness = await watchReadiness(url, server);
    const exit = await server.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    stopPosting.now = true;
    await Promise.all(posters);
    const closeCodes = watchers.map((w) => w.closed?.code);
    const before = { socket: acknowledged.length, http: posted.length };

    // Started again on the same file, the fleet comes back by itself (backoff with jitter, up to 10 s).
    server = await startServer(env, port);
    await until(() => simulator.connectedBots === BOTS, `all ${BOTS} bots to reconnect`, 60_000);

    const hopsAndFinds = [
      ...acknowledged.map((a) => ({ kind: a.type === 'server_hop' ? 'hop' : 'find', seq: a.seq })),
      ...posted.map((a) => ({ kind: a.kind, seq: a.seq })),
    ];
    const stored = await storedSeqs('sqlite', databaseUrl);
    const missing = hopsAndFinds.filter((a) => !(a.kind === 'hop' ? stored.hops : stored.finds).has(a.seq));
    console.log(
      `SIGTERM under load: /readyz after the signal answered [${readiness.join('; ')}]; exit ${exit} ` +
        `${exitedAfterMs} ms after the signal; acknowledged before the exit: ${before.socket} socket frames, ` +
        `${before.http} of ${counts.sent} events posted over HTTP; after the restart ` +
        `${hopsAndFinds.length} checked, ${missing.length} missing; ${simulator.connectedBots}/${BOTS} bots back`,
    );
    // A probe the server took before it handled the signal may say 200; after the first that does
    // not, never again: 503 (shutting down) while the listener is open, then refused.
    const firstUnready = readiness.findIndex((r) => !r.startsWith('200'));
    expect({
      unready: firstUnready >= 0,
      readyAgainAfterUnready: readiness.slice(firstUnready).filter((r) => r.startsWith('200')),
      exit,
      closeCodes,
      missing: missing.slice(0, 10),
      integrity: stored.integrity,
    }).toEqual({
      unready: true,
      readyAgainAfterUnready: [],
      exit: '0',
      closeCodes: [1012, 1012],
      missing: [],
      integrity: 'ok',
    });
  });
});
