import { z } from 'zod';
import { GhostIdSchema } from './fleet.ts';

/*
 * Live configuration of the bot network (admin-back-office spec 2.8, sections 3, 4, 5, 7, 9): one
 * configuration per bot, pushed as versioned `config` frames the bots acknowledge, profiles,
 * emergency stop/resume, and the history of changes with rollback. Server and screen share this.
 */

/* ---------- parameters ---------- */

/** Spec section 5: the ranges (inclusive) and the screen's slider steps. */
export const BOT_PARAMETER_RANGES = {
  hopFrequencyMs: { min: 1000, max: 30_000, step: 500 },
  hopDelayMs: { min: 100, max: 5000, step: 100 },
  hopCooldownMs: { min: 5000, max: 300_000, step: 5000 },
  maxRetryAttempts: { min: 1, max: 10, step: 1 },
  errorThreshold: { min: 1, max: 20, step: 1 },
  batchSize: { min: 1, max: 200, step: 1 },
  connectionLimit: { min: 1, max: 50, step: 1 },
  rateLimit: { min: 10, max: 1000, step: 1 },
} as const;
export type RangedParameter = keyof typeof BOT_PARAMETER_RANGES;

/** Pet values are whole numbers of the game's currency per second; 0 as a maximum means unlimited. */
export const MAX_PET_VALUE = 1_000_000_000_000;

/** Spec section 9: the default bot parameters, given to a bot when it first says hello. */
export const DEFAULT_BOT_PARAMETERS = {
  hopFrequencyMs: 5000,
  hopDelayMs: 1000,
  hopCooldownMs: 30_000,
  minPetValue: 500_000,
  maxPetValue: 0,
  targetPetValue: 1_000_000,
  stealthMode: false,
  maxRetryAttempts: 3,
  errorThreshold: 5,
  batchSize: 50,
  connectionLimit: 10,
  rateLimit: 100,
} as const satisfies BotParameters;

const ranged = (field: RangedParameter) => {
  const { min, max } = BOT_PARAMETER_RANGES[field];
  return z
    .number({ error: `${field} must be a number from ${min} to ${max}` })
    .int(`${field} must be a whole number from ${min} to ${max}`)
    .min(min, `${field} must be from ${min} to ${max}`)
    .max(max, `${field} must be from ${min} to ${max}`);
};

