import type { Generated } from 'kysely';
import type { ChangeKind, TargetState } from '../../../common/configuration.ts';

/** One bot's configuration: its parameters at `version`, and where that version stands on the bot. */
export interface BotConfigurationsTable {
  bot_id: string;
  hop_frequency_ms: number;
  hop_delay_ms: number;
  hop_cooldown_ms: number;
  min_pet_value: number;
  max_pet_value: number;
  target_pet_value: number;
  /** 1 on, 0 off. */
  stealth_mode: number;
  max_retry_attempts: number;
  error_threshold: number;
  batch_size: number;
  connection_limit: number;
  rate_limit: number;
  version: number;
  /** The profile the values came from, until a change to one of its fields. */
  profile_id: string | null;
  /** Where `version` stands on the bot. */
  deploy_state: TargetState;
  deploy_error: string | null;
  /** When `version` was last sent to the bot's socket; null while it has not been. */
  sent_at: number | null;
  /** Past this with no acknowledgement, `version` failed ('no acknowledgement'); null when nothing is awaited. */
  ack_deadline_at: number | null;
  /** When the bot acknowledged its latest applied version. */
  last_deployed: number | null;
  /** The bot's open socket (its connection id), so pushes know who can answer; null without one. */
  socket_id: string | null;
  /** What the bot was last told over POST /api/bot/events: 1 stopped, 0 running, null never. */
  emergency_told: number | null;
  created_at: number;
  updated_at: number;
}

/** A change record: who, when, why. Its bots are its targets. */
export interface ConfigurationChangesTable {
  id: Generated<number>;
  kind: ChangeKind;
  actor: string;
  reason: string;
  /** 1 when marked an emergency update (and for emergency stop/resume). */
  is_emergency: number;
  profile_id: string | null;
  profile_name: string | null;
  rollback_of: number | null;
  created_at: number;
}

/** One bot of a change: the touched fields before and after (JSON), and its outcome. */
export interface ConfigurationTargetsTable {
  change_id: number;
  bot_id: string;
  /** The bot's configuration version this change made; null for emergency stop/resume. */
  version: number | null;
  /** JSON: Partial<BotParameters>. */
  before_values: string;
  after_values: string;
  /** The bot's profile before the change, so a rollback restores it with the values. */
  profile_before: string | null;
  state: TargetState;
  error: string | null;
  sent_at: number | null;
  deadline_at: number | null;
  responded_at: number | null;
  response_time_ms: number | null;
}

/** A profile: the four parameters it sets, and how often it was applied. */
export interface ConfigurationProfilesTable {
  id: string;
  name: string;
  profile_type: string;
  /** 1 for AGGRESSIVE, STEALTH and BALANCED (seeded, never deleted). */
  is_built_in: number;
  usage_count: number;
  description: string;
  hop_frequency_ms: number;
  min_pet_value: number;
  stealth_mode: number;
  batch_size: number;
}

/** The one row (id 1) saying whether the network is stopped. */
export interface ConfigurationEmergencyTable {
  id: number;
  /** 1 stopped, 0 running. */
  stopped: number;
  reason: string | null;
  changed_at: number | null;
}
