import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Debian's redis-server, or REDIS_SERVER_BIN. */
const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/** Whether a redis-server can be started here (the outage tests need one they may kill). */
export const canStartRedis = spawnSync(REDIS_SERVER, ['--version']).status === 0;

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A Redis of the test's own, on a free port, without persistence (a restart starts it empty, as a
 * cache-only Redis would): killed with SIGKILL and started again on the same port.
 */
export class ThrowawayRedis {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again) and resolves once it accepts connections. */
  async restart(): Promise<void> {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.process = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
    child.stdout?.resume();
  }

  /** Gone at once, as in a crash: connections drop, nothing is saved. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
