import {
  type BotConfiguration,
  CONFIGURATION_LIST_SIZES,
  type ConfigurationChange,
  type ConfigurationDashboard,
  type ConfigurationProfile,
  NO_ACKNOWLEDGEMENT,
} from '../../../common/configuration.ts';
import type { AppContext } from '../../context.ts';
import {
  type ConfigurationRow,
  configurationRowToConfiguration,
  findConfigurations,
  insertDefaultConfigurations,
} from './bot-configurations.store.ts';
import {
  changeRowToChange,
  findRecentChanges,
  findTargetsOfChanges,
  type TargetRow,
} from './configuration-changes.store.ts';
import {
  countChangesSince,
  countConfigurationsByProfile,
  findRecentFailures,
  loadDeploymentStats,
} from './configuration-figures.store.ts';
import { findProfiles, profileRowToProfile } from './configuration-profiles.store.ts';
import { findEmergencyState } from './emergency.store.ts';

/*
 * Live bot configuration (spec section 7), one job a file. This one holds what the others share (the
 * texts, who is online, whom a frame reaches) and the screen's reads; configuration-pushes.service.ts
 * changes bots' values, emergency.service.ts stops and resumes the network, config-delivery.service.ts
 * is the bots' side (hello, acknowledgement, deadline) and http-bot-frames.service.ts serves the bots
 * without a socket. The stores split alike: bot configurations, changes with their targets, figures,
 * profiles and the emergency switch.
 */

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

export const actorOf = (caller: Caller) => `admin (${caller.ip})`;

/** Bot ids in natural order, so bot-2 comes before bot-10. */
export const byBotId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * The bots the fleet hears from now (any status but inactive), and `heard`: every bot it heard from
 * lately whatever it reports, since a bot an emergency stop paused reports 'inactive' yet still
 * takes frames (the resume above all).
 */
export function onlineBots(ctx: AppContext): { online: Set<string>; heard: Set<string>; total: number } {
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
export const isReachable = (row: ConfigurationRow, heard: Set<string>) =>
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

/**
 * Dashboards refresh on the socket events but also poll, and a bot that misses a frame gets it at its
 * next hello: a bus hiccup after the commit must not turn a saved change into an error.
 */
export const afterCommit = () => {};

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

/**
 * Spec section 3's dashboard figures, counted by the database and the fleet's state: nothing here reads
 * every bot's configuration, so a poll costs the same for 70 bots and for 2,000.
 */
export async function getDashboardStats(ctx: AppContext): Promise<ConfigurationDashboard> {
  const [firstCount, profiles, recentChanges24h, deploymentStats, recentFailures, emergency] =
    await Promise.all([
      countConfigurationsByProfile(ctx.db),
      listProfiles(ctx),
      countChangesSince(ctx.db, ctx.now() - DAY_MS),
      loadDeploymentStats(ctx.db),
      findRecentFailures(ctx.db, CONFIGURATION_LIST_SIZES.recentFailures),
      findEmergencyState(ctx.db),
    ]);
  const { online, heard, total } = onlineBots(ctx);
  let counted = firstCount;
  if (counted.total < total) {
    // A bot known to the fleet without a configuration yet gets its default one first (as on the list).
    await loadConfigurationRows(ctx);
    counted = await countConfigurationsByProfile(ctx.db);
  }
  const { total: totalConfigurations, byProfile: botsByProfile } = counted;
  return {
    dashboardStats: {
      totalConfigurations,
      // Every bot the fleet hears from has a configuration (above).
      activeConfigurations: emergency.stopped ? 0 : online.size,
      recentChanges24h,
      topUsedProfiles: profiles
        .filter((p) => p.usageCount > 0)
        .sort((a, b) => b.usageCount - a.usageCount || a.name.localeCompare(b.name))
        .map((p) => ({ profileName: p.name, usageCount: p.usageCount })),
    },
    configHealth: {
      // Bots connected and heard from, whatever they report: under an emergency stop every bot says
      // 'inactive' yet is online (and takes the resume), so counting statuses would say 0%.
      onlineBots: heard.size,
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
