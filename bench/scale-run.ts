/*
 * One bench:scale run: the deployment (bench/scale-deployment.ts), the admin signed in with a
 * dashboard socket on the last instance, the fleet connecting over the ramp; after a warm-up, the
 * measured seconds (CPU and RSS from /proc, /healthz and dashboard stats sampled, every hop timed to
 * the admin socket, the event loop's p99 from /metrics); then everything stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { logIn, openAdminSocket } from './scale-admin-socket.ts';
import { ADMIN_SECRET, BOT_TOKEN, type Instance, startDeployment } from './scale-deployment.ts';
import { type FleetCounters, type FleetProcess, startFleet } from './scale-fleet-process.ts';
import { absoluteNow, HopTimer } from './scale-hop-timer.ts';
import type { RunPlan } from './scale-options.ts';
import {
  LatencySampler,
  type LatencySamples,
  ProcessSampler,
  readListenOverflows,
  scrapeLoopLagP99,
} from './scale-probes.ts';
import type { RunResult } from './scale-report.ts';
import type { Teardown } from './scale-teardown.ts';

/**
 * Once every bot is connected, one hop interval (the simulator's 5 s) before measuring: every bot has
 * said hello, settled and hopped once.
 */
export const WARM_UP_SECONDS = 5;
/** How long past the ramp the bench waits for every bot to connect before measuring anyway. */
const CONNECT_GRACE_SECONDS = 30;
/** /healthz and dashboard stats are each asked this often per instance. */
const SAMPLES_PER_SECOND = 4;
/** The dashboard's stats call (web/pages/admin/shared/query-keys.ts, dashboardStats). */
const STATS_PATH = '/api/admin/dashboard/stats';

export async function runOnce(
  plan: RunPlan,
  seconds: number,
  postgresServerUrl: string,
  teardown: Teardown,
  log: (line: string) => void,
): Promise<RunResult> {
  const deployment = await startDeployment(plan, postgresServerUrl, teardown);
  log(deployment.describe);
  const { instances } = deployment;
  const adminSide = instances.at(-1)!;
  const cookie = await logIn(adminSide.url, ADMIN_SECRET);
  const timer = new HopTimer();
  const admin = await openAdminSocket(adminSide.url, cookie, (botId, jobId, at) =>
    timer.onArrived(botId, jobId, at),
  );
  teardown.add('the admin socket', () => admin.close());

  const fleet = startFleet(
    { url: deployment.fleetUrl, token: BOT_TOKEN, bots: plan.bots, rampSeconds: plan.rampSeconds },
    (hops) => {
      for (const [ghostId, jobId, at, instance] of hops) timer.onSent(ghostId, jobId, at, instance);
    },
  );
  const stopFleet = teardown.add('the fleet', async () => {
    await fleet.stop();
  });
  log(
    `${plan.bots} bots enrolling, then connecting over ${plan.rampSeconds} s through ${deployment.fleetUrl} …`,
  );
  await fleet.started;
  await waitForConnections(fleet, plan, log);
  await sleep(WARM_UP_SECONDS * 1000);

  log(`measuring for ${seconds} s …`);
  const measured = await measure(fleet, instances, cookie, timer, seconds);
  for (const instance of instances) {
    const gone = instance.gone();
    if (gone) log(`instance ${instance.name} stopped during the run: ${gone}`);
  }
  // Stopping the fleet flushes the last hops it sent; the admin socket has had them by then.
  await stopFleet();

  const { before, after, elapsedS, usage, lags, latencies } = measured;
  const same = timer.samples.filter((s) => plan.instances === 1 || s.instance === adminSide.address);
  const other = timer.samples.filter((s) => plan.instances === 2 && s.instance === instances[0]!.address);
  return {
    plan,
    seconds: elapsedS,
    connected: after.connected,
    connectedMin: measured.connectedMin,
    hopsOfferedPerSecond: (after.hops - before.hops) / elapsedS,
    hopsHandledPerSecond: (after.handled - before.handled) / elapsedS,
    claims: { poolEmpty: after.poolEmpty, refused: after.claimsRefused, failed: after.claimsFailed },
    errors: after.errors,
    lastError: after.lastError,
    instances: instances.map((i, n) => ({ name: i.name, ...usage[i.name]!, loopLagP99Ms: lags[n] ?? null })),
    fleetCpuMeanPercent: usage.fleet?.cpuMeanPercent ?? Number.NaN,
    healthz: merged(latencies.map((l) => l.healthz)),
    stats: merged(latencies.map((l) => l.stats)),
    hopToAdminOther: other.map((s) => s.ms),
    hopToAdminSame: same.map((s) => s.ms),
    hopsSentInWindow: timer.sentInWindow,
    connectionShortages: deployment.connectionShortages(),
    refusedUpgrades: deployment.refusedUpgrades(),
    listenOverflows: measured.listenOverflows,
  };
}

