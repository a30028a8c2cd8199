// `npm start`: builds the app only when its sources changed since the build in dist/ was made, then
// runs the server in this process. Plain Node (no TypeScript, no dependency), so it runs before
// anything is built. Usage (docs/development.md, "npm start"):
//   node build/start.mjs                 build if needed, then run dist/server/main.js
//   node build/start.mjs --build-only    build if needed, nothing else
//   node build/start.mjs --before-build  (npm's prebuild)  forget the build's sources: a build is under way
//   node build/start.mjs --after-build   (npm's postbuild) note the sources the finished build was made from
// `--build-command CMD` replaces `npm run build` (the tests give a stand-in).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Everything the build reads (tsconfig.server.json, the two Vite configs and their plugins in build/). */
const BUILD_INPUTS = [
  'server',
  'common',
  'web',
  'bots',
  'build',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.server.json',
  'vite.config.ts',
  'vite.public.config.ts',
];
/** Tests are never built (tsc excludes them, Vite bundles only what the app imports). */
const NOT_BUILT = /\.test\.tsx?$/;
/** The hash of the sources the build in dist/ was made from; absent while a build is under way. */
const STAMP = 'dist/.build-sources';
const PENDING = 'dist/.build-sources.pending';
/** What a build leaves: without them there is nothing to run, whatever the stamp says. */
const OUTPUTS = ['dist/server/main.js', 'dist/web/index.html'];

/** Paths of the files under directory `path` (relative to `root`), sorted: the disk's order does not count. */
function filesUnder(root, path) {
  return readdirSync(join(root, path), { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && !NOT_BUILT.test(entry.name))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const child = `${path}/${entry.name}`;
      return entry.isDirectory() ? filesUnder(root, child) : [child];
    });
}

/**
 * One hash of every build input's path and contents: a clone, a checkout or a copy that keeps the
 * contents keeps the hash, whatever the files' times say (a fresh clone sets them all to now).
 */
function sourceHash(root) {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    for (const file of statSync(path).isDirectory() ? filesUnder(root, input) : [input]) {
      const content = readFileSync(join(root, file));
      hash.update(`${file}\0${content.length}\0`).update(content);
    }
  }
  return hash.digest('hex');
}

/** Why dist/ must be built again for sources of hash `hash`, or null when it is current. */
function staleBecause(root, hash) {
  if (OUTPUTS.some((output) => !existsSync(join(root, output)))) return 'there is no build yet';
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return 'the last build was not finished, or not made by npm run build';
  return readFileSync(stamp, 'utf8').trim() === hash ? null : 'the sources changed since the last build';
}

function writeStamp(root, path, hash) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, path), `${hash}\n`);
}

/** Builds when the sources changed (with `buildCommand`); exits with the build's code when it fails. */
function buildIfNeeded(root, buildCommand) {
  const hash = sourceHash(root);
  const reason = staleBecause(root, hash);
  if (reason === null) {
    console.log('[start] the build is current (no source changed since it was made): not building');
    return;
  }
  console.log(`[start] building, because ${reason}: ${buildCommand}`);
  const build = spawnSync(buildCommand, { cwd: root, shell: true, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`[start] the build failed (exit ${build.status ?? build.signal}): not starting`);
    process.exit(build.status || 1);
  }
  // npm run build's postbuild has noted its sources already; a build run another way gets it here.
  writeStamp(root, STAMP, hash);
}

const root = process.cwd();
const args = process.argv.slice(2);
const commandAt = args.indexOf('--build-command');
const buildCommand = commandAt === -1 ? 'npm run build' : args[commandAt + 1];

if (args.includes('--before-build')) {
  rmSync(join(root, STAMP), { force: true });
  writeStamp(root, PENDING, sourceHash(root));
} else if (args.includes('--after-build')) {
  if (existsSync(join(root, PENDING))) renameSync(join(root, PENDING), join(root, STAMP));
} else {
  buildIfNeeded(root, buildCommand);
  // The server in this process: its own signal handling (graceful shutdown) applies as it is.
  if (!args.includes('--build-only')) await import(pathToFileURL(join(root, 'dist/server/main.js')).href);
}
