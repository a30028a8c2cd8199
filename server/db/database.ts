import type { OperatorAlertStatesTable, OperatorAlertsTable } from '../features/alerts/alerts.table.ts';
import type {
  AdminCredentialsTable,
  AdminLoginAttemptsTable,
  AdminSessionsTable,
} from '../features/auth/auth.table.ts';
import type { HardwareBindingsTable } from '../features/bindings/bindings.table.ts';
import type {
  BotConfigurationsTable,
  ConfigurationChangesTable,
  ConfigurationEmergencyTable,
  ConfigurationProfilesTable,
  ConfigurationTargetsTable,
} from '../features/configuration/configuration.table.ts';
import type { DiscordCommandRegistrationsTable } from '../features/discord/command-registration.table.ts';
import type { DiscordLinksTable, DiscordSettingsTable } from '../features/discord/discord.table.ts';
import type { DiscordRoleGrantsTable } from '../features/discord/role-sync.table.ts';
import type { BotCredentialsTable } from '../features/fleet/bot-credential.table.ts';
import type { BotTokensTable } from '../features/fleet/bot-token.table.ts';
import type {
  FleetDiscoveriesTable,
  FleetHopRollupsTable,
  FleetHopsTable,
  FleetScannersTable,
} from '../features/fleet/fleet.table.ts';
import type {
  AnalysisFindingsTable,
  AnalysisStateTable,
  RecommendationsTable,
} from '../features/health/analysis/analysis.table.ts';
import type { ErrorReportsTable } from '../features/health/health.table.ts';
import type { HealthReportsTable } from '../features/health/report/report.table.ts';
import type { HwidResetsTable, RemovedDevicesTable } from '../features/key-status/key-status.table.ts';
import type { LicenseKeysTable, UsageDailyTable } from '../features/licensing/licensing.table.ts';
import type { ChallengeNoncesTable } from '../features/loader/challenge.table.ts';
import type { LoaderSigningKeysTable } from '../features/loader/loader-signing.table.ts';
import type {
  NotificationDestinationsTable,
  NotificationOutboxTable,
} from '../features/notifications/notifications.table.ts';
import type {
  OrdersTable,
  PaymentSettingsTable,
  PaymentWebhookDeliveriesTable,
  PaymentWebhookRejectionsTable,
} from '../features/payments/payments.table.ts';
import type { KeyRenewalsTable, RedemptionKeysTable } from '../features/redemption/redemption.table.ts';
import type { ScriptKeyAddressesTable } from '../features/script-keys/key-sharing.table.ts';
import type { ScriptKeysTable } from '../features/script-keys/script-keys.table.ts';
import type {
  ScriptsPageConfigTable,
  ScriptsTable,
  ScriptVersionsTable,
} from '../features/scripts/scripts.table.ts';
import type { AuditLogsTable } from '../features/security/security.table.ts';
import type {
  PoolBotsTable,
  PoolCountsTable,
  PoolFailuresTable,
  PoolServersTable,
} from '../features/server-pool/server-pool.table.ts';
import type { SystemConfigurationTable } from '../features/system/system.table.ts';
import type { LeasesTable } from './leases.table.ts';

/** Every table, joined from the features that own them. */
export interface Database {
  admin_credentials: AdminCredentialsTable;
  admin_sessions: AdminSessionsTable;
  admin_login_attempts: AdminLoginAttemptsTable;
  audit_logs: AuditLogsTable;
  discord_role_grants: DiscordRoleGrantsTable;
  discord_command_registrations: DiscordCommandRegistrationsTable;
  license_keys: LicenseKeysTable;
  hardware_bindings: HardwareBindingsTable;
  usage_daily: UsageDailyTable;
  redemption_keys: RedemptionKeysTable;
  script_keys: ScriptKeysTable;
  script_key_addresses: ScriptKeyAddressesTable;
  hwid_resets: HwidResetsTable;
  removed_devices: RemovedDevicesTable;
  key_renewals: KeyRenewalsTable;
  discord_settings: DiscordSettingsTable;
  discord_links: DiscordLinksTable;
  challenge_nonces: ChallengeNoncesTable;
  loader_signing_keys: LoaderSigningKeysTable;
  system_configuration: SystemConfigurationTable;
  scripts_page_config: ScriptsPageConfigTable;
  scripts: ScriptsTable;
  script_versions: ScriptVersionsTable;
  error_reports: ErrorReportsTable;
  health_reports: HealthReportsTable;
  analysis_findings: AnalysisFindingsTable;
  recommendations: RecommendationsTable;
  analysis_state: AnalysisStateTable;
  bot_tokens: BotTokensTable;
  bot_credentials: BotCredentialsTable;
  pool_servers: PoolServersTable;
  pool_failures: PoolFailuresTable;
  pool_bots: PoolBotsTable;
  pool_counts: PoolCountsTable;
  fleet_hops: FleetHopsTable;
  fleet_hop_rollups: FleetHopRollupsTable;
  fleet_discoveries: FleetDiscoveriesTable;
  notification_destinations: NotificationDestinationsTable;
  notification_outbox: NotificationOutboxTable;
  leases: LeasesTable;
  operator_alerts: OperatorAlertsTable;
  operator_alert_states: OperatorAlertStatesTable;
  payment_settings: PaymentSettingsTable;
  orders: OrdersTable;
  payment_webhook_deliveries: PaymentWebhookDeliveriesTable;
  payment_webhook_rejections: PaymentWebhookRejectionsTable;
  fleet_scanners: FleetScannersTable;
  bot_configurations: BotConfigurationsTable;
  configuration_changes: ConfigurationChangesTable;
  configuration_targets: ConfigurationTargetsTable;
  configuration_profiles: ConfigurationProfilesTable;
  configuration_emergency: ConfigurationEmergencyTable;
}
