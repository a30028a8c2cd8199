import type { AppContext } from '../../context.ts';
import {
  type FailingDestination,
  listFailingDestinations,
} from '../notifications/destination-health.store.ts';
import { checkPaymentConnection } from '../payments/payments-admin.service.ts';
import { type AlertCheck, type AlertWords, twoStateHoldMs } from './alert-rules.ts';

/*
 * The alerts of the services the server leans on: BTCPay Server (only once payments are set up), the
 * find destinations (one turned off, or failing for ALERT_NOTIFICATIONS_FAILING_MINUTES), and the
 * alerts destinations themselves, which cannot be told through themselves: the log says it.
 */

/** The hold of a two-state kind: bad after ALERT_RAISE_AFTER_SECONDS, good again after ALERT_CLEAR_AFTER_SECONDS. */
function holdOf(ctx: AppContext, goodState: string) {
  const raiseMs = ctx.config.ALERT_RAISE_AFTER_SECONDS * 1000;
  const clearMs = ctx.config.ALERT_CLEAR_AFTER_SECONDS * 1000;
  return (_alerted: string, observed: string) => twoStateHoldMs(goodState, observed, raiseMs, clearMs);
}

export function paymentsAlertCheck(ctx: AppContext): AlertCheck {
  return {
    kind: 'payments',
    sink: 'outbox',
    goodState: 'connected',
    holdMs: holdOf(ctx, 'connected'),
    async observe() {
      // The Payment Processor tab's own check: one GET of the store.
      const connection = await checkPaymentConnection(ctx);
      if (!connection.configured) return null;
      if (connection.reachable) {
        const store = connection.storeName ? `store ${connection.storeName}` : 'the store';
        return {
          state: 'connected',
          words: () => ({
            title: 'Payments reconnected',
            message: `BTCPay Server answers for ${store} again: buyers can pay`,
            severity: 'ok',
          }),
        };
      }
      return {
        state: 'disconnected',
        words: () => ({
          title: 'Payments disconnected',
          message: `${connection.error ?? 'BTCPay Server does not answer'} — buyers cannot pay`,
          severity: 'critical',
        }),
      };
    },
  };
}

/** "Buyers 1M+ (turned off: Unknown Webhook (404)); Free (HTTP 503)" */
const listed = (destinations: FailingDestination[]) =>
  destinations.map((d) => `${d.name} (${d.reason})`).join('; ');

/** The find destinations failing, or (alertsDestinations) the alerts destinations failing. */
async function failing(ctx: AppContext, alertsDestinations: boolean): Promise<FailingDestination[]> {
  const forMs = ctx.config.ALERT_NOTIFICATIONS_FAILING_MINUTES * 60_000;
  const all = await listFailingDestinations(ctx.db, ctx.now(), forMs);
  return all.filter((d) => d.alerts === alertsDestinations);
}

/** What a destinations check says, failing and back. */
interface DestinationsWords {
  failing: (listed: string) => AlertWords;
  back: AlertWords;
}

/** A check of the find destinations (alertsDestinations false) or of the alerts destinations. */
function destinationsCheck(
  ctx: AppContext,
  kind: string,
  alertsDestinations: boolean,
  words: DestinationsWords,
): AlertCheck {
  return {
    kind,
    // An alerts destination failing cannot be told through the alerts destinations.
    sink: alertsDestinations ? 'log' : 'outbox',
    goodState: 'ok',
    holdMs: holdOf(ctx, 'ok'),
    async observe() {
      const down = await failing(ctx, alertsDestinations);
      if (down.length === 0) return { state: 'ok', words: () => words.back };
      return { state: 'failing', words: () => words.failing(listed(down)) };
    },
  };
}

export const notificationsAlertCheck = (ctx: AppContext) =>
  destinationsCheck(ctx, 'notifications', false, {
    failing: (names) => ({
      title: 'Notifications failing',
      message: `Finds are not reaching ${names}`,
      severity: 'warning',
    }),
    back: {
      title: 'Notifications delivered again',
      message: 'Every find destination takes its finds again',
      severity: 'ok',
    },
  });

/** The alerts destinations: their failure (and recovery) goes to the log, once per change. */
export const alertDestinationsCheck = (ctx: AppContext) =>
  destinationsCheck(ctx, 'alert-destinations', true, {
    failing: (names) => ({
      title: 'Alerts failing',
      message: `Operator alerts are not reaching ${names}`,
      severity: 'warning',
    }),
    back: {
      title: 'Alerts delivered again',
      message: 'Every alerts destination takes its alerts again',
      severity: 'ok',
    },
  });
