import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Acked, httpBot } from '../reliability/http-bot.ts';
import { freePort, type ServerProcess, startServer, stopServer } from '../reliability/server-process.ts';
import { storedSeqs } from '../reliability/stored-writes.ts';

/*
 * `npm run backup -- --out FILE` as an operator runs it: against the SQLite file of a server that is
 * busy writing, and refused (one line, non-zero exit) for PostgreSQL.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const BOT_TOKEN = 'operations-backup-token';

/** Runs the backup command (the package.json script's own command line) with this environment. */
function runBackup(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/operations/backup.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += String(d);
    });
    child.stderr.on('data', (d) => {
      output += String(d);
    });
    child.on('exit', (code) => done({ code: code ?? -1, output: output.trim() }));
  });
}

describe('npm run backup', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('copies the SQLite database of a running, writing server; the copy opens clean with the rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-backup-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = join(dir, 'scanline.db');
    const env = {
      DATABASE_URL: databaseUrl,
      BOT_TOKEN,
      BOT_TOKEN_FILE: join(dir, 'bot-token'),
      RATE_LIMIT_BOT_EVENTS: '100000',
      RATE_LIMIT_BOT_EVENTS_BURST: '100000',
    };
    const server: ServerProcess = await startServer(env, await freePort());
    cleanups.push(() => stopServer(server));
    const acked: Acked[] = [];
    const stop = { now: false };
    const counts = { sent: 0, refused: 0 };
    const bots = [0, 1].map((i) => httpBot(server.url, BOT_TOKEN, `backup-bot-${i}`, acked, stop, counts));
    const deadline = Date.now() + 30_000;
    while (acked.length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    // Everything acknowledged before the backup starts must be in the copy; writes go on meanwhile.
    const before = [...acked];
    const out = join(dir, 'backup.db');
    const backup = await runBackup(['--out', out], { DATABASE_URL: databaseUrl });
    const writtenDuring = acked.length - before.length;
    stop.now = true;
    await Promise.all(bots);

    expect(backup, backup.output).toMatchObject({
      code: 0,
      output: expect.stringMatching(/^Backed up .* to /),
    });
    expect(existsSync(`${out}.partial`)).toBe(false);
    const copy = await storedSeqs('sqlite', out);
    const missing = before.filter((a) => !(a.kind === 'hop' ? copy.hops : copy.finds).has(a.seq));
    console.log(
      `backup while writing: ${backup.output}; ${before.length} rows acknowledged before it, ` +
        `${writtenDuring} while it ran; ${missing.length} missing from the copy`,
    );
    expect({ integrity: copy.integrity, missing: missing.length, atLeast: before.length >= 200 }).toEqual({
      integrity: 'ok',
      missing: 0,
      atLeast: true,
    });
  });

  it('refuses a PostgreSQL DATABASE_URL in one line, pointing to pg_dump', async () => {
    const res = await runBackup(['--out', join(tmpdir(), 'never-written.db')], {
      DATABASE_URL: 'postgres://scanline@db.example:5432/scanline',
    });
    expect(res.code).not.toBe(0);
    expect(res.output.split('\n')).toHaveLength(1);
    expect(res.output).toMatch(/pg_dump/);
  });

  it('refuses to run without --out, saying how to call it', async () => {
    const res = await runBackup([], { DATABASE_URL: join(tmpdir(), 'whatever.db') });
    expect(res).toEqual({ code: 2, output: expect.stringMatching(/^Usage: npm run backup -- --out FILE/) });
  });
});
