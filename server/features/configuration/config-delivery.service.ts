import type { z } from 'zod';
import { type ConfigFramePayload, NO_ACKNOWLEDGEMENT } from '../../../common/configuration.ts';
import type { ConfigAckPayloadSchema } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import {
  expireConfiguration,
  findBotsPastDeadline,
  insertDefaultConfigurations,
  lockConfigurations,
  markConfigurationSent,
  parametersOfRow,
  setConfigurationSocket,
  settleConfiguration,
} from './bot-configurations.store.ts';
import { afterCommit, CONFIGURATION_TEXTS } from './configuration.service.ts';
import { countTargetStates, markTargetsSent, settleTargets } from './configuration-changes.store.ts';
import { findEmergencyState } from './emergency.store.ts';

/*
 * The bots' side of a push: a bot is sent its configuration when it says hello, answers it
 * (config_ack), or fails it at the acknowledgement deadline; dashboards hear how each change stands.
 */

/** Where the configuration service sends a bot's frames on the socket that said hello. */
export interface BotSocket {
  id: string;
  send(type: 'config' | 'emergency_stop', payload: unknown): void;
}

/**
 * A bot said hello on a socket: it gets a configuration (the defaults, the first time) and is sent
 * its latest version now, which starts the acknowledgement deadline of everything still pending for
 * it; while the network is stopped, it is told to stop right after.
 */
export async function botConnected(ctx: AppContext, botId: string, socket: BotSocket): Promise<void> {
  const now = ctx.now();
  await insertDefaultConfigurations(ctx.db, [botId], now);
  const deadline = now + ctx.config.CONFIG_ACK_DEADLINE_MS;
  const row = await ctx.db.transaction().execute(async (trx) => {
    const [locked] = await lockConfigurations(trx, ctx.dialect, [botId]);
    if (!locked) throw new Error(`no configuration for ${botId}`);
    await setConfigurationSocket(trx, botId, socket.id);
    await markConfigurationSent(trx, botId, Number(locked.version), now, deadline);
    await markTargetsSent(trx, botId, now, deadline);
    return locked;
  });
  const emergency = await findEmergencyState(ctx.db);
  socket.send('config', {
    version: Number(row.version),
    parameters: parametersOfRow(row),
  } satisfies ConfigFramePayload);
  if (emergency.stopped) socket.send('emergency_stop', { reason: emergency.reason ?? '' });
}

/** The bot's socket closed: pushes to it wait for its next hello (unless another socket took over). */
export async function botDisconnected(ctx: AppContext, botId: string, socketId: string): Promise<void> {
  await setConfigurationSocket(ctx.db, botId, null, socketId);
}

/**
 * The bot answered a `config` frame: its pending targets up to that version are applied (or failed
 * with its error), and so is its configuration when that is its latest version. An answer for a
 * version it was never sent changes nothing.
 */
export async function acknowledgeConfig(
  ctx: AppContext,
  botId: string,
  ack: z.output<typeof ConfigAckPayloadSchema>,
): Promise<void> {
  const now = ctx.now();
  const outcome = ack.ok
    ? { state: 'applied' as const, error: null }
    : { state: 'failed' as const, error: ack.error?.trim() || CONFIGURATION_TEXTS.botRefused };
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const [row] = await lockConfigurations(trx, ctx.dialect, [botId]);
    if (!row || ack.version > Number(row.version)) return [];
    await settleConfiguration(trx, botId, ack.version, outcome, now);
    return settleTargets(trx, botId, outcome, now, { upToVersion: ack.version });
  });
  await announceProgress(ctx, moved);
}

/**
 * Counts every target (and latest version) past its deadline as failed ('no acknowledgement').
 * Runs on every instance; each bot is settled in its own transaction under its row's lock, so two
 * sweeps, or a sweep and an answer, never settle a target twice. Returns how many bots it settled.
 */
export async function expireUnacknowledged(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const failure = { state: 'failed' as const, error: CONFIGURATION_TEXTS.noAcknowledgement };
  const moved = new Set<number>();
  let settled = 0;
  for (const botId of await findBotsPastDeadline(ctx.db, now)) {
    const changes = await ctx.db.transaction().execute(async (trx) => {
      await lockConfigurations(trx, ctx.dialect, [botId]);
      const expired = await expireConfiguration(trx, botId, failure.error, now);
      const changes = await settleTargets(trx, botId, failure, now, { pastDeadline: true });
      if (expired || changes.length > 0) settled++;
      return changes;
    });
    for (const id of changes) moved.add(id);
  }
  await announceProgress(ctx, [...moved]);
  return settled;
}

/**
 * Tells dashboards how the changes' targets stand now. Acknowledgements settle concurrently, so the
 * counting is done one announcement at a time: the last one counted after the last settlement,
 * and the newest copy (all a dashboard keeps of this replaceable type) is never an older count.
 */
function announceProgress(ctx: AppContext, changeIds: number[]): Promise<void> {
  if (changeIds.length === 0) return Promise.resolve();
  const announce = async () => {
    for (const changeId of changeIds) {
      const { counts, unanswered } = await countTargetStates(ctx.db, changeId, NO_ACKNOWLEDGEMENT);
      await ctx.services.publisher
        .toAll('admin', 'configuration_progress', {
          changeId: String(changeId),
          counts,
          unanswered,
        })
        .catch(afterCommit);
    }
  };
  return ctx.services.configurationProgress.run(announce);
}
