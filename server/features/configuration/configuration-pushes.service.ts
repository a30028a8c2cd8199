import type { z } from 'zod';
import type { AuditEventType } from '../../../common/audit-events.ts';
import {
  type ApplyProfileRequestSchema,
  type BotParameters,
  type BulkUpdateRequestSchema,
  type ChangeResult,
  type ConfigFramePayload,
  PROFILE_PARAMETERS,
  parameterConflict,
  type RollbackRequestSchema,
} from '../../../common/configuration.ts';
import type { AppContext } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../http-error.ts';
import { botTopic } from '../fleet/bot-topic.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  insertDefaultConfigurations,
  lockConfigurations,
  parametersOfRow,
  updateConfigurationValues,
} from './bot-configurations.store.ts';
import {
  actorOf,
  afterCommit,
  byBotId,
  type Caller,
  CONFIGURATION_TEXTS,
  isReachable,
  onlineBots,
} from './configuration.service.ts';
import {
  findChange,
  findTargetsOfChanges,
  insertChange,
  isEmergencyChange,
  type NewTarget,
  targetRowToTarget,
} from './configuration-changes.store.ts';
import {
  findProfile,
  incrementProfileUsage,
  type ProfileRow,
  profileRowToProfile,
} from './configuration-profiles.store.ts';

/* Pushes: a change to some bots' values (by hand, a profile, a rollback), recorded, sent and announced. */

interface Push {
  kind: 'bulk_update' | 'profile' | 'rollback';
  botIds: string[];
  reason: string;
  isEmergency: boolean;
  caller: Caller;
  /** The values this change sets on one bot. */
  updatesFor(botId: string): Partial<BotParameters>;
  /** The bot's profile after the change, when the change set one of a profile's fields. */
  profileFor(botId: string): string | null;
  profile?: ProfileRow;
  rollbackOf?: number;
  audit: { eventType: AuditEventType; details: Record<string, unknown> };
}

const touchesProfile = (updates: Partial<BotParameters>) => PROFILE_PARAMETERS.some((p) => p in updates);

function pick(values: BotParameters, names: string[]): Partial<BotParameters> {
  return Object.fromEntries(names.map((n) => [n, values[n as keyof BotParameters]]));
}

/**
 * One change to some bots, in one transaction: each bot's values and version move, the change record
 * and its targets (pending) are written, and the audit row; any refusal leaves everything as it was.
 * Then each bot is sent its whole parameter set (`config`), and dashboards hear of it.
 */
async function pushChange(ctx: AppContext, push: Push): Promise<ChangeResult> {
  const now = ctx.now();
  const botIds = [...new Set(push.botIds)];
  const { heard } = onlineBots(ctx);
  // A bot the fleet knows but no configuration yet (it only used POST /api/bot/events) gets one first.
  const fleetKnown = ctx.services.fleet.state.scanners;
  await insertDefaultConfigurations(
    ctx.db,
    botIds.filter((id) => fleetKnown.has(id)),
    now,
  );
  const deadline = now + ctx.config.CONFIG_ACK_DEADLINE_MS;

  const { changeId, frames, sent } = await ctx.db.transaction().execute(async (trx) => {
    const rows = await lockConfigurations(trx, ctx.dialect, botIds);
    const found = new Set(rows.map((r) => r.bot_id));
    const unknown = botIds.filter((id) => !found.has(id)).sort(byBotId);
    if (unknown.length > 0) throw notFound(CONFIGURATION_TEXTS.unknownBots(unknown));

    const targets: NewTarget[] = [];
    const frames: Array<{ botId: string; frame: ConfigFramePayload }> = [];
    let sent = 0;
    for (const row of rows) {
      const current = parametersOfRow(row);
      const updates = push.updatesFor(row.bot_id);
      const merged = { ...current, ...updates };
      const problem = parameterConflict(merged);
      if (problem) {
        throw badRequest(
          `${problem} (${row.bot_id} would have minPetValue ${merged.minPetValue} and maxPetValue ${merged.maxPetValue})`,
        );
      }
      const version = Number(row.version) + 1;
      const reachable = isReachable(row, heard);
      if (reachable) sent++;
      const profileId = touchesProfile(updates) ? push.profileFor(row.bot_id) : row.profile_id;
      await updateConfigurationValues(
        trx,
        row.bot_id,
        {
          values: updates,
          version,
          profileId,
          sentAt: reachable ? now : null,
          deadline: reachable ? deadline : null,
        },
        now,
      );
      targets.push({
        botId: row.bot_id,
        version,
        before: pick(current, Object.keys(updates)),
        after: updates,
        profileBefore: row.profile_id,
        state: 'pending',
        sentAt: reachable ? now : null,
        deadline: reachable ? deadline : null,
      });
      frames.push({ botId: row.bot_id, frame: { version, parameters: merged } });
    }
    const changeId = await insertChange(
      trx,
      {
        kind: push.kind,
        actor: actorOf(push.caller),
        reason: push.reason,
        isEmergency: push.isEmergency,
        profileId: push.profile?.id ?? null,
        profileName: push.profile?.name ?? null,
        rollbackOf: push.rollbackOf ?? null,
        targets,
      },
      now,
    );
    if (push.profile) await incrementProfileUsage(trx, push.profile.id);
    await insertAuditLog(
      trx,
      {
        eventType: push.audit.eventType,
        success: true,
        ipAddress: push.caller.ip,
        details: { changeId, bots: botIds.length, reason: push.reason, ...push.audit.details },
      },
      now,
    );
    return { changeId, frames, sent };
  });

  // After the commit, so a bot's quick answer finds its targets. A frame the bus loses is resent
  // when the bot next says hello (and counted failed at the deadline meanwhile).
  await Promise.all(
    frames.map(({ botId, frame }) =>
      ctx.services.publisher.toTopic(botTopic(botId), 'config', frame).catch(afterCommit),
    ),
  );
  await ctx.services.publisher
    .toAll('admin', 'configuration_update', {
      targetedBots: frames.length,
      changeId: String(changeId),
      reason: push.reason,
    })
    .catch(afterCommit);
  return { successful: frames.length, changeId: String(changeId), sent };
}

