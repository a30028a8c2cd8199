/*
 * bench:scale's side of the fleet process (bench/scale-fleet.ts): starts it, asks for its counters,
 * passes on the hops it reports sending, and stops it. The fleet runs in a process of its own so its
 * thousands of sockets cost the bench's clock nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface FleetConfig {
  url: string;
  token: string;
  bots: number;
  rampSeconds: number;
}

/** The simulator's figures so far (bots/simulator.ts counters, and the hops the server acknowledged). */
export interface FleetCounters {
  connected: number;
  hops: number;
  /** Hops the server acknowledged (an `ack` frame: stored). */
  handled: number;
  poolEmpty: number;
  claimsRefused: number;
  claimsFailed: number;
  errors: number;
  lastError: string | null;
}

/** A hop as a bot sent it: bot, the server it hopped to, when (absolute ms), the instance its socket was on. */
export type HopSent = [ghostId: string, jobId: string, at: number, instance: string];

export type FleetMessage =
  | { type: 'started' }
  | { type: 'hops'; hops: HopSent[] }
  | { type: 'counters'; counters: FleetCounters };

export interface FleetProcess {
  pid: number;
  /** Every bot enrolled, the pool stocked, the connects under way (spread over the ramp). */
  started: Promise<void>;
  counters(): Promise<FleetCounters>;
  /** Stops the fleet (servers released, sockets closed) and resolves with its last counters. */
  stop(): Promise<FleetCounters | null>;
}

const STOP_TIMEOUT_MS = 30_000;

export function startFleet(config: FleetConfig, onHops: (hops: HopSent[]) => void): FleetProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'scale-fleet.ts')],
    {
      env: { ...process.env, SCALE_FLEET: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waiting: Array<(counters: FleetCounters) => void> = [];
  let last: FleetCounters | null = null;
  const started = new Promise<void>((resolve, reject) => {
    child.on('message', (message: FleetMessage) => {
      if (message.type === 'started') resolve();
      else if (message.type === 'hops') onHops(message.hops);
      else if (message.type === 'counters') {
        last = message.counters;
        waiting.shift()?.(message.counters);
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the fleet exited (${signal ?? code}) before it started`)),
    );
  });
  // Awaited by whoever starts the run; a rejection after that must not go unhandled.
  started.catch(() => {});

  return {
    pid: child.pid ?? 0,
    started,
    counters: () =>
      new Promise((resolve, reject) => {
        if (!child.connected) return reject(new Error('the fleet process is gone'));
        waiting.push(resolve);
        child.send('counters');
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return last;
      if (child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
      return last;
    },
  };
}
