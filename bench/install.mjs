#!/usr/bin/env node
/*
 * `node bench/install.mjs`: installs the benchmarks' own packages (bench/package.json: Lighthouse,
 * autocannon) into bench/node_modules when they are missing or older than bench/package-lock.json,
 * so the app's `npm ci` stays lean. The bench scripts that need them (bench:lighthouse, bench:loader)
 * run it first; on a later run it only checks and prints nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = dirname(fileURLToPath(import.meta.url));
const lock = join(bench, 'package-lock.json');
// npm writes node_modules/.package-lock.json on every install: newer than the lockfile means in step.
const installed = join(bench, 'node_modules', '.package-lock.json');

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('bench: installing the benchmark tools into bench/node_modules (npm ci, first run only) …');
  // Under `npm run`, npm_execpath is the running npm's CLI: use the same npm, on every platform.
  const npm = process.env.npm_execpath;
  const args = ['ci', '--no-audit', '--no-fund'];
  const result = npm?.endsWith('.js')
    ? spawnSync(process.execPath, [npm, ...args], { cwd: bench, stdio: 'inherit' })
    : spawnSync('npm', args, { cwd: bench, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error('bench: `npm ci` in bench/ failed; run it there by hand to see why.');
    process.exit(result.status ?? 1);
  }
}
