import type { z } from 'zod';
import {
  type ApplyProfileRequestSchema,
  type BotConfiguration,
  type BotParameters,
  type BulkUpdateRequestSchema,
  type ChangeResult,
  CONFIGURATION_LIST_SIZES,
  type ConfigFramePayload,
  type ConfigurationChange,
  type ConfigurationDashboard,
  type ConfigurationProfile,
  type EmergencyRequestSchema,
  type EmergencyResult,
  NO_ACKNOWLEDGEMENT,
  PROFILE_PARAMETERS,
  parameterConflict,
  type RollbackRequestSchema,
} from '../../../common/configuration.ts';
import type { ConfigAckPayloadSchema } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../http-error.ts';
import { botTopic } from '../fleet/bot-topic.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  type ConfigurationRow,
  changeRowToChange,
  configurationRowToConfiguration,
  countChangesSince,
  countTargetStates,
  expireConfiguration,
  findBotsPastDeadline,
  findChange,
  findConfigurations,
  findEmergencyState,
  findProfile,
  findProfiles,
  findRecentChanges,
  findRecentFailures,
  findTargetsOfChanges,
  incrementProfileUsage,
  insertChange,
  insertDefaultConfigurations,
  isEmergencyChange,
  loadDeploymentStats,
  lockConfigurations,
  markConfigurationSent,
  markTargetsSent,
  type NewTarget,
  type ProfileRow,
  parametersOfRow,
  profileRowToProfile,
  setConfigurationSocket,
  settleConfiguration,
  settleTargets,
  switchEmergency,
  type TargetRow,
  targetRowToTarget,
  updateConfigurationValues,
} from './configuration.store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const CONFIGURATION_TEXTS = {
  noAcknowledgement: NO_ACKNOWLEDGEMENT,
  botRefused: 'The bot refused the configuration',
  alreadyStopped: 'The network is already stopped',
  alreadyRunning: 'The network is already running',
  unknownBots: (ids: string[]) => `Unknown bots: ${ids.join(', ')}`,
  unknownProfile: (id: string) => `Unknown profile: ${id}`,
  unknownChange: (id: number) => `Unknown change: ${id}`,
  noEmergencyRollback:
    'An emergency stop or resume cannot be rolled back: use Emergency Stop / Emergency Resume instead',
} as const;

/** Who asked: the admin, from this address (the change record's actor). */
export interface Caller {
  ip: string;
}

const actorOf = (caller: Caller) => `admin (${caller.ip})`;

/** Bot ids in natural order, so bot-2 comes before bot-10. */
const byBotId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * The bots the fleet hears from now (any status but inactive), and `heard`: every bot it heard from
 * lately whatever it reports, since a bot an emergency stop paused reports 'inactive' yet still
 * takes frames (the resume above all).
 */
function onlineBots(ctx: AppContext): { online: Set<string>; heard: Set<string>; total: number } {
  const { fleet } = ctx.services;
  const now = ctx.now();
  const online = new Set<string>();
  const heard = new Set<string>();
  for (const scanner of fleet.state.scanners.values()) {
    if (fleet.state.effectiveStatus(scanner, now) !== 'inactive') online.add(scanner.ghostId);
    if (now - scanner.lastActivity <= ctx.config.FLEET_INACTIVE_AFTER_MS) heard.add(scanner.ghostId);
  }
  return { online, heard, total: fleet.state.scanners.size };
}

/**
 * A bot a frame reaches now: it has a socket open (on any instance) and the fleet hears from it.
 * Both, because a socket on record can outlive an instance that crashed without closing it.
 */
const isReachable = (row: ConfigurationRow, heard: Set<string>) =>
  row.socket_id !== null && heard.has(row.bot_id);

/**
 * The configurations, each bot the fleet knows included: a bot that said hello only through
 * POST /api/bot/events gets its default one here, the first time configurations are read or changed.
 */
async function loadConfigurationRows(ctx: AppContext): Promise<ConfigurationRow[]> {
  const rows = await findConfigurations(ctx.db);
  const known = new Set(rows.map((r) => r.bot_id));
  const missing = [...ctx.services.fleet.state.scanners.keys()].filter((id) => !known.has(id));
  if (missing.length === 0) return rows;
  await insertDefaultConfigurations(ctx.db, missing, ctx.now());
  return findConfigurations(ctx.db);
}

