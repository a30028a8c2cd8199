import type { ConfigFramePayload } from '../../../common/configuration.ts';
import type { AppContext } from '../../context.ts';
import type { WaitingFrame } from '../fleet/http-bot-frames.ts';
import {
  insertDefaultConfigurations,
  lockConfigurations,
  markConfigurationSent,
  parametersOfRow,
  setEmergencyTold,
} from './bot-configurations.store.ts';
import { markTargetsSent } from './configuration-changes.store.ts';
import { findEmergencyState } from './emergency.store.ts';

/**
 * The frames waiting for a bot that speaks only POST /api/bot/events, handed over in its answer:
 * - its latest `config` while that version is pending. The first hand-over starts the deadline of
 *   everything pending for it (as a socket's hello does); until it acknowledges, each call hands it
 *   again (an answer may be lost) without moving the deadline, so a bot that never acknowledges
 *   fails at the deadline counted from the first hand-over;
 * - `emergency_stop` / `emergency_resume` when the network's state differs from what it was last told.
 * A bot with a socket on record gets its frames there, so nothing is handed over here.
 */
export async function handOverFrames(ctx: AppContext, botId: string): Promise<WaitingFrame[]> {
  const now = ctx.now();
  await insertDefaultConfigurations(ctx.db, [botId], now);
  const emergency = await findEmergencyState(ctx.db);
  return ctx.db.transaction().execute(async (trx) => {
    const [row] = await lockConfigurations(trx, ctx.dialect, [botId]);
    if (!row || row.socket_id !== null) return [];
    const frames: WaitingFrame[] = [];
    if (row.deploy_state === 'pending') {
      const version = Number(row.version);
      if (row.ack_deadline_at === null) {
        const deadline = now + ctx.config.CONFIG_ACK_DEADLINE_MS;
        await markConfigurationSent(trx, botId, version, now, deadline);
        await markTargetsSent(trx, botId, now, deadline);
      }
      const payload: ConfigFramePayload = { version, parameters: parametersOfRow(row) };
      frames.push({ type: 'config', payload });
    }
    const told = row.emergency_told === null ? null : Number(row.emergency_told) === 1;
    // A bot never told anything runs: it needs telling only when the network is stopped.
    if (told !== emergency.stopped && (told !== null || emergency.stopped)) {
      const type = emergency.stopped ? 'emergency_stop' : 'emergency_resume';
      frames.push({ type, payload: { reason: emergency.reason ?? '' } });
      await setEmergencyTold(trx, botId, emergency.stopped);
    }
    return frames;
  });
}
