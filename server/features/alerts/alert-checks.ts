import type { AppContext } from '../../context.ts';
import type { AlertCheck } from './alert-rules.ts';
import { diskAlertCheck } from './disk-alert.ts';
import { fleetAlertCheck } from './fleet-alert.ts';
import { alertDestinationsCheck, notificationsAlertCheck, paymentsAlertCheck } from './service-alerts.ts';

/** Everything the alert monitor watches, in the order it looks (Uptime Kuma keeps its monitor types in one list). */
export function alertChecks(ctx: AppContext): AlertCheck[] {
  return [
    fleetAlertCheck(ctx),
    paymentsAlertCheck(ctx),
    notificationsAlertCheck(ctx),
    diskAlertCheck(ctx),
    alertDestinationsCheck(ctx),
  ];
}
