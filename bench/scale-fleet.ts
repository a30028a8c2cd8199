/*
 * bench:scale's fleet: the bot simulator (bots/simulator.ts) in its own process, started by
 * bench/scale-fleet-process.ts with its settings in SCALE_FLEET. It reports over IPC: 'started' once
 * every bot is enrolled and the connects are under way, every hop as it goes out (batched every
 * 100 ms, with the instance behind nginx its bot's socket is on), and its counters when asked.
 * 'stop' (or the bench going away) stops the fleet: servers released, sockets closed.
 */
import { parseOptions } from '../bots/options.ts';
import { Simulator } from '../bots/simulator.ts';
import { UPSTREAM_HEADER } from '../tests/operations/nginx.ts';
import type { FleetConfig, FleetCounters, FleetMessage, HopSent } from './scale-fleet-process.ts';
import { absoluteNow } from './scale-hop-timer.ts';

const config = JSON.parse(process.env.SCALE_FLEET ?? '') as FleetConfig;
const options = parseOptions(
  [
    ...['--bots', String(config.bots), '--url', config.url, '--token', config.token],
    ...['--ramp-s', String(config.rampSeconds), '--status-interval', '0'],
  ],
  {},
  () => '',
);
if (!options) throw new Error('no simulator options');
const simulator = new Simulator(options, Math.random, () => {});

// With a callback a failed send (the bench gone) is passed to it rather than thrown as an 'error' event.
const send = (message: FleetMessage) => {
  if (process.connected) process.send?.(message, undefined, {}, () => {});
};

let handled = 0;
simulator.onAcknowledged = (event) => {
  if (event.type === 'server_hop') handled += 1;
};
/** Which instance each bot's socket is on: the header the bench's nginx adds ('' without nginx). */
const instanceOf = new Map<string, string>();
simulator.onSocketOpened = (ghostId, headers) =>
  instanceOf.set(ghostId, String(headers[UPSTREAM_HEADER] ?? ''));
let hops: HopSent[] = [];
simulator.onHopSent = (ghostId, jobId) =>
  hops.push([ghostId, jobId, absoluteNow(), instanceOf.get(ghostId) ?? '']);
const flush = () => {
  if (hops.length > 0) send({ type: 'hops', hops });
  hops = [];
};
const flushing = setInterval(flush, 100);

function counters(): FleetCounters {
  const { hops, poolEmpty, claimsRefused, claimsFailed, errors, lastError } = simulator.counters;
  return {
    connected: simulator.connectedBots,
    hops,
    handled,
    poolEmpty,
    claimsRefused,
    claimsFailed,
    errors,
    lastError,
  };
}

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await simulator.stop();
  clearInterval(flushing);
  flush();
  send({ type: 'counters', counters: counters() });
  process.exit(0);
}

process.on('message', (message) => {
  if (message === 'counters') send({ type: 'counters', counters: counters() });
  else if (message === 'stop') void stop();
});
// The bench went away without stopping us: do not outlive it.
process.once('disconnect', () => void stop());
// Ctrl-C reaches the whole process group: the bench stops the servers, nothing to release here.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

await simulator.start();
send({ type: 'started' });
