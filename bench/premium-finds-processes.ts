/*
 * The processes bench/premium-finds.ts plays with: the built server (dist/, `npm run build`), the bot
 * simulator (bots/main.ts) and the LuaJIT executor stand-in (tests/client/executor.lua) running the
 * shipped premium script through its key snippet, as a buyer runs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import {
  freePort,
  type ServerProcess,
  startServer,
  stopServer,
} from '../tests/reliability/server-process.ts';

export const ROOT = resolve(import.meta.dirname, '..');
const BUILT_SERVER = join(ROOT, 'dist/server/main.js');
const EXECUTOR = join(ROOT, 'tests/client/executor.lua');
const ADMIN_SECRET = 'premium-finds-bench-admin-secret-0123';
const BOT_TOKEN = 'premium-finds-bench-bot-token-0123456789';

/** One find as a feed answer carried it (the stand-in's report). */
export interface ReportedFind {
  id: string;
  timestamp: string;
}

/** What the stand-in wrote: every HTTP call and every feed answer with the time it arrived (ms). */
export interface ExecutorReport {
  errors: string[];
  http: Array<{ url: string; status: number; at: number; ms: number; error?: string }>;
  feedAnswers: Array<{ at: number; tier?: string; finds: ReportedFind[] }>;
  startedAt: number;
  endedAt: number;
}

/** The built server on a free port, its own SQLite file, the product's limits (feed and loader alike). */
export async function startBuiltServer(dir: string, bots: number): Promise<ServerProcess> {
  if (!existsSync(BUILT_SERVER)) throw new Error('no dist/server/main.js: run `npm run build` first');
  // startServer runs dist/ when it is newer than the sources, else its own build of them.
  return startServer(
    {
      DATABASE_URL: join(dir, 'scanline.db'),
      ADMIN_SECRET,
      BOT_TOKEN,
      BOT_TOKEN_FILE: join(dir, 'bot-token'),
      SCRIPTS_DIR: join(ROOT, 'scripts'),
      FLEET_MAX_BOTS: String(Math.max(bots, 100)),
      RATE_LIMIT_BOT_ENROLL: String(Math.max(bots * 2, 100)),
      // To see what else delays a find with the limit out of the way (the product's default otherwise).
      ...(process.env.RATE_LIMIT_FEED ? { RATE_LIMIT_FEED: process.env.RATE_LIMIT_FEED } : {}),
    },
    await freePort(),
  );
}

export { stopServer };

/** A PREMIUM script key for one device, made through the admin API. */
export async function createPremiumKey(url: string): Promise<string> {
  const login = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ adminSecret: ADMIN_SECRET }),
  });
  if (login.status !== 200) throw new Error(`admin login answered ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const res = await fetch(`${url}/api/admin/script-keys/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, cookie },
    body: JSON.stringify({ scriptType: 'PREMIUM', maxHardwareBindings: 1 }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`creating a script key answered ${res.status}: ${text}`);
  const { scriptKey } = JSON.parse(text) as { scriptKey: Record<string, unknown> };
  return String(scriptKey.scriptKey ?? scriptKey.key);
}

export interface Simulator {
  /** Bots connected, from the simulator's last status line (0 before the first). */
  connected(): number;
  /** Finds the simulator reported so far, from its last status line. */
  finds(): number;
  output(): string;
  stop(): Promise<void>;
}

/** `bots` simulated bots, 6 finds per bot per minute (the simulator's default), connects over `rampS`. */
export function startSimulator(url: string, bots: number, rampS: number, dir: string): Simulator {
  const child: ChildProcess = spawn(
    join(ROOT, 'node_modules/.bin/tsx'),
    [
      'bots/main.ts',
      ...['--url', url, '--token', BOT_TOKEN, '--bots', String(bots), '--ramp-s', String(rampS)],
      ...['--credentials', join(dir, 'simulator-bots.json'), '--status-interval', '1000'],
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
  );
  let output = '';
  let connected = 0;
  let finds = 0;
  const read = (d: Buffer) => {
    output = (output + String(d)).slice(-10_000);
    for (const m of String(d).matchAll(/(\d+)\/\d+ bots connected.*?, (\d+) finds/g)) {
      connected = Number(m[1]);
      finds = Number(m[2]);
    }
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    connected: () => connected,
    finds: () => finds,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs the shipped premium script through its key snippet in the stand-in for `seconds`. */
export function runPremiumScript(
  url: string,
  key: string,
  seconds: number,
  dir: string,
): Promise<ExecutorReport> {
  const snippet = `loadstring(game:HttpGet("${url}/api/script/loader?script=scanline-premium.lua&key=${key}"))()`;
  const config = {
    snippet,
    runSeconds: seconds,
    hwid: 'premium-finds-bench-device',
    workspace: dir,
    report: join(dir, 'report.json'),
  };
  writeFileSync(join(dir, 'executor.json'), JSON.stringify(config));
  return new Promise((resolveRun, reject) => {
    const child = spawn('luajit', [EXECUTOR, join(dir, 'executor.json')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + String(d)).slice(-10_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      try {
        resolveRun(JSON.parse(readFileSync(config.report, 'utf8')) as ExecutorReport);
      } catch {
        reject(new Error(`the executor stand-in wrote no report (exit ${code}):\n${output}`));
      }
    });
  });
}

/** Every find a /ws/feed socket with a second PREMIUM key got, and when: the reference of what there was. */
export interface FeedObserver {
  finds: Map<string, { timestamp: string; at: number }>;
  close(): void;
}

export async function observeFeed(url: string, key: string): Promise<FeedObserver> {
  const finds = new Map<string, { timestamp: string; at: number }>();
  const socket = new WebSocket(
    `${url.replace(/^http/, 'ws')}/ws/feed?key=${key}&hwid=premium-finds-observer`,
  );
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; payload: { id: string; timestamp: string } };
    if (frame.type === 'discovery')
      finds.set(frame.payload.id, { timestamp: frame.payload.timestamp, at: Date.now() });
  });
  await new Promise<void>((resolveOpen, reject) => {
    socket.once('open', () => resolveOpen());
    socket.once('error', reject);
  });
  return { finds, close: () => socket.close() };
}
