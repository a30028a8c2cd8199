/*
 * Every event the server writes to the audit log, by its id (the `eventType` of a row, which the API
 * and the filter's query keep), with its name in the operator's words and the part of the system it
 * comes from. The server's audit entries are typed by these ids (server/features/security/
 * security.store.ts), so an event without a name here does not compile; common/audit-events.test.ts
 * also reads the server's sources for any id written some other way.
 */

/** The parts of the system audit events come from, in the order the event filter lists them. */
export const AUDIT_EVENT_AREAS = [
  'Loader and devices',
  'Admin and bots',
  'Keys and codes',
  'Scripts',
  'Live configuration',
  'Orders and payments',
  'Notifications and Discord',
] as const;
export type AuditEventArea = (typeof AUDIT_EVENT_AREAS)[number];

interface AuditEventName {
  /** The event in plain words, as the audit log shows it. */
  label: string;
  area: AuditEventArea;
}

export const AUDIT_EVENTS = {
  challenge_issued: { label: 'Loader challenge issued', area: 'Loader and devices' },
  challenge_verified: { label: 'Loader challenge answered', area: 'Loader and devices' },
  hmac_verification: { label: 'Loader signature checked', area: 'Loader and devices' },
  binding_attempt: { label: 'Device binding attempt', area: 'Loader and devices' },
  binding_revoked: { label: 'Device binding revoked', area: 'Loader and devices' },
  hwid_reset: { label: 'Devices reset', area: 'Loader and devices' },
  hwid_resets_granted: { label: 'Device resets granted', area: 'Loader and devices' },
  code_redeemed: { label: 'Redemption code redeemed', area: 'Loader and devices' },
  rate_limit_hit: { label: 'Rate limit hit', area: 'Loader and devices' },
  transaction_conflict: { label: 'Simultaneous change refused', area: 'Loader and devices' },

  admin_login: { label: 'Admin sign-in', area: 'Admin and bots' },
  bot_auth: { label: 'Bot token refused', area: 'Admin and bots' },
  bot_enrolled: { label: 'Bot enrolled', area: 'Admin and bots' },
  bot_revoked: { label: 'Bot credential revoked', area: 'Admin and bots' },
  bot_removed: { label: 'Bot removed', area: 'Admin and bots' },
  bot_flagged: { label: 'Bot flagged for failing servers', area: 'Admin and bots' },
  server_quarantined: { label: 'Game server quarantined', area: 'Admin and bots' },
  ai_recommendation_implemented: { label: 'AI recommendation applied', area: 'Admin and bots' },

  license_key_created: { label: 'License key created', area: 'Keys and codes' },
  license_key_revoked: { label: 'License key revoked', area: 'Keys and codes' },
  license_key_deleted: { label: 'License key deleted', area: 'Keys and codes' },
  script_key_created: { label: 'Script key created', area: 'Keys and codes' },
  script_key_status_changed: { label: 'Script key switched on or off', area: 'Keys and codes' },
  script_key_deleted: { label: 'Script key deleted', area: 'Keys and codes' },
  redemption_code_created: { label: 'Redemption code created', area: 'Keys and codes' },
  redemption_code_deleted: { label: 'Redemption code deleted', area: 'Keys and codes' },

  script_saved: { label: 'Script saved', area: 'Scripts' },
  script_deployed: { label: 'Script deployed', area: 'Scripts' },
  script_access_changed: { label: 'Script access type changed', area: 'Scripts' },
  script_deleted: { label: 'Script deleted', area: 'Scripts' },
  script_uploaded: { label: 'Script file uploaded', area: 'Scripts' },
  scripts_page_config_saved: { label: 'Scripts page saved', area: 'Scripts' },
  scripts_page_config_reset: { label: 'Scripts page reset', area: 'Scripts' },

  configuration_bulk_update: { label: 'Bulk configuration update', area: 'Live configuration' },
  configuration_profile_applied: { label: 'Configuration profile applied', area: 'Live configuration' },
  configuration_rollback: { label: 'Configuration rolled back', area: 'Live configuration' },
  configuration_emergency_stop: { label: 'Emergency stop', area: 'Live configuration' },
  configuration_emergency_resume: { label: 'Emergency resume', area: 'Live configuration' },

  order_created: { label: 'Order created', area: 'Orders and payments' },
  order_paid: { label: 'Order paid', area: 'Orders and payments' },
  order_paid_without_slot: { label: 'Order paid with no slot free', area: 'Orders and payments' },
  order_payment_mismatch: { label: 'Order paid the wrong amount', area: 'Orders and payments' },
  order_expired: { label: 'Order expired', area: 'Orders and payments' },
  order_resolved: { label: 'Order resolved by the admin', area: 'Orders and payments' },
  payment_settings_updated: { label: 'Payment settings changed', area: 'Orders and payments' },
  webhook_rejected: { label: 'Payment webhook refused', area: 'Orders and payments' },

  notification_destination_created: {
    label: 'Notification destination added',
    area: 'Notifications and Discord',
  },
  notification_destination_updated: {
    label: 'Notification destination changed',
    area: 'Notifications and Discord',
  },
  notification_destination_deleted: {
    label: 'Notification destination deleted',
    area: 'Notifications and Discord',
  },
  notification_delivery_retried: {
    label: 'Notification delivery retried',
    area: 'Notifications and Discord',
  },
  discord_settings_changed: { label: 'Discord settings changed', area: 'Notifications and Discord' },
} as const satisfies Record<string, AuditEventName>;

/** An event id the server writes to the audit log. */
export type AuditEventType = keyof typeof AUDIT_EVENTS;

export const AUDIT_EVENT_TYPES = Object.keys(AUDIT_EVENTS) as AuditEventType[];

export function isAuditEventType(id: string): id is AuditEventType {
  return Object.hasOwn(AUDIT_EVENTS, id);
}

/**
 * An event's name in plain words. An id this build does not know (a row written by a newer server
 * during an upgrade) reads as its words: 'some_new_event' is "Some new event".
 */
export function auditEventLabel(id: string): string {
  if (isAuditEventType(id)) return AUDIT_EVENTS[id].label;
  const words = id.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
