import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/*
 * Debian's nginx running docs/deploy/nginx.conf as an unprivileged test process: the site file with
 * its listen port and two upstream addresses rewritten, inside a minimal main configuration whose
 * pid, logs and temp files are all in the test's own directory.
 */

const ROOT = resolve(import.meta.dirname, '../..');
export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
export const DEPLOY_CONFIG = join(ROOT, 'docs/deploy/nginx.conf');
/** The main-context lines the docs give for a fleet (events, open-file limit). */
export const DEPLOY_MAIN_CONFIG = join(ROOT, 'docs/deploy/nginx-main.conf');

/** The response header naming the instance that answered (added by the test's main configuration only). */
export const UPSTREAM_HEADER = 'x-test-upstream';

export interface NginxProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** The deploy site file with this listen port and these two upstream ports; fails if the file changed shape. */
export function templatedSite(listenPort: number, upstreamPorts: [number, number]): string {
  let site = readFileSync(DEPLOY_CONFIG, 'utf8');
  const swaps: [string, string][] = [
    ['listen 80;', `listen 127.0.0.1:${listenPort};`],
    ['server 127.0.0.1:5001 ', `server 127.0.0.1:${upstreamPorts[0]} `],
    ['server 127.0.0.1:5002 ', `server 127.0.0.1:${upstreamPorts[1]} `],
  ];
  for (const [from, to] of swaps) {
    if (site.split(from).length !== 2)
      throw new Error(`${DEPLOY_CONFIG} no longer has "${from}" exactly once`);
    site = site.replace(from, to);
  }
  return site;
}

/** The documented main context, with one worker: the test's sockets all meet the same worker's limit. */
function documentedMain(): string {
  const main = readFileSync(DEPLOY_MAIN_CONFIG, 'utf8');
  const from = 'worker_processes auto;';
  if (main.split(from).length !== 2)
    throw new Error(`${DEPLOY_MAIN_CONFIG} no longer has "${from}" exactly once`);
  return main.replace(from, 'worker_processes 1;');
}

function mainConfig(dir: string): string {
  // Started by root (CI), nginx would run its worker as nobody, who cannot write the temp dirs here.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${documentedMain()}
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    # The test's window on which instance answered; not part of the deploy configuration.
    add_header X-Test-Upstream $upstream_addr always;
    include ${dir}/scanline.conf;
}
`;
}

/** Starts nginx in `dir` (a fresh temp dir) and waits until it passes a request through. */
export async function startNginx(
  dir: string,
  listenPort: number,
  upstreamPorts: [number, number],
): Promise<NginxProcess> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'scanline.conf'), templatedSite(listenPort, upstreamPorts));
  writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir));
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + String(d)).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const url = `http://127.0.0.1:${listenPort}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGQUIT'); // graceful: finishes open requests, closes sockets
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited while starting:\n${output}${errorLog()}`);
    try {
      if ((await fetch(`${url}/api/public/purchase-info`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not pass a request within 30 s:\n${output}${errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, output: () => output + errorLog(), stop };
}