/* ---------- reads ---------- */

/** Every bot's configuration, in natural bot order (bot-2 before bot-10). */
export async function listConfigurations(ctx: AppContext): Promise<BotConfiguration[]> {
  const [rows, profiles, emergency] = await Promise.all([
    loadConfigurationRows(ctx),
    findProfiles(ctx.db),
    findEmergencyState(ctx.db),
  ]);
  const { online } = onlineBots(ctx);
  const profileNames = new Map(profiles.map((p) => [p.id, p.name]));
  return rows
    .map((row) =>
      configurationRowToConfiguration(row, {
        isActive: online.has(row.bot_id) && !emergency.stopped,
        profileName: row.profile_id === null ? null : (profileNames.get(row.profile_id) ?? null),
      }),
    )
    .sort((a, b) => byBotId(a.botId, b.botId));
}

export async function listProfiles(ctx: AppContext): Promise<ConfigurationProfile[]> {
  return (await findProfiles(ctx.db)).map(profileRowToProfile);
}

/** Spec section 3's dashboard figures, every one counted from the configurations and change records. */
export async function getDashboardStats(ctx: AppContext): Promise<ConfigurationDashboard> {
  const configurations = await listConfigurations(ctx);
  const [profiles, recentChanges24h, deploymentStats, recentFailures, emergency] = await Promise.all([
    listProfiles(ctx),
    countChangesSince(ctx.db, ctx.now() - DAY_MS),
    loadDeploymentStats(ctx.db),
    findRecentFailures(ctx.db, CONFIGURATION_LIST_SIZES.recentFailures),
    findEmergencyState(ctx.db),
  ]);
  const { online, total } = onlineBots(ctx);
  const botsByProfile = new Map<string, number>();
  for (const c of configurations) {
    if (c.profileId !== null) botsByProfile.set(c.profileId, (botsByProfile.get(c.profileId) ?? 0) + 1);
  }
  return {
    dashboardStats: {
      totalConfigurations: configurations.length,
      activeConfigurations: configurations.filter((c) => c.isActive).length,
      recentChanges24h,
      topUsedProfiles: profiles
        .filter((p) => p.usageCount > 0)
        .sort((a, b) => b.usageCount - a.usageCount || a.name.localeCompare(b.name))
        .map((p) => ({ profileName: p.name, usageCount: p.usageCount })),
    },
    configHealth: {
      onlineBots: online.size,
      totalBots: total,
      activeProfiles: profiles
        .filter((p) => botsByProfile.has(p.id))
        .map((p) => ({ profileId: p.id, profileName: p.name, botCount: botsByProfile.get(p.id) ?? 0 }))
        .sort((a, b) => b.botCount - a.botCount || a.profileName.localeCompare(b.profileName)),
      recentFailures,
    },
    deploymentStats,
    emergency,
  };
}

/** The newest `limit` change records with each bot's outcome, newest first. */
export async function listHistory(ctx: AppContext, limit: number): Promise<ConfigurationChange[]> {
  const changes = await findRecentChanges(ctx.db, limit);
  const targets = await findTargetsOfChanges(
    ctx.db,
    changes.map((c) => Number(c.id)),
  );
  const byChange = new Map<number, TargetRow[]>();
  for (const t of targets) {
    const id = Number(t.change_id);
    byChange.set(id, [...(byChange.get(id) ?? []), t]);
  }
  return changes.map((c) =>
    changeRowToChange(
      c,
      (byChange.get(Number(c.id)) ?? []).sort((a, b) => byBotId(a.bot_id, b.bot_id)),
    ),
  );
}

/* ---------- pushes ---------- */

/**
 * Dashboards refresh on the socket events but also poll, and a bot that misses a frame gets it at its
 * next hello: a bus hiccup after the commit must not turn a saved change into an error.
 */
const afterCommit = () => {};

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
  audit: { eventType: string; details: Record<string, unknown> };
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

/* ---------- emergency stop ---------- */

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

/* ---------- the bots' side ---------- */

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
