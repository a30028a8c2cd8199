import type { z } from 'zod';
import type { EmergencyRequestSchema, EmergencyResult } from '../../../common/configuration.ts';
import type { AppContext } from '../../context.ts';
import { conflict } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { findConfigurations } from './bot-configurations.store.ts';
import {
  actorOf,
  afterCommit,
  byBotId,
  type Caller,
  CONFIGURATION_TEXTS,
  isReachable,
  onlineBots,
} from './configuration.service.ts';
import { insertChange } from './configuration-changes.store.ts';
import { findEmergencyState, switchEmergency } from './emergency.store.ts';

/**
 * Stops or resumes the whole network: the state is kept in the database (a restart or another
 * instance keeps it; a bot saying hello while stopped is told at once), recorded as a change whose
 * targets are the bots reached, audited, then sent to every bot socket on every instance.
 */
export async function switchNetwork(
  ctx: AppContext,
  stop: boolean,
  request: z.output<typeof EmergencyRequestSchema>,
  caller: Caller,
): Promise<EmergencyResult> {
  const { reason } = request;
  const now = ctx.now();
  const { heard } = onlineBots(ctx);
  const kind = stop ? 'emergency_stop' : 'emergency_resume';
  const reached = await ctx.db.transaction().execute(async (trx) => {
    if (!(await switchEmergency(trx, stop, reason, now))) {
      throw conflict(stop ? CONFIGURATION_TEXTS.alreadyStopped : CONFIGURATION_TEXTS.alreadyRunning);
    }
    const rows = await findConfigurations(trx);
    const reached = rows
      .filter((r) => isReachable(r, heard))
      .map((r) => r.bot_id)
      .sort(byBotId);
    await insertChange(
      trx,
      {
        kind,
        actor: actorOf(caller),
        reason,
        isEmergency: true,
        targets: reached.map((botId) => ({
          botId,
          version: null,
          before: {},
          after: {},
          profileBefore: null,
          state: 'applied',
          sentAt: now,
          deadline: null,
          respondedAt: now,
        })),
      },
      now,
    );
    await insertAuditLog(
      trx,
      {
        eventType: `configuration_${kind}`,
        success: true,
        ipAddress: caller.ip,
        details: { reason, affectedBots: reached.length },
      },
      now,
    );
    return reached;
  });
  await ctx.services.publisher.toAll('bot', kind, { reason }).catch(afterCommit);
  await ctx.services.publisher
    .toAll('admin', 'emergency_control', {
      action: stop ? 'EMERGENCY_STOP' : 'EMERGENCY_RESUME',
      reason,
      affectedBots: reached.length,
    })
    .catch(afterCommit);
  return { affectedBots: reached.length, emergency: await findEmergencyState(ctx.db) };
}

/**
 * Tells this instance's bot sockets whether the network is stopped: after a Redis outage, in which a
 * stop or resume made on another instance may not have reached them.
 */
export async function resendNetworkState(ctx: AppContext): Promise<void> {
  const { stopped, reason } = await findEmergencyState(ctx.db);
  ctx.services.transport.sendHere('bot', stopped ? 'emergency_stop' : 'emergency_resume', {
    reason: reason ?? '',
  });
}
