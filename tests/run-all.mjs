#!/usr/bin/env node
// `npm test`: builds the app (the browser tests drive the built server), runs every Vitest project,
// and ends with the plain line "N passed, N failed" that CI reads. Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const bin = (name) => `./node_modules/.bin/${name}`;
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status ?? 1;

// Static checks first: a type error or lint finding fails the run like a failing test would.
for (const [name, cmd, args] of [
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['lint', bin('biome'), ['check', '.']],
  ['build', 'npm', ['run', '--silent', 'build']],
]) {
  if (run(cmd, args) !== 0) {
    console.log(`\n${name} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const results = '.vitest-results.json';
rmSync(results, { force: true });
const status = run(bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${results}`,
  ...process.argv.slice(2),
]);

if (!existsSync(results)) {
  console.log('0 passed, 1 failed');
  process.exit(status || 1);
}
const report = JSON.parse(readFileSync(results, 'utf8'));
const failed = report.numFailedTests + (report.numFailedTestSuites ?? 0);
console.log(`\n${report.numPassedTests} passed, ${failed} failed`);
process.exit(failed > 0 || status !== 0 ? 1 : 0);
