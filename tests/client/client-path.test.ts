import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer, stopServer } from '../reliability/server-process.ts';

/*
 * The client path, run for real: the shipped scripts (scripts/scanline-*.lua) in LuaJIT through an
 * executor stand-in (tests/client/executor.lua), against the built server in its own process and the
 * bot simulator (10 bots) reporting finds. Each run asserts what the player sees (panel texts, printed
 * lines) and where auto-join teleported. The runs go at the same time, after a warm-up that leaves
 * the server a backlog of finds older than the auto-join limit.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const EXECUTOR = join(ROOT, 'tests/client/executor.lua');
const ADMIN_SECRET = 'client-path-admin-secret-0123456789';
const BOT_TOKEN = 'client-path-bot-token-0123456789abcdef';
const AUTO_JOIN_MAX_AGE_MS = 15_000;
const AUTO_JOIN_FROM = 5_000_000;
/**
 * The warm-up: the simulator (10 bots, 2 finds a second each) runs until the server has a backlog of
 * more than a page of finds whose oldest is past the auto-join limit (with a margin), as a live
 * server has; that takes some 20 s. SOAK_SECONDS makes it last at least that long (`SOAK_SECONDS=30`
 * leaves a backlog of several pages, most of it older than the limit).
 */
const WARM_UP_MIN_MS = Number(process.env.SOAK_SECONDS ?? 0) * 1000;
const BACKLOG_OLDER_THAN_MS = AUTO_JOIN_MAX_AGE_MS + 3_000;

