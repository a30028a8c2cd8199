import type { Generated } from 'kysely';

/** A place finds are posted to, or (alerts 1) operator alerts. */
export interface NotificationDestinationsTable {
  id: Generated<number>;
  name: string;
  /** 'discord' | 'json' */
  kind: string;
  /** The webhook URL: a secret (its token), never logged or shown whole. */
  url: string;
  /** Value per second, inclusive. */
  min_value: number;
  /** Value per second, inclusive; null: no upper bound. */
  max_value: number | null;
  /** JSON array of pet names; empty: every pet. */
  pet_names: string;
  delay_seconds: number;
  include_join_data: number;
  mention_role_id: string | null;
  mention_from_value: number | null;
  enabled: number;
  /** Finds older than this (seconds since found) are not posted as new; null: the tier's default. */
  max_age_seconds: number | null;
  /** What happens to an older find: 'drop' (counted) | 'mark' (posted, marked late). */
  late_mode: Generated<string>;
  /** Why the dispatcher turned it off (Unknown Webhook, 401…); null while enabled by the admin. */
  disabled_reason: string | null;
  /** 1: it gets operator alerts and never finds (its find settings do not apply); 0: finds. */
  alerts: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** One post to make: a find (or an operator alert) for a destination (unique together). */
export interface NotificationOutboxTable {
  id: Generated<number>;
  destination_id: number;
  /** 'find' | 'alert': what the row carries (a lane takes only the kind its destination gets). */
  item: Generated<string>;
  /**
   * A find's `seq` in fleet_discoveries; for an alert, minus its operator_alerts id (negative, so
   * the (destination, item) key never meets a find's).
   */
  discovery_seq: number;
  /** JSON of the find as it was stored (PetDiscovery), or of the alert (OperatorAlert). */
  payload: string;
  /** 'pending' | 'sent' | 'failed' | 'dropped' (older than the destination's maximum age) */
  state: string;
  attempts: number;
  /** When the find was made, or the alert raised (ms). */
  found_at: number;
  /** Not posted before this (found_at + the destination's delay, later after a failed attempt). */
  due_at: number;
  /** The find's order of magnitude (1M/s to 10M/s: 6): a lane posts the dearest tier first. */
  value_tier: Generated<number>;
  /** What the destination answered for the post (Discord's message id); null otherwise. */
  remote_id: string | null;
  created_at: number;
  sent_at: number | null;
  last_error: string | null;
}