export async function bulkUpdate(
  ctx: AppContext,
  request: z.output<typeof BulkUpdateRequestSchema>,
  caller: Caller,
): Promise<ChangeResult> {
  const { updates } = request;
  return pushChange(ctx, {
    kind: 'bulk_update',
    botIds: request.targetBotIds,
    reason: request.reason,
    isEmergency: request.isEmergencyUpdate,
    caller,
    updatesFor: () => updates,
    // Values set by hand no longer are the profile's.
    profileFor: () => null,
    audit: {
      eventType: 'configuration_bulk_update',
      details: { updates, isEmergency: request.isEmergencyUpdate },
    },
  });
}

export async function applyProfile(
  ctx: AppContext,
  profileId: string,
  request: z.output<typeof ApplyProfileRequestSchema>,
  caller: Caller,
): Promise<ChangeResult> {
  const profile = await findProfile(ctx.db, profileId);
  if (!profile) throw notFound(CONFIGURATION_TEXTS.unknownProfile(profileId));
  const { hopFrequencyMs, minPetValue, stealthMode, batchSize } = profileRowToProfile(profile);
  const updates = { hopFrequencyMs, minPetValue, stealthMode, batchSize };
  return pushChange(ctx, {
    kind: 'profile',
    botIds: request.targetBotIds,
    reason: request.reason,
    isEmergency: false,
    caller,
    updatesFor: () => updates,
    profileFor: () => profile.id,
    profile,
    audit: { eventType: 'configuration_profile_applied', details: { profileId, profileName: profile.name } },
  });
}

/** Pushes each bot's values from before change `id` as a new change, and tells dashboards. */
export async function rollbackChange(
  ctx: AppContext,
  id: number,
  request: z.output<typeof RollbackRequestSchema>,
  caller: Caller,
): Promise<ChangeResult> {
  const change = await findChange(ctx.db, id);
  if (!change) throw notFound(CONFIGURATION_TEXTS.unknownChange(id));
  if (isEmergencyChange(change.kind)) throw conflict(CONFIGURATION_TEXTS.noEmergencyRollback);
  const rows = await findTargetsOfChanges(ctx.db, [id]);
  const targets = new Map(rows.map((t) => [t.bot_id, targetRowToTarget(t)]));
  const profilesBefore = new Map(rows.map((t) => [t.bot_id, t.profile_before]));
  const result = await pushChange(ctx, {
    kind: 'rollback',
    botIds: [...targets.keys()],
    reason: request.reason,
    isEmergency: false,
    caller,
    updatesFor: (botId) => targets.get(botId)?.before ?? {},
    profileFor: (botId) => profilesBefore.get(botId) ?? null,
    rollbackOf: id,
    audit: { eventType: 'configuration_rollback', details: { rollbackOf: id } },
  });
  await ctx.services.publisher
    .toAll('admin', 'configuration_rollback', {
      reason: request.reason,
      changeId: result.changeId,
      rollbackOf: String(id),
    })
    .catch(afterCommit);
  return result;
}
