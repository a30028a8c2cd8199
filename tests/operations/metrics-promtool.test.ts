import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import { sampleValue } from '../../server/test/prometheus-text.ts';
import { freePort, type ServerProcess, startServer, stopServer } from '../reliability/server-process.ts';

/*
 * What an operator's Prometheus sees: the built server as a real process, under the bot simulator's
 * load, and its /metrics piped into `promtool check metrics` (Debian's prometheus package; CI installs
 * it), which prints every problem it finds and exits non-zero.
 */

const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
const BOT_TOKEN = 'operations-metrics-bot-token';

function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += String(d);
    });
    child.stderr.on('data', (d) => {
      output += String(d);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/** Polls /metrics until `ready` holds for its text (the simulator's bots take a moment to say hello). */
async function metricsWhen(
  url: string,
  ready: (text: string) => boolean,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/metrics`);
    const text = await res.text();
    if (res.status === 200 && ready(text)) return text;
    if (Date.now() > deadline)
      throw new Error(`/metrics never got there (status ${res.status}):\n${text.slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('/metrics under simulator load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-metrics-'));
  let server: ServerProcess | undefined;
  let simulator: Simulator | undefined;

  beforeAll(async () => {
    server = await startServer(
      {
        DATABASE_URL: join(dir, 'scanline.db'),
        BOT_TOKEN,
        BOT_TOKEN_FILE: join(dir, 'bot-token'),
        ADMIN_SECRET: 'operations-metrics-admin',
        RATE_LIMIT_LOADER: '2',
      },
      await freePort(),
    );
    simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: 70,
        hopIntervalMs: 500,
        discoveryRate: 60,
        failureRate: 0.2,
        url: server.url,
        token: BOT_TOKEN,
        statusIntervalMs: 0,
      },
      Math.random,
      () => {},
    );
    await simulator.start();
  });

  afterAll(async () => {
    await simulator?.stop();
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes promtool check metrics, with every family moving', async () => {
    const url = server?.url ?? '';
    // A loader call, two more refused by its limit of 2, and a feed poll, besides the bots' traffic.
    for (let i = 0; i < 3; i++) await fetch(`${url}/api/script/loader?script=${FREE_SCRIPT_FILE}`);
    await fetch(`${url}/api/script/feed?since=0`);
    const text = await metricsWhen(
      url,
      (t) =>
        (sampleValue(t, 'scanline_bots') ?? 0) >= 70 &&
        (sampleValue(t, 'scanline_sockets_open', { kind: 'bot' }) ?? 0) >= 70 &&
        (sampleValue(t, 'scanline_hops_total', { outcome: 'failure' }) ?? 0) > 0 &&
        (sampleValue(t, 'scanline_pool_claims_total') ?? 0) > 0 &&
        (sampleValue(t, 'scanline_writer_rows_written_total') ?? 0) > 0 &&
        (sampleValue(t, 'scanline_audit_rows_written_total') ?? 0) > 0,
    );
    expect(sampleValue(text, 'scanline_rate_limit_refusals_total', { limit: 'loader' })).toBeGreaterThan(0);
    expect(
      sampleValue(text, 'http_request_duration_seconds_count', { route: '/api/server-pool/claim' }),
    ).toBeGreaterThan(0);
    expect(sampleValue(text, 'scanline_stored_figures_up')).toBe(1);

    const checked = await promtoolCheck(text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });
});