/** Waits until every bot is connected, or CONNECT_GRACE_SECONDS past the ramp, and says which. */
async function waitForConnections(fleet: FleetProcess, plan: RunPlan, log: (line: string) => void) {
  const rampStarted = performance.now();
  const connectBy = rampStarted + (plan.rampSeconds + CONNECT_GRACE_SECONDS) * 1000;
  let { connected } = await fleet.counters();
  while (connected < plan.bots && performance.now() < connectBy) {
    await sleep(1_000);
    ({ connected } = await fleet.counters());
  }
  const tookS = ((performance.now() - rampStarted) / 1000).toFixed(0);
  log(
    connected === plan.bots
      ? `all ${plan.bots} connected within ${tookS} s; warming up ${WARM_UP_SECONDS} s …`
      : `${connected} of ${plan.bots} connected after ${tookS} s: measuring anyway, after ${WARM_UP_SECONDS} s …`,
  );
}

/** The measured seconds: the fleet's counters at both ends, each process's usage, the samples. */
async function measure(
  fleet: FleetProcess,
  instances: readonly Instance[],
  cookie: string,
  timer: HopTimer,
  seconds: number,
) {
  const before = await fleet.counters();
  const overflowsBefore = readListenOverflows();
  await Promise.all(instances.map((i) => scrapeLoopLagP99(i.url))); // resets the servers' histograms
  const processes = new ProcessSampler({
    ...Object.fromEntries(instances.map((i) => [i.name, i.pid])),
    fleet: fleet.pid,
  });
  const samplers = instances.map((i) => ({
    healthz: new LatencySampler(`${i.url}/healthz`, {}, SAMPLES_PER_SECOND),
    stats: new LatencySampler(`${i.url}${STATS_PATH}`, { cookie }, SAMPLES_PER_SECOND),
  }));
  const startedAt = performance.now();
  const from = absoluteNow();
  timer.measure(from, from + seconds * 1000);
  processes.start();
  for (const s of samplers) for (const sampler of [s.healthz, s.stats]) sampler.start();
  let connectedMin = before.connected;
  let after: FleetCounters = before;
  while (performance.now() - startedAt < seconds * 1000) {
    await sleep(Math.min(1_000, seconds * 1000 - (performance.now() - startedAt)));
    after = await fleet.counters();
    connectedMin = Math.min(connectedMin, after.connected);
  }
  const elapsedS = (performance.now() - startedAt) / 1000;
  const lags = await Promise.all(instances.map((i) => scrapeLoopLagP99(i.url)));
  const overflowsAfter = readListenOverflows();
  const listenOverflows =
    overflowsBefore === null || overflowsAfter === null ? null : overflowsAfter - overflowsBefore;
  const usage = processes.stop();
  const latencies = await Promise.all(
    samplers.map(async (s) => ({ healthz: await s.healthz.stop(), stats: await s.stats.stop() })),
  );
  return { before, after, connectedMin, elapsedS, lags, usage, latencies, listenOverflows };
}

/** Every instance's samples of one call together. */
function merged(of: readonly LatencySamples[]): LatencySamples {
  return {
    ms: of.flatMap((l) => l.ms),
    timedOut: of.reduce((sum, l) => sum + l.timedOut, 0),
    failed: of.reduce((sum, l) => sum + l.failed, 0),
  };
}