const petValue = (field: string) =>
  z
    .number({ error: `${field} must be a number from 0 to ${MAX_PET_VALUE}` })
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be from 0 to ${MAX_PET_VALUE}`)
    .max(MAX_PET_VALUE, `${field} must be from 0 to ${MAX_PET_VALUE}`);

const parameterShape = {
  hopFrequencyMs: ranged('hopFrequencyMs'),
  hopDelayMs: ranged('hopDelayMs'),
  hopCooldownMs: ranged('hopCooldownMs'),
  minPetValue: petValue('minPetValue'),
  /** 0 means unlimited. */
  maxPetValue: petValue('maxPetValue'),
  targetPetValue: petValue('targetPetValue'),
  stealthMode: z.boolean({ error: 'stealthMode must be true or false' }),
  maxRetryAttempts: ranged('maxRetryAttempts'),
  errorThreshold: ranged('errorThreshold'),
  batchSize: ranged('batchSize'),
  connectionLimit: ranged('connectionLimit'),
  rateLimit: ranged('rateLimit'),
};

/** Every parameter a bot runs with (sent whole in each `config` frame). */
export const BotParametersSchema = z.strictObject(parameterShape);
export type BotParameters = z.output<typeof BotParametersSchema>;
export type BotParameterName = keyof BotParameters;
export const BOT_PARAMETER_NAMES = Object.keys(parameterShape) as BotParameterName[];

/** A change: any of the parameters, at least one. Checked against the bot's values after merging. */
export const BotParameterUpdatesSchema = z
  .strictObject(parameterShape)
  .partial()
  .refine((u) => Object.keys(u).length > 0, 'updates must change at least one parameter');
export type BotParameterUpdates = z.output<typeof BotParameterUpdatesSchema>;

/**
 * The one rule across fields, checked on a bot's merged parameters: a maximum pet value, when set,
 * is not below the minimum. Returns the 400 text, or null.
 */
export function parameterConflict(p: BotParameters): string | null {
  return p.maxPetValue !== 0 && p.maxPetValue < p.minPetValue
    ? 'maxPetValue must be 0 (unlimited) or at least minPetValue'
    : null;
}

/* ---------- what the admin reads ---------- */

/** A target's error when its bot never answered before the acknowledgement deadline. */
export const NO_ACKNOWLEDGEMENT = 'no acknowledgement';

/** Where a push to one bot stands (fleet-manager style: pending until the bot acknowledges). */
export const TARGET_STATES = ['pending', 'applied', 'failed'] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/**
 * The parameters as the API answers them: their types without the request's range checks, so an
 * answer describes what is stored rather than re-validating it.
 */
const parameterValueShape = {
  hopFrequencyMs: z.number().int(),
  hopDelayMs: z.number().int(),
  hopCooldownMs: z.number().int(),
  minPetValue: z.number().int(),
  /** 0 means unlimited. */
  maxPetValue: z.number().int(),
  targetPetValue: z.number().int(),
  stealthMode: z.boolean(),
  maxRetryAttempts: z.number().int(),
  errorThreshold: z.number().int(),
  batchSize: z.number().int(),
  connectionLimit: z.number().int(),
  rateLimit: z.number().int(),
} satisfies Record<BotParameterName, z.ZodType>;

const TargetStateSchema = z.enum(TARGET_STATES);

/** Spec section 3 "Bot configuration", plus where its latest push stands. */
export const BotConfigurationSchema = z
  .object({
    ...parameterValueShape,
    id: z.string(),
    botId: z.string(),
    /** The bot is online (the fleet heard from it recently) and not stopped by an emergency stop. */
    isActive: z.boolean(),
    /** The version of these values; each change to this bot's values adds one. */
    version: z.number().int(),
    /** The profile these values came from, while no later change overrode it. */
    profileId: z.string().nullable(),
    profileName: z.string().nullable(),
    /** ISO time the bot acknowledged its latest version; null before any acknowledgement. */
    lastDeployed: z.string().nullable(),
    /** Where the latest version stands on this bot. */
    deployState: TargetStateSchema,
    deployError: z.string().nullable(),
  })
  .meta({ id: 'BotConfiguration' });
export type BotConfiguration = z.infer<typeof BotConfigurationSchema>;

/** GET /api/admin/configurations: every bot's configuration, in natural bot order. */
export const BotConfigurationListSchema = z
  .object({ configurations: z.array(BotConfigurationSchema) })
  .meta({ id: 'BotConfigurationList' });

/** Spec section 3 "Configuration profile". Applying one sets its four parameters. */
export const ConfigurationProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    profileType: z.string(),
    isBuiltIn: z.boolean(),
    usageCount: z.number().int(),
    description: z.string(),
    hopFrequencyMs: z.number().int(),
    minPetValue: z.number().int(),
    stealthMode: z.boolean(),
    batchSize: z.number().int(),
  })
  .meta({ id: 'ConfigurationProfile' });
export type ConfigurationProfile = z.infer<typeof ConfigurationProfileSchema>;

/** GET /api/admin/configuration-profiles */
export const ConfigurationProfileListSchema = z
  .object({ profiles: z.array(ConfigurationProfileSchema) })
  .meta({ id: 'ConfigurationProfileList' });

/** The parameters a profile sets. */
export const PROFILE_PARAMETERS = ['hopFrequencyMs', 'minPetValue', 'stealthMode', 'batchSize'] as const;

export const EmergencyStateSchema = z
  .object({
    stopped: z.boolean(),
    /** The reason given for the latest stop or resume; null before any. */
    reason: z.string().nullable(),
    /** ISO time of the latest stop or resume; null before any. */
    changedAt: z.string().nullable(),
    /** Who made the latest stop or resume (`admin (IP)`, as in the change history); null before any. */
    changedBy: z.string().nullable(),
  })
  .meta({ id: 'EmergencyState' });
export type EmergencyState = z.infer<typeof EmergencyStateSchema>;

/** GET /api/admin/configurations/dashboard-stats (spec section 3, plus the emergency state). */
export const ConfigurationDashboardSchema = z
  .object({
    dashboardStats: z.object({
      totalConfigurations: z.number().int(),
      activeConfigurations: z.number().int(),
      /** Change records of the last 24 hours. */
      recentChanges24h: z.number().int(),
      topUsedProfiles: z.array(z.object({ profileName: z.string(), usageCount: z.number().int() })),
    }),
    configHealth: z.object({
      onlineBots: z.number().int(),
      totalBots: z.number().int(),
      /** Bots whose current values came from each profile. */
      activeProfiles: z.array(
        z.object({ profileId: z.string(), profileName: z.string(), botCount: z.number().int() }),
      ),
      /** The newest failed targets (spec: the screen shows the first 5). */
      recentFailures: z.array(
        z.object({ botId: z.string(), errorMessage: z.string(), timestamp: z.string() }),
      ),
    }),
    deploymentStats: z.object({
      /** Targets applied, of all targets that ended (applied or failed). */
      successfulDeployments: z.number().int(),
      totalDeployments: z.number().int(),
      /** Mean ms from sending a `config` frame to its acknowledgement, over applied targets; 0 with none. */
      averageResponseTime: z.number(),
    }),
    emergency: EmergencyStateSchema,
  })
  .meta({ id: 'ConfigurationDashboard' });
export type ConfigurationDashboard = z.infer<typeof ConfigurationDashboardSchema>;

export const CHANGE_KINDS = [
  'bulk_update',
  'profile',
  'rollback',
  'emergency_stop',
  'emergency_resume',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One bot of a change: its values before and after (the fields the change touched) and the outcome. */
export const ChangeTargetSchema = z
  .object({
    botId: z.string(),
    /** The bot's configuration version this change produced (null for emergency changes). */
    version: z.number().int().nullable(),
    before: z.object(parameterValueShape).partial(),
    after: z.object(parameterValueShape).partial(),
    state: TargetStateSchema,
    /** The bot's error, or 'no acknowledgement' past the deadline. */
    error: z.string().nullable(),
    /** ISO time the bot answered (or was counted failed); null while pending. */
    respondedAt: z.string().nullable(),
    /** ms from sending the frame to the answer; null while pending or when it never answered. */
    responseTimeMs: z.number().nullable(),
  })
  .meta({ id: 'ConfigurationChangeTarget' });
export type ChangeTarget = z.infer<typeof ChangeTargetSchema>;

/** A change record: who, when, which bots, before and after, why, whether an emergency. */
export const ConfigurationChangeSchema = z
  .object({
    id: z.string(),
    kind: z.enum(CHANGE_KINDS),
    createdAt: z.string(),
    /** Who made it: 'admin' and the client address. */
    actor: z.string(),
    reason: z.string(),
    isEmergency: z.boolean(),
    profileName: z.string().nullable(),
    /** The change this one rolled back. */
    rollbackOf: z.string().nullable(),
    targets: z.array(ChangeTargetSchema),
    counts: z.record(TargetStateSchema, z.number().int()),
    /** Parameter changes can be rolled back; emergency stop/resume cannot (the toggle undoes them). */
    canRollback: z.boolean(),
  })
  .meta({ id: 'ConfigurationChange' });
export type ConfigurationChange = z.infer<typeof ConfigurationChangeSchema>;

/** GET /api/admin/configurations/history: newest first. */
export const ConfigurationHistorySchema = z
  .object({ changes: z.array(ConfigurationChangeSchema) })
  .meta({ id: 'ConfigurationHistory' });

/* ---------- calls (spec section 7, "Live bot configuration") ---------- */

export const MAX_TARGET_BOTS = 500;
export const MAX_REASON_LENGTH = 500;

const TargetBotIdsSchema = z
  .array(GhostIdSchema, { error: 'targetBotIds must be a list of bot ids' })
  .min(1, 'targetBotIds must name at least one bot')
  .max(MAX_TARGET_BOTS, `targetBotIds must name at most ${MAX_TARGET_BOTS} bots`);

const ReasonSchema = z
  .string({ error: 'reason must be text' })
  .trim()
  .max(MAX_REASON_LENGTH, `reason must be at most ${MAX_REASON_LENGTH} characters`);

/** POST /api/admin/configurations/bulk-update → { result: ChangeResult } */
export const BulkUpdateRequestSchema = z.strictObject({
  targetBotIds: TargetBotIdsSchema,
  updates: BotParameterUpdatesSchema,
  reason: ReasonSchema.default(''),
  isEmergencyUpdate: z.boolean({ error: 'isEmergencyUpdate must be true or false' }).default(false),
});
export type BulkUpdateRequest = z.input<typeof BulkUpdateRequestSchema>;

/** POST /api/admin/configuration-profiles/{profileId}/apply → { result: ChangeResult } */
export const ApplyProfileRequestSchema = z.strictObject({
  targetBotIds: TargetBotIdsSchema,
  reason: ReasonSchema.default(''),
});
export type ApplyProfileRequest = z.input<typeof ApplyProfileRequestSchema>;

/** POST /api/admin/configurations/emergency-stop and /emergency-resume → EmergencyResult */
export const EmergencyRequestSchema = z.strictObject({ reason: ReasonSchema.default('') });
export type EmergencyRequest = z.input<typeof EmergencyRequestSchema>;

/** POST /api/admin/configurations/history/{id}/rollback → { result: ChangeResult } */
export const RollbackRequestSchema = z.strictObject({
  reason: ReasonSchema.min(1, 'reason is required to roll back a change'),
});
export type RollbackRequest = z.input<typeof RollbackRequestSchema>;

/** What a bulk update, profile application or rollback answers. */
export const ChangeResultSchema = z
  .object({
    /** Configurations updated (the toast's 'Updated N configurations'). */
    successful: z.number().int(),
    changeId: z.string(),
    /** Targets online now, sent their `config` frame at once; the rest get it when they reconnect. */
    sent: z.number().int(),
  })
  .meta({ id: 'ConfigurationChangeResult' });
export type ChangeResult = z.infer<typeof ChangeResultSchema>;

/** POST bulk-update, profile apply and rollback: `{ result }`. */
export const ChangeResultResponseSchema = z
  .object({ result: ChangeResultSchema })
  .meta({ id: 'ConfigurationChangeResponse' });

export const EmergencyResultSchema = z
  .object({
    /** Connected bots the stop or resume reached. */
    affectedBots: z.number().int(),
    emergency: EmergencyStateSchema,
  })
  .meta({ id: 'EmergencyResult' });
export type EmergencyResult = z.infer<typeof EmergencyResultSchema>;

/** GET /api/admin/configurations/history?limit=N (default 50, at most 200), newest first. */
export const HISTORY_DEFAULT_LIMIT = 50;
export const HISTORY_MAX_LIMIT = 200;

/* ---------- frames ---------- */

/** Server → bot `config`: the bot's whole parameter set at `version`; it answers `config_ack`. */
export const ConfigFramePayloadSchema = z.object({
  version: z.number().int().min(1),
  parameters: BotParametersSchema,
});
export type ConfigFramePayload = z.infer<typeof ConfigFramePayloadSchema>;
/** Server → bot `emergency_stop` / `emergency_resume`. */
export const EmergencyFramePayloadSchema = z.object({ reason: z.string() });
export type EmergencyFramePayload = z.infer<typeof EmergencyFramePayloadSchema>;

/** Server → dashboards (spec section 4). */
export const ConfigurationUpdatePayloadSchema = z.object({
  /** Bots the change targeted (the toast says how many). */
  targetedBots: z.number().int().min(0),
  changeId: z.string(),
  reason: z.string(),
});
export type ConfigurationUpdatePayload = z.infer<typeof ConfigurationUpdatePayloadSchema>;
export const EmergencyControlPayloadSchema = z.object({
  action: z.enum(['EMERGENCY_STOP', 'EMERGENCY_RESUME']),
  reason: z.string(),
  affectedBots: z.number().int().min(0),
});
export type EmergencyControlPayload = z.infer<typeof EmergencyControlPayloadSchema>;
export const ConfigurationRollbackPayloadSchema = z.object({
  reason: z.string(),
  changeId: z.string(),
  rollbackOf: z.string(),
});
export type ConfigurationRollbackPayload = z.infer<typeof ConfigurationRollbackPayloadSchema>;
/** Targets moved (acknowledged, failed): the pushing tab's toast follows it; screens refresh. Replaceable. */
export const ConfigurationProgressPayloadSchema = z.object({
  changeId: z.string(),
  counts: z.record(z.enum(TARGET_STATES), z.number().int().min(0)),
  /** Of the failed, those that never answered (NO_ACKNOWLEDGEMENT); the rest refused. */
  unanswered: z.number().int().min(0),
});
export type ConfigurationProgressPayload = z.infer<typeof ConfigurationProgressPayloadSchema>;

/** Spec section 9: the screen's refresh intervals and list sizes. */
export const CONFIGURATION_POLL_MS = { dashboard: 15_000, configurations: 30_000, profiles: 60_000 } as const;
export const CONFIGURATION_LIST_SIZES = { statusList: 10, recentFailures: 5, selectorColumns: 5 } as const;
