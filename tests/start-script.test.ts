import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * `npm start` (build/start.mjs) on a small project of its own: its build is a stand-in that writes
 * dist/ and counts its runs, so no test waits for Vite.
 */

const START = resolve(import.meta.dirname, '../build/start.mjs');
const FAKE_BUILD = `node fake-build.mjs`;

/** The stand-in build: what a real one leaves in dist/, and a line in builds.log per run. */
const FAKE_BUILD_SOURCE = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
if (process.env.FAIL_BUILD) process.exit(2);
mkdirSync('dist/server', { recursive: true });
mkdirSync('dist/web', { recursive: true });
writeFileSync('dist/server/main.js', "console.log('the server runs');\\n");
writeFileSync('dist/web/index.html', '<!doctype html>');
appendFileSync('builds.log', 'built\\n');
`;

let root = '';

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** `node build/start.mjs ARGS` in the project, with the stand-in build. */
function start(args: string[] = ['--build-only'], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [START, ...args, '--build-command', FAKE_BUILD], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

const builds = () => readFileSync(join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;

// Each case starts Node several times: seconds on a busy machine.
describe('npm start (build/start.mjs)', { timeout: 30_000 }, () => {
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  function freshClone(): void {
    root = mkdtempSync(join(tmpdir(), 'scanline-start-'));
    write('fake-build.mjs', FAKE_BUILD_SOURCE);
    write('builds.log', '');
    write('package.json', '{"name":"demo","type":"module"}');
    write('package-lock.json', '{}');
    write('server/main.ts', 'export const answer = 42;');
    write('server/main.test.ts', 'test');
    write('common/text.ts', 'export const text = 1;');
    write('web/index.html', '<div id="root"></div>');
    write('vite.config.ts', 'export default {};');
  }

  it('builds on a fresh clone, then starts without building while no source changed', () => {
    freshClone();
    expect(start()).toMatchObject({ status: 0, output: expect.stringContaining('there is no build yet') });
    expect(builds()).toBe(1);
    const again = start();
    expect(again.output).toContain('the build is current');
    expect(builds()).toBe(1);
    // What a checkout does to every file's time changes nothing while the contents stay.
    utimesSync(join(root, 'server/main.ts'), new Date(), new Date(Date.now() + 60_000));
    start();
    expect(builds()).toBe(1);
  });

  it('builds again when a source, a new file, the lockfile or a config changed, not for a test', () => {
    freshClone();
    start();
    const changes: [string, () => void][] = [
      ['a changed source', () => write('server/main.ts', 'export const answer = 43;')],
      ['a new file', () => write('web/pages/new-page.tsx', 'export {};')],
      ['the lockfile', () => write('package-lock.json', '{"lockfileVersion":3}')],
      ['a Vite config', () => write('vite.config.ts', 'export default { base: "/" };')],
    ];
    let expected = 1;
    for (const [what, change] of changes) {
      change();
      expect(start().output, what).toContain('the sources changed since the last build');
      expected += 1;
      expect(builds(), what).toBe(expected);
      expect(start().output, what).toContain('the build is current');
    }
    write('server/main.test.ts', 'another test');
    start();
    expect(builds()).toBe(expected);
  });

  it('builds again when dist lost a part, or a build did not finish', () => {
    freshClone();
    start();
    rmSync(join(root, 'dist/web/index.html'));
    start();
    expect(builds()).toBe(2);

    write('common/text.ts', 'export const text = 2;');
    const failed = start([], { FAIL_BUILD: '1' });
    expect(failed.status).toBe(2);
    expect(failed.output).toContain('the build failed (exit 2): not starting');
    expect(failed.output).not.toContain('the server runs');
    expect(start().output).toContain('the sources changed since the last build');
    expect(builds()).toBe(3);
  });

  it("takes npm run build's own build as current (its prebuild and postbuild), and starts the server", () => {
    freshClone();
    const npmRunBuild = ({ finished }: { finished: boolean }) => {
      spawnSync(process.execPath, [START, '--before-build'], { cwd: root });
      spawnSync(process.execPath, ['fake-build.mjs'], { cwd: root });
      if (finished) spawnSync(process.execPath, [START, '--after-build'], { cwd: root });
    };
    // A build stopped half-way (Ctrl-C, a type error in build:server) leaves no stamp: the next start builds.
    npmRunBuild({ finished: false });
    expect(start().output).toContain('the last build was not finished');
    expect(builds()).toBe(2);

    write('server/main.ts', 'export const answer = 44;');
    npmRunBuild({ finished: true });
    const started = start([]);
    expect(started).toMatchObject({ status: 0 });
    expect(started.output).toContain('the build is current');
    expect(started.output).toContain('the server runs');
    expect(builds()).toBe(3);
  });
});