/** Polls `check` every 200 ms until it holds; throws naming `what` after `limitMs`. */
async function until(check: () => Promise<boolean>, what: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const TEXTS = {
  inactiveKey: 'This key has been switched off by the administrator',
  deviceLimit: 'This key is already bound to 1 device: the device limit is reached',
  unknownKey: 'This key does not exist',
  /** The universal script's Reset devices, on a 1-device key bound to another PC (1 reset a week). */
  resetDone: 'Removed 1 device. Resets left: 0. Next reset: ',
  resetRefused: 'No device reset left. Next reset: ',
};

interface FeedFind {
  id: string;
  /** Null on a 5–10M/s find the free tier gets a minute late (docs/rules-licensing.md). */
  botId: string | null;
  jobid: string | null;
  timestamp: string;
  numericValue: number;
  name: string;
  value: string;
}
interface Report {
  printed: string[];
  errors: string[];
  texts: Array<{ class: string; name: string; text: string; visible: boolean }>;
  teleports: Array<{ placeId: number; jobId: string; at: number }>;
  http: Array<{ method: string; url: string; status: number; at: number; ms: number; error?: string }>;
  feedAnswers: Array<{ at: number; serverTime?: string; cursor: number; tier?: string; finds: FeedFind[] }>;
  files: string[];
  startedAt: number;
  endedAt: number;
}
interface RunOptions {
  snippet: string;
  runSeconds: number;
  hwid: string;
  /** A workspace directory shared with another run (the same device); else a fresh one. */
  workspace?: string;
  httpGetRaisesOn4xx?: boolean;
  actions?: Array<
    { after: number; fill?: { placeholder: string; text: string } } | { after: number; click: string }
  >;
}

function luajitVersion(): string | undefined {
  const probe = spawnSync('luajit', ['-e', 'require("dkjson") require("socket.http") print(jit.version)'], {
    encoding: 'utf8',
  });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

let work: string;
let server: ServerProcess | undefined;
let simulator: ChildProcess | undefined;
let simulatorOutput = '';
const children = new Set<ChildProcess>();

/** Runs the executor stand-in once; resolves with its report. */
function runExecutor(label: string, options: RunOptions): Promise<Report> {
  const dir = mkdtempSync(join(work, `${label}-`));
  const workspace = options.workspace ?? dir;
  // Scripts from before the loader told them their site read it from getgenv().SCANLINE_URL, as their
  // header says; the shipped ones must need nothing but the snippet.
  const genv = process.env.CLIENT_PATH_SCRIPTS_DIR ? { SCANLINE_URL: server?.url } : {};
  const config = { ...options, genv, workspace, report: join(dir, 'report.json') };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return new Promise((resolveRun, reject) => {
    const child = spawn('luajit', [EXECUTOR, join(dir, 'config.json')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (d) => {
      output = (output + String(d)).slice(-20_000);
    });
    child.stderr?.on('data', (d) => {
      output = (output + String(d)).slice(-20_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), (options.runSeconds + 40) * 1000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      try {
        const report = JSON.parse(readFileSync(config.report, 'utf8')) as Report;
        writeFileSync(join(dir, 'output.txt'), output);
        resolveRun(report);
      } catch {
        reject(new Error(`executor run ${label} wrote no report (exit ${code}):\n${output}`));
      }
    });
  });
}

async function adminFetch(path: string, method: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server!.url}${path}`, {
    method,
    headers: {
      cookie,
      origin: server!.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}
let cookie = '';

async function createScriptKey(maxHardwareBindings: number): Promise<{ id: number; key: string }> {
  const { scriptKey } = (await adminFetch('/api/admin/script-keys/create', 'POST', {
    scriptType: 'PREMIUM',
    maxHardwareBindings,
  })) as { scriptKey: Record<string, unknown> };
  const key = (scriptKey.scriptKey ?? scriptKey.key) as string;
  return { id: scriptKey.id as number, key };
}

const loaderSnippet = (script: string, key?: string) =>
  `loadstring(game:HttpGet("${server!.url}/api/script/loader?script=${script}${key ? `&key=${key}` : ''}"))()`;

/** Everything the player could read: printed lines, errors the executor showed, and visible texts. */
const seen = (r: Report) => [
  ...r.printed,
  ...r.errors,
  ...r.texts.filter((t) => t.visible).map((t) => t.text),
];
const feedCalls = (r: Report) => r.http.filter((h) => h.url.includes('/api/script/feed'));
const visibleRows = (r: Report) =>
  r.texts.filter((t) => t.class === 'TextButton' && t.visible && t.text.trim());
const allFinds = (r: Report) => r.feedAnswers.flatMap((a) => a.finds);

/** Feed calls per minute over the run (one device). */
function feedCallsPerMinute(r: Report): number {
  const seconds = (r.endedAt - r.startedAt) / 1000;
  return Math.round((feedCalls(r).length / seconds) * 60);
}

/**
 * Each teleport matched to the find it acted on: the latest find the feed brought before the
 * teleport with that job id and a value from 5M/s. Age = teleport time minus the find's server timestamp.
 */
function teleportAges(r: Report): Array<{ jobId: string; ageMs: number; find?: FeedFind }> {
  return r.teleports.map((t) => {
    const before = r.feedAnswers.filter((a) => a.at <= t.at + 5);
    // A server can hold several finds: the one acted on is a joinable one (from 5M/s).
    const candidates = before
      .flatMap((a) => a.finds)
      .filter((f) => f.jobid === t.jobId && f.numericValue >= AUTO_JOIN_FROM);
    const find = candidates.at(-1);
    return { jobId: t.jobId, find, ageMs: find ? t.at - Date.parse(find.timestamp) : Number.NaN };
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

type RunName =
  | 'free'
  | 'universal'
  | 'snippet'
  | 'switchedOff'
  | 'limitFirst'
  | 'limitSecond'
  | 'reset'
  | 'resetAgain'
  | 'raising';
// Every run is started in beforeAll.
const runs = {} as Record<RunName, Promise<Report>>;
const premiumReports: Array<{ label: string; report: Promise<Report> }> = [];
let redemptionCode = '';
const switchedOff: { at?: number } = {};

describe('client path: the shipped scripts in an executor stand-in', () => {
  beforeAll(async () => {
    const version = luajitVersion();
    if (!version) {
      throw new Error(
        'luajit with dkjson and luasocket is required for the client-path tests: apt-get install -y luajit lua-dkjson lua-socket (.ci/run does this)',
      );
    }
    work = mkdtempSync(join(tmpdir(), 'scanline-client-'));
    const port = await freePort();
    server = await startServer(
      {
        DATABASE_URL: join(work, 'scanline.db'),
        ADMIN_SECRET,
        BOT_TOKEN,
        BOT_TOKEN_FILE: join(work, 'bot-token'),
        RATE_LIMIT_FEED: '100000',
        RATE_LIMIT_LOADER: '100000',
        RATE_LIMIT_REDEEM: '100000',
        // Other scripts to run (an older commit's, to see the suite fail where the defect was).
        SCRIPTS_DIR: process.env.CLIENT_PATH_SCRIPTS_DIR ?? join(ROOT, 'scripts'),
      },
      port,
    );
    simulator = spawn(
      join(ROOT, 'node_modules/.bin/tsx'),
      [
        'bots/main.ts',
        '--url',
        server.url,
        '--token',
        BOT_TOKEN,
        '--bots',
        '10',
        '--discovery-rate',
        '120',
        '--failure-rate',
        '0',
        '--status-interval',
        '0',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
    );
    simulator.stdout?.on('data', (d) => {
      simulatorOutput = (simulatorOutput + String(d)).slice(-10_000);
    });
    simulator.stderr?.on('data', (d) => {
      simulatorOutput = (simulatorOutput + String(d)).slice(-10_000);
    });

    const login = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ adminSecret: ADMIN_SECRET }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const { redemptionKey } = (await adminFetch('/api/admin/create-redemption-key', 'POST', {
      keyType: 'PREMIUM',
      maxHardwareBindings: 1,
      validityDuration: 24,
    })) as { redemptionKey: { redemptionCode: string } };
    redemptionCode = redemptionKey.redemptionCode;
    const snippetKey = await createScriptKey(1);
    const offKey = await createScriptKey(1);
    const limitKey = await createScriptKey(1);
    // Bound to an old PC by its loader call; the universal script on the new one resets it.
    const resetKey = await createScriptKey(1);
    const bound = await fetch(
      `${server.url}/api/script/loader?script=scanline-premium.lua&key=${resetKey.key}&hwid=dev-old-pc`,
    );
    expect(bound.status, await bound.clone().text()).toBe(200);

    // The warm-up: a backlog of finds older than the auto-join limit.
    const warmUpEnds = Date.now() + WARM_UP_MIN_MS;
    const feedPage = async (since: number) =>
      (await (await fetch(`${server!.url}/api/script/feed?since=${since}`)).json()) as {
        discoveries: FeedFind[];
        cursor: number;
      };
    await until(
      async () => {
        const first = await feedPage(0);
        const oldest = first.discoveries[0];
        if (!oldest || Date.now() - Date.parse(oldest.timestamp) <= BACKLOG_OLDER_THAN_MS) return false;
        // More than a page: the cursor after the first page reads more.
        return (await feedPage(first.cursor)).discoveries.length > 0 && Date.now() >= warmUpEnds;
      },
      `a backlog of more than a page of finds, the oldest ${BACKLOG_OLDER_THAN_MS} ms old (simulator:\n${simulatorOutput})`,
      WARM_UP_MIN_MS + 60_000,
    );

    runs.free = runExecutor('free', {
      snippet: loaderSnippet('scanline-free.lua'),
      runSeconds: 15,
      hwid: 'dev-free',
    });
    runs.universal = runExecutor('universal', {
      snippet: loaderSnippet('scanline-universal.lua'),
      runSeconds: 20,
      hwid: 'dev-universal',
      actions: [
        { after: 2, fill: { placeholder: 'code', text: redemptionCode } },
        { after: 2.2, click: 'Redeem' },
      ],
    });
    runs.snippet = runExecutor('snippet', {
      snippet: loaderSnippet('scanline-premium.lua', snippetKey.key),
      runSeconds: 18,
      hwid: 'dev-snippet',
    });
    runs.switchedOff = runExecutor('switched-off', {
      snippet: loaderSnippet('scanline-premium.lua', offKey.key),
      runSeconds: 15,
      hwid: 'dev-off',
    });
    // Mid-run (the run lasts 15 s): after some feed answers, with time left to show the reason.
    setTimeout(() => {
      switchedOff.at = Date.now();
      adminFetch('/api/admin/script-keys/toggle-status', 'POST', { keyId: offKey.id }).catch((e) => {
        switchedOff.at = undefined;
        console.error('could not switch the key off', e);
      });
    }, 6_000);
    // The device limit: the first device binds the 1-device key, a second device is refused.
    runs.limitFirst = runExecutor('limit-first', {
      snippet: loaderSnippet('scanline-premium.lua', limitKey.key),
      runSeconds: 12,
      hwid: 'dev-limit-1',
    });
    // Once the first device is bound (its loader call), the second comes.
    const firstBound = async () => {
      const { bindings } = (await adminFetch('/api/admin/hardware/bindings', 'GET')) as {
        bindings: Array<{ hardwareId: string }>;
      };
      return bindings.some((b) => b.hardwareId === 'dev-limit-1');
    };
    runs.limitSecond = until(firstBound, 'the first device to bind the 1-device key', 30_000).then(() =>
      runExecutor('limit-second', {
        snippet: loaderSnippet('scanline-premium.lua', limitKey.key),
        runSeconds: 8,
        hwid: 'dev-limit-2',
      }),
    );
    runs.reset = runExecutor('reset', {
      snippet: loaderSnippet('scanline-universal.lua'),
      runSeconds: 6,
      hwid: 'dev-new-pc',
      actions: [
        { after: 2, fill: { placeholder: 'Script key', text: resetKey.key } },
        { after: 2.2, click: 'Reset devices' },
      ],
    });
    // Once that run is over, the week's one reset is spent: another is refused with when the next is possible.
    runs.resetAgain = runs.reset.then(() =>
      runExecutor('reset-again', {
        snippet: loaderSnippet('scanline-universal.lua'),
        runSeconds: 6,
        hwid: 'dev-third-pc',
        actions: [
          { after: 2, fill: { placeholder: 'Script key', text: resetKey.key } },
          { after: 2.2, click: 'Reset devices' },
        ],
      }),
    );
    runs.raising = runExecutor('raising', {
      snippet: loaderSnippet('scanline-premium.lua', `SK-${'0'.repeat(64)}`),
      runSeconds: 6,
      hwid: 'dev-raising',
      httpGetRaisesOn4xx: true,
    });
    premiumReports.push(
      { label: 'universal → premium', report: runs.universal },
      { label: 'key snippet', report: runs.snippet },
      { label: 'first device', report: runs.limitFirst },
    );
    // A run's failure is the test's, not the hook's.
    for (const run of Object.values(runs)) run.catch(() => undefined);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (simulator && simulator.exitCode === null) {
      simulator.kill('SIGINT');
      const timer = setTimeout(() => simulator?.kill('SIGKILL'), 5_000);
      await new Promise((r) => simulator?.once('exit', r));
      clearTimeout(timer);
    }
    await stopServer(server);
    if (work && !process.env.CLIENT_PATH_KEEP) rmSync(work, { recursive: true, force: true });
  }, 30_000);

  it('(a) the free script shows live finds, newest first, and counts the finds received', async () => {
    const r = await runs.free;
    const received = allFinds(r);
    expect(received.length, seen(r).join('\n')).toBeGreaterThan(0);
    const status = r.texts.find((t) => /Live/.test(t.text));
    expect(status?.text, seen(r).join('\n')).toBeDefined();
    // The count is the finds received, not the rows shown.
    expect(status?.text).toContain(String(received.length));
    // Newest first: the top row is the last find received (the server sends them oldest first).
    // received is not empty (asserted above).
    const newest = received.at(-1)!;
    const rows = visibleRows(r);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]?.text).toContain(newest.name);
    expect(rows[0]?.text).toContain(newest.value);
    // Live means now: nothing older than the last minute (plus the run) is shown for context; a
    // 5–10M/s find comes with the first find of a later minute, its time cut to its minute.
    const oldest = Math.min(...received.filter((f) => f.botId !== null).map((f) => Date.parse(f.timestamp)));
    expect(r.startedAt - oldest).toBeLessThanOrEqual(65_000);
    expect(r.errors).toEqual([]);
  });

  it('(b) universal redeems a code and loads premium, with one feed loop on the device', async () => {
    const r = await runs.universal;
    expect(seen(r).join('\n')).toContain('Premium loaded');
    expect(r.files).toContain('scanline-key.txt');
    expect(r.http.some((h) => h.url.includes('script=scanline-premium.lua') && h.status === 200)).toBe(true);
    const tiers = r.feedAnswers.map((a) => a.tier);
    expect(tiers).toContain('PREMIUM');
    // One feed loop: after the redeem, only premium polls (feed calls carrying a key).
    const loadedAt = r.http.find((h) => h.url.includes('script=scanline-premium.lua'))?.at ?? r.endedAt;
    const after = feedCalls(r).filter((h) => h.at > loadedAt + 1_500);
    const keyless = after.filter((h) => !h.url.includes('key='));
    const perMinute = feedCallsPerMinute(r);
    console.log(
      `universal → premium: ${perMinute} feed calls/minute on the device (${feedCalls(r).length} in the run)`,
    );
    expect(keyless, 'the free loop still polls after premium loaded').toEqual([]);
    expect(r.errors).toEqual([]);
  });

  it('(c) the premium key snippet on a fresh device gets finds and saves the key', async () => {
    const r = await runs.snippet;
    const text = seen(r).join('\n');
    expect(
      r.feedAnswers.some((a) => a.tier === 'PREMIUM' && a.finds.length > 0),
      text,
    ).toBe(true);
    expect(
      r.texts.some((t) => /Live - every find/.test(t.text)),
      text,
    ).toBe(true);
    expect(r.files).toContain('scanline-key.txt');
    expect(
      feedCalls(r).every((h) => h.status === 200),
      JSON.stringify(feedCalls(r).slice(0, 3)),
    ).toBe(true);
    console.log(`key snippet: ${feedCallsPerMinute(r)} feed calls/minute on the device`);
    // No key in a printed line.
    expect(r.printed.join('\n')).not.toMatch(/SK-[0-9a-f]{64}/);
    expect(r.errors).toEqual([]);
  });

  it('(d) a key switched off mid-run shows the reason', async () => {
    const r = await runs.switchedOff;
    expect(switchedOff.at, 'the key was not switched off').toBeDefined();
    // It worked before it was switched off, and then says why it stopped.
    expect(r.feedAnswers.some((a) => a.at < (switchedOff.at ?? 0))).toBe(true);
    expect(seen(r).join('\n')).toContain(TEXTS.inactiveKey);
    const lastTeleport = r.teleports.at(-1)?.at ?? 0;
    expect(lastTeleport).toBeLessThanOrEqual((switchedOff.at ?? 0) + 2_000);
  });

  it('(e) a second device on a 1-device key shows the device limit', async () => {
    const first = await runs.limitFirst;
    const second = await runs.limitSecond;
    expect(first.feedAnswers.some((a) => a.tier === 'PREMIUM')).toBe(true);
    expect(seen(second).join('\n')).toContain(TEXTS.deviceLimit);
    expect(second.feedAnswers).toEqual([]);
    expect(second.teleports).toEqual([]);
  });

  it('(f) an executor whose HttpGet raises on 4xx, given a wrong key, still shows the reason', async () => {
    const r = await runs.raising;
    expect(seen(r).join('\n')).toContain(TEXTS.unknownKey);
    expect(r.teleports).toEqual([]);
  });

  it('(g) universal resets the devices of a key bound to another PC, then says when the next reset is', async () => {
    const resets = (r: Report) => r.http.filter((h) => h.url.includes('/api/script/reset-hwid'));
    const first = await runs.reset;
    expect(seen(first).join('\n')).toContain(TEXTS.resetDone);
    expect(resets(first).map((h) => h.status)).toEqual([200]);
    const again = await runs.resetAgain;
    expect(seen(again).join('\n')).toMatch(
      new RegExp(`${TEXTS.resetRefused}\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC`),
    );
    expect(resets(again).map((h) => h.status)).toEqual([429]);
    // The key went in the POST body, never in a URL.
    expect([...resets(first), ...resets(again)].every((h) => !h.url.includes('key='))).toBe(true);
    expect([...first.errors, ...again.errors]).toEqual([]);
  });

  it('auto-join never teleports to a find older than 15 s (p50/p99 find → teleport)', async () => {
    const ages: number[] = [];
    for (const { label, report } of premiumReports) {
      const r = await report.catch(() => undefined);
      if (!r) continue;
      for (const t of teleportAges(r)) {
        expect(
          t.find,
          `${label}: teleport to ${t.jobId} matches no find from 5M/s the feed brought`,
        ).toBeDefined();
        ages.push(t.ageMs);
      }
    }
    console.log(
      `find → teleport over ${ages.length} auto-joins: p50 ${percentile(ages, 50)} ms, p99 ${percentile(ages, 99)} ms, max ${Math.max(...ages)} ms`,
    );
    expect(ages.length, 'no auto-join happened in the premium runs').toBeGreaterThan(0);
    const stale = ages.filter((a) => a > AUTO_JOIN_MAX_AGE_MS);
    expect(stale, `teleports to finds older than 15 s (ages ms): ${stale.join(', ')}`).toEqual([]);
  });
});
