import {
  type BotConfiguration,
  type ConfigurationChange,
  type ConfigurationDashboard,
  type ConfigurationProfile,
  DEFAULT_BOT_PARAMETERS,
} from '../../../../common/configuration.ts';

/* Server answers for the Live Configuration tests, shaped as common/configuration.ts says. */

export const T = '2026-11-23T10:00:00.000Z';

export function botConfiguration(n: number, over: Partial<BotConfiguration> = {}): BotConfiguration {
  const botId = `ghost-${String(n).padStart(2, '0')}`;
  return {
    ...DEFAULT_BOT_PARAMETERS,
    id: `cfg-${n}`,
    botId,
    isActive: true,
    version: 1,
    profileId: null,
    profileName: null,
    lastDeployed: T,
    deployState: 'applied',
    deployError: null,
    ...over,
  };
}

export const bots = (count: number) => Array.from({ length: count }, (_, i) => botConfiguration(i + 1));

export function profile(name: string, over: Partial<ConfigurationProfile> = {}): ConfigurationProfile {
  return {
    id: `p-${name.toLowerCase()}`,
    name,
    profileType: name,
    isBuiltIn: true,
    usageCount: 0,
    description: `${name} scanning`,
    hopFrequencyMs: 5000,
    minPetValue: 500_000,
    stealthMode: false,
    batchSize: 50,
    ...over,
  };
}

export const PROFILES = [
  profile('AGGRESSIVE', { hopFrequencyMs: 2000, batchSize: 100, usageCount: 4 }),
  profile('STEALTH', { hopFrequencyMs: 15_000, stealthMode: true, batchSize: 20 }),
  profile('BALANCED'),
];

export function dashboard(over: Partial<ConfigurationDashboard> = {}): ConfigurationDashboard {
  return {
    dashboardStats: {
      totalConfigurations: 70,
      activeConfigurations: 64,
      recentChanges24h: 3,
      topUsedProfiles: [
        { profileName: 'AGGRESSIVE', usageCount: 4 },
        { profileName: 'STEALTH', usageCount: 1 },
      ],
    },
    configHealth: {
      onlineBots: 64,
      totalBots: 70,
      activeProfiles: [{ profileId: 'p-aggressive', profileName: 'AGGRESSIVE', botCount: 12 }],
      recentFailures: [],
    },
    deploymentStats: { successfulDeployments: 45, totalDeployments: 50, averageResponseTime: 120.4 },
    emergency: { stopped: false, reason: null, changedAt: null, changedBy: null },
    ...over,
  };
}

export function change(id: string, over: Partial<ConfigurationChange> = {}): ConfigurationChange {
  return {
    id,
    kind: 'bulk_update',
    createdAt: T,
    actor: 'admin 127.0.0.1',
    reason: 'Faster hops',
    isEmergency: false,
    profileName: null,
    rollbackOf: null,
    targets: [
      {
        botId: 'ghost-01',
        version: 2,
        before: { hopFrequencyMs: 5000, batchSize: 50, stealthMode: false },
        after: { hopFrequencyMs: 3000, batchSize: 50, stealthMode: false },
        state: 'applied',
        error: null,
        respondedAt: T,
        responseTimeMs: 85,
      },
      {
        botId: 'ghost-02',
        version: 2,
        before: { hopFrequencyMs: 5000 },
        after: { hopFrequencyMs: 3000 },
        state: 'failed',
        error: 'no acknowledgement',
        respondedAt: T,
        responseTimeMs: null,
      },
    ],
    counts: { pending: 0, applied: 1, failed: 1 },
    canRollback: true,
    ...over,
  };
}
