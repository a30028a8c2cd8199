import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/*
 * The real server in its own process, for the kill -9 and concurrency tests: the built server
 * (dist/, when `npm test` or `npm run build` made it after the last source change; otherwise the
 * suite compiles the server alone into node_modules/.cache, never touching dist/).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const PRIVATE_BUILD = join(ROOT, 'node_modules/.cache/scanline-reliability/dist');

/** The newest mtime of the sources the server is built from (tests are not: a changed test needs no build). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let built: string | undefined;

/** The path of a server main.js built from the current sources (built here when dist/ is missing or stale). */
export function builtServer(): string {
  if (built) return built;
  // Another build to test (an older commit's, to see the suite fail where the defect was).
  if (process.env.RELIABILITY_SERVER_MAIN) return process.env.RELIABILITY_SERVER_MAIN;
  const sources = Math.max(...['server', 'common'].map((d) => newestSource(join(ROOT, d))));
  const shared = join(ROOT, 'dist/server/main.js');
  if (existsSync(shared) && statSync(shared).mtimeMs > sources) {
    built = shared;
    return built;
  }
  mkdirSync(PRIVATE_BUILD, { recursive: true });
  // Inside node_modules a .js file is not under the project's "type": "module": say so here.
  writeFileSync(join(PRIVATE_BUILD, 'package.json'), '{"type":"module"}\n');
  const tsc = spawnSync(
    join(ROOT, 'node_modules/.bin/tsc'),
    ['-p', 'tsconfig.server.json', '--outDir', PRIVATE_BUILD],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  const main = join(PRIVATE_BUILD, 'server/main.js');
  // tsc writes the files even when another change in progress has a type error; only a missing file stops us.
  if (!existsSync(main)) throw new Error(`could not build the server: ${tsc.stdout}${tsc.stderr}`);
  built = main;
  return built;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<string>;
}

/** Starts the built server with this environment and waits until it answers. */
export async function startServer(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, [builtServer()], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output = (output + String(d)).slice(-20_000);
  });
  child.stderr?.on('data', (d) => {
    output = (output + String(d)).slice(-20_000);
  });
  const exited = new Promise<string>((r) => child.once('exit', (code, signal) => r(signal ?? String(code))));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited while starting:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/public/purchase-info`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, output: () => output, exited };
}

/** Stops a server this suite started: SIGTERM (graceful), SIGKILL after 10 s. */
export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await server.exited;
  clearTimeout(timer);
}
