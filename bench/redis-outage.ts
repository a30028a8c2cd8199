/*
 * Redis outage benchmark (`npm run bench:redis-outage`), over loopback: two real servers
 * (server/main.ts, each its own process) on one fresh PostgreSQL database (BENCH_DATABASE_URL, default
 * the local postgres) and a Redis of its own on a free port, without persistence. Each round: both load
 * a premium script with one key; Redis is killed; the key is switched off on A (the call is timed),
 * A's loader is asked once, a bot reports a status and a find to A (each timed); 4 s later Redis is
 * started again (empty) and B's loader is asked every 20 ms until it refuses: the delay after Redis
 * returns. The baseline: the same switch-off with Redis up, timed until B refuses.
 * Options: --rounds N (default 5).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ThrowawayRedis } from '../server/test/throwaway-redis.ts';
import { sleep } from './realtime-clients.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string' } } });
const ROUNDS = Number(args.rounds ?? 5);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_SECRET = 'bench-admin-secret-0123456789';
const BOT_TOKEN = 'bench-bot-token-0123456789abcdef';
const SCRIPT = 'outage-bench.lua';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Scanline is running')) resolve();
    });
  });
  child.stdout?.resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

async function call(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const body = await res.text();
  return {
    status: Number(res.headers.get('x-scanline-refusal')?.split(' ')[0] ?? res.status),
    body,
    ms: performance.now() - started,
  };
}

const figures = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `p50 ${at(0.5).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (n = ${values.length})`;
};

const database = `scanline_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: BASE_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const redis = await ThrowawayRedis.start();
const env = {
  DATABASE_URL: Object.assign(new URL(BASE_URL), { pathname: `/${database}` }).toString(),
  REDIS_URL: redis.url,
  ADMIN_SECRET,
  BOT_TOKEN,
};
const a = await startServer(env);
const b = await startServer(env);
try {
  const login = await fetch(`${a.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: a.url },
    body: JSON.stringify({ adminSecret: ADMIN_SECRET }),
  });
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const adminCall = (path: string, body: object, method = 'POST') =>
    call(`${a.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: a.url, cookie },
      body: JSON.stringify(body),
    });
  await adminCall('/api/admin/scripts/save', { filename: SCRIPT, content: 'print("premium")' });
  await adminCall(`/api/admin/scripts/${SCRIPT}/access-type`, { accessType: 'PREMIUM' }, 'PUT');
  const load = (server: string, key: string) =>
    call(`${server}/api/script/loader?script=${SCRIPT}&key=${encodeURIComponent(key)}&hwid=bench-device`);
  const bot = (events: object[]) =>
    call(`${a.url}/api/bot/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOT_TOKEN}` },
      body: JSON.stringify({ ghostId: 'bench-bot', events }),
    });
  const newKey = async () => {
    const created = await adminCall('/api/admin/script-keys/create', { scriptType: 'PREMIUM' });
    const { scriptKey } = JSON.parse(created.body) as { scriptKey: { id: number; scriptKey: string } };
    for (const server of [a.url, b.url])
      if ((await load(server, scriptKey.scriptKey)).status !== 200) throw new Error('not served');
    return scriptKey;
  };
  const untilRefused = async (key: string) => {
    const started = performance.now();
    while ((await load(b.url, key)).status !== 403) await sleep(20);
    return performance.now() - started;
  };

  const baseline: number[] = [];
  const afterReturn: number[] = [];
  const toggles: number[] = [];
  const statuses: number[] = [];
  const finds: number[] = [];
  const findStatuses = new Set<number>();
  for (let round = 0; round < ROUNDS; round++) {
    const up = await newKey();
    await adminCall('/api/admin/script-keys/toggle-status', { keyId: up.id });
    baseline.push(await untilRefused(up.scriptKey));

    const key = await newKey();
    await redis.kill();
    toggles.push((await adminCall('/api/admin/script-keys/toggle-status', { keyId: key.id })).ms);
    if ((await load(a.url, key.scriptKey)).status !== 403)
      throw new Error('A still serves the key it switched off');
    statuses.push((await bot([{ type: 'scanner_status', payload: { status: 'scanning' } }])).ms);
    const find = await bot([
      {
        type: 'pet_discovered',
        payload: { name: 'Bench', value: '$1M/s', placeid: '1', jobid: `j-${round}` },
      },
    ]);
    finds.push(find.ms);
    findStatuses.add(find.status);
    await sleep(4000);
    await redis.restart();
    afterReturn.push(await untilRefused(key.scriptKey));
  }
  console.log(`Key switched off, B refuses it — Redis up (baseline): ${figures(baseline)}`);
  console.log(
    `Key switched off during the outage, B refuses it after Redis returns: ${figures(afterReturn)}`,
  );
  console.log(`With Redis down: switch-off call ${figures(toggles)}`);
  console.log(`With Redis down: bot status report ${figures(statuses)}`);
  console.log(`With Redis down: bot find ${figures(finds)}, answered ${[...findStatuses].join(', ')}`);
} finally {
  a.child.kill('SIGTERM');
  b.child.kill('SIGTERM');
  await Promise.all([a, b].map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
  await redis.kill();
  await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  await admin.end();
}
