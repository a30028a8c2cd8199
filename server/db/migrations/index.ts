import * as createAuthAndAudit from './2026_11_22_000000_create_auth_and_audit.ts';
import * as createLicenseKeys from './2026_11_22_000100_create_license_keys.ts';
import * as createSystemConfiguration from './2026_11_22_000200_create_system_configuration.ts';
import * as createScripts from './2026_11_22_000300_create_scripts.ts';
import * as createRedemptionAndScriptKeys from './2026_11_22_000400_create_redemption_and_script_keys.ts';
import * as auditLogsClient from './2026_11_23_000000_audit_logs_client.ts';
import * as scriptsNameKeys from './2026_11_23_000100_scripts_name_keys.ts';
import * as createBotTokens from './2026_11_23_000200_create_bot_tokens.ts';
import * as createServerPool from './2026_11_23_000400_create_server_pool.ts';
import * as createFleet from './2026_11_23_000500_create_fleet.ts';
import * as createConfiguration from './2026_11_24_000000_create_configuration.ts';
import * as createHealthReports from './2026_11_25_000000_create_health_reports.ts';
import * as createAnalysis from './2026_11_26_000000_create_analysis.ts';
import * as createNotifications from './2026_11_27_000000_create_notifications.ts';
import * as hwidResets from './2026_11_28_000000_hwid_resets.ts';
import * as configurationEmergencyTold from './2026_11_28_000100_configuration_emergency_told.ts';
import * as createPayments from './2026_11_29_000000_create_payments.ts';
import * as orderHolds from './2026_12_01_000000_order_holds.ts';
import * as createBotCredentials from './2026_12_01_000100_create_bot_credentials.ts';
import * as adminLoginAttempts from './2026_12_01_000200_admin_login_attempts.ts';
import * as scriptKeyAddresses from './2026_12_01_000400_script_key_addresses.ts';
import * as loaderSigningKey from './2026_12_01_000401_loader_signing_key.ts';
import * as paymentsVerify from './2026_12_01_000500_payments_verify.ts';
import * as notificationLanes from './2026_12_02_100000_notification_lanes.ts';
import * as webhookSecretRotation from './2026_12_02_200000_webhook_secret_rotation.ts';
import * as oneKeyModel from './2026_12_03_000000_one_key_model.ts';
import * as orderRecovery from './2026_12_03_100000_order_recovery.ts';
import * as communityInviteUrl from './2026_12_03_300000_community_invite_url.ts';
import * as createDiscord from './2026_12_04_000000_create_discord.ts';
import * as discordRoleGrants from './2026_12_04_100000_discord_role_grants.ts';
import * as operatorAlerts from './2026_12_05_A0001_operator_alerts.ts';
import * as poolAtScale from './2026_12_05_P0001_pool_at_scale.ts';
import * as fleetHopRollups from './2026_12_05_R0001_fleet_hop_rollups.ts';
import * as analysisResolution from './2026_12_05_V0001_analysis_resolution.ts';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations = {
  '2026_11_22_000000_create_auth_and_audit': createAuthAndAudit,
  '2026_11_22_000100_create_license_keys': createLicenseKeys,
  '2026_11_22_000200_create_system_configuration': createSystemConfiguration,
  '2026_11_22_000300_create_scripts': createScripts,
  '2026_11_22_000400_create_redemption_and_script_keys': createRedemptionAndScriptKeys,
  '2026_11_23_000000_audit_logs_client': auditLogsClient,
  '2026_11_23_000100_scripts_name_keys': scriptsNameKeys,
  '2026_11_23_000200_create_bot_tokens': createBotTokens,
  '2026_11_23_000400_create_server_pool': createServerPool,
  '2026_11_23_000500_create_fleet': createFleet,
  '2026_11_24_000000_create_configuration': createConfiguration,
  '2026_11_25_000000_create_health_reports': createHealthReports,
  '2026_11_26_000000_create_analysis': createAnalysis,
  '2026_11_27_000000_create_notifications': createNotifications,
  '2026_11_28_000000_hwid_resets': hwidResets,
  '2026_11_28_000100_configuration_emergency_told': configurationEmergencyTold,
  '2026_11_29_000000_create_payments': createPayments,
  '2026_12_01_000000_order_holds': orderHolds,
  '2026_12_01_000100_create_bot_credentials': createBotCredentials,
  '2026_12_01_000200_admin_login_attempts': adminLoginAttempts,
  '2026_12_01_000400_script_key_addresses': scriptKeyAddresses,
  '2026_12_01_000401_loader_signing_key': loaderSigningKey,
  '2026_12_01_000500_payments_verify': paymentsVerify,
  '2026_12_02_100000_notification_lanes': notificationLanes,
  '2026_12_02_200000_webhook_secret_rotation': webhookSecretRotation,
  '2026_12_03_000000_one_key_model': oneKeyModel,
  '2026_12_03_100000_order_recovery': orderRecovery,
  '2026_12_03_300000_community_invite_url': communityInviteUrl,
  '2026_12_04_000000_create_discord': createDiscord,
  '2026_12_04_100000_discord_role_grants': discordRoleGrants,
  '2026_12_05_A0001_operator_alerts': operatorAlerts,
  '2026_12_05_P0001_pool_at_scale': poolAtScale,
  '2026_12_05_R0001_fleet_hop_rollups': fleetHopRollups,
  '2026_12_05_V0001_analysis_resolution': analysisResolution,
};
