/*
 * The realtime benchmark's client side: a latency histogram, server processes with usage queries,
 * and sockets opened from many loopback addresses (each simulated client is its own IP, as in real
 * life, so per-IP upgrade limits count them as the distinct clients they stand for).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import WebSocket from 'ws';
import type { UsageAnswer } from './realtime-usage.ts';

/** Latencies in 0.1 ms buckets up to 10 s (the last bucket holds anything slower). */
export class Histogram {
  readonly buckets = new Uint32Array(100_001);
  count = 0;

  /** Adds another histogram's samples (one from a worker thread). */
  merge(buckets: Uint32Array, count: number): void {
    for (let i = 0; i < buckets.length; i++) this.buckets[i] = (this.buckets[i] ?? 0) + (buckets[i] ?? 0);
    this.count += count;
  }

  record(ms: number): void {
    const index = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)));
    this.buckets[index] = (this.buckets[index] ?? 0) + 1;
    this.count += 1;
  }

  /** The latency below which `p` (0–1) of the samples fall, in ms; NaN without samples. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.ceil(p * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i] ?? 0;
      if (seen >= rank) return i / 10;
    }
    return Number.POSITIVE_INFINITY;
  }
}

export interface BenchProcess {
  url: string;
  port: number;
  usage(): Promise<UsageAnswer>;
  stop(): Promise<void>;
}

/** Node options for a bench server: BENCH_PROF=dir writes its CPU profile there (open it in Chrome DevTools). */
export function profileArgs(): string[] {
  return process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
}

/** Starts a bench server script in its own Node process and waits until it reports its port. */
export async function startProcess(script: string, env: Record<string, string>): Promise<BenchProcess> {
  const child: ChildProcess = spawn(process.execPath, [...profileArgs(), '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
      const onMessage = (message: { port?: number }) => {
        if (typeof message?.port !== 'number') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message.port);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with ${code} before listening`));
      });
    });
    const usage = () =>
      new Promise<UsageAnswer>((resolve) => {
        const onMessage = (message: UsageAnswer) => {
          if (message?.type !== 'usage') return;
          child.off('message', onMessage);
          resolve(message);
        };
        child.on('message', onMessage);
        child.send('usage');
      });
    return { url: `http://127.0.0.1:${port}`, port, usage, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The n-th simulated client's own loopback address (127.0.1.1, 127.0.1.2, …): one IP per client. */
export function loopbackAddress(n: number): string {
  return `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
}

export interface OpenSocketOptions {
  headers?: Record<string, string>;
  localAddress?: string;
  onMessage?: (text: string) => void;
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused (404: no such route). */
export function openSocket(url: string, options: OpenSocketOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      headers: options.headers,
      localAddress: options.localAddress,
      perMessageDeflate: false,
    });
    if (options.onMessage) {
      const onMessage = options.onMessage;
      socket.on('message', (data) => onMessage(String(data)));
    }
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      reject(new UpgradeRefused(response.statusCode ?? 0));
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
  });
}

export class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`upgrade refused with ${status}`);
  }
}

/** Opens `count` sockets, at most `concurrency` handshakes at a time. */
export async function openMany(
  count: number,
  concurrency: number,
  open: (index: number) => Promise<WebSocket>,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        sockets[index] = await open(index);
      }
    }),
  );
  return sockets;
}

export function closeAll(sockets: readonly (WebSocket | undefined)[]): Promise<void> {
  return Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (!socket || socket.readyState === WebSocket.CLOSED) return resolve();
          socket.once('close', () => resolve());
          socket.close(1000);
          setTimeout(() => {
            socket.terminate();
            resolve();
          }, 2_000).unref();
        }),
    ),
  ).then(() => undefined);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
