/*
 * The login benchmark's flood, in a worker thread (bench/login-flood.ts starts it) so the admin's
 * timings on the main thread do not wait for this event loop: `addresses` loopback addresses
 * (127.0.1.1 …) each send wrong admin secrets on one kept-alive connection, the next `paceMs` after
 * the last was answered, until told to stop; then it posts how many answers of each status it got.
 */
import { Agent } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { login } from './login-client.ts';
import { loopbackAddress, sleep } from './realtime-clients.ts';

const { port, addresses, paceMs } = workerData as { port: number; addresses: number; paceMs: number };
let flooding = true;
const statuses = new Map<number, number>();

async function floodFrom(n: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; flooding; i++) {
    const { status } = await login(port, loopbackAddress(n), `wrong-${n}-${i}`, agent);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (paceMs > 0) await sleep(paceMs);
  }
  agent.destroy();
}

const flood = Array.from({ length: addresses }, (_, n) => floodFrom(n));
parentPort?.postMessage({ started: true });
parentPort?.once('message', async () => {
  flooding = false;
  await Promise.all(flood);
  parentPort?.postMessage({ statuses: [...statuses] });
});
