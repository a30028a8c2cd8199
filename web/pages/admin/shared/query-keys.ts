/**
 * The URLs of the resources more than one screen reads or refreshes. A query's key starts with its
 * URL (the default query function GETs the key joined with '/'), so each is also the key prefix that
 * invalidates every variant of that query, filtered ones included. Screens build their keys from
 * these, and a change on one screen refreshes another's data by prefix, never by importing it.
 */
export const QUERY_KEYS = {
  dashboardStats: '/api/admin/dashboard/stats',
  licenseKeys: '/api/admin/license-keys',
  redemptionKeys: '/api/admin/redemption-keys',
  scriptKeys: '/api/admin/script-keys/list',
  scriptKeySharing: '/api/admin/script-keys/sharing',
  hardwareBindings: '/api/admin/hardware/bindings',
  auditLogs: '/api/admin/security/audit-logs',
  systemConfiguration: '/api/admin/system-configuration',
  slotUsage: '/api/admin/system-configuration/slot-usage',
  scripts: '/api/admin/scripts',
  allScriptFiles: '/api/admin/all-scripts/list',
  configurationDashboard: '/api/admin/configurations/dashboard-stats',
  configurations: '/api/admin/configurations',
  configurationProfiles: '/api/admin/configuration-profiles',
  configurationHistory: '/api/admin/configurations/history',
  orders: '/api/admin/orders',
  paymentSettings: '/api/admin/payments/settings',
  paymentConnection: '/api/admin/payments/connection',
} as const;

/** Everything a push, a profile application, a rollback or an emergency toggle makes stale. */
export const LIVE_CONFIGURATION_URLS = [
  QUERY_KEYS.configurationDashboard,
  QUERY_KEYS.configurations,
  QUERY_KEYS.configurationProfiles,
  QUERY_KEYS.configurationHistory,
] as const;
