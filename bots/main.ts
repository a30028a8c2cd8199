/*
 * `npm run simulate`: a fleet of simulated scanner bots against a running server, so every live
 * screen moves. Each bot enrolls with the shared bot token and keeps its own botToken in
 * --credentials (./data/simulator-bots.json). Options: `npm run simulate -- --help`. Ctrl-C releases the bots' servers and
 * closes their sockets normally before exiting.
 */
import { fileCredentials } from './credentials.ts';
import { OptionsError, parseOptions, USAGE } from './options.ts';
import { Simulator } from './simulator.ts';

let options: ReturnType<typeof parseOptions>;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof OptionsError)) throw error;
  console.error(`simulate: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (!options) {
  console.log(USAGE);
  process.exit(0);
}

// The bots' own botTokens outlive the run, so the next one renews them rather than being refused.
const simulator = new Simulator(
  options,
  Math.random,
  undefined,
  fileCredentials(options.credentialsFile, options.url),
);
let stopping = false;
async function stop(reason: string): Promise<void> {
  if (stopping) {
    // A second Ctrl-C while releasing: give up at once.
    process.exit(130);
  }
  stopping = true;
  console.log(`\n[simulate] ${reason}: releasing servers and closing sockets…`);
  await simulator.stop();
  console.log(simulator.statusLine());
  process.exit(0);
}
process.on('SIGINT', () => void stop('interrupted'));
process.on('SIGTERM', () => void stop('terminated'));

console.log(
  `[simulate] ${options.bots} bots against ${options.url}, a hop every ${options.hopIntervalMs} ms, ` +
    `${options.discoveryRate} finds per bot per minute, ${Math.round(options.failureRate * 100)}% failed hops`,
);
if (options.silentBots.length > 0 || options.failingBots.length > 0) {
  console.log(
    `[simulate] never acknowledging configs: ${options.silentBots.join(', ') || 'none'}; ` +
      `refusing configs: ${options.failingBots.join(', ') || 'none'}`,
  );
}
await simulator.start();
if (options.durationSeconds > 0) {
  setTimeout(() => void stop(`${options.durationSeconds} s passed`), options.durationSeconds * 1000);
}
