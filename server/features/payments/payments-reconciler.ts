import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acquireLease, releaseLease } from '../../db/leases.ts';
import { BtcpayRefusedError, BtcpayUnavailableError, getInvoice } from './btcpay-client.ts';
import { applyInvoice } from './invoice-apply.service.ts';
import { expireOrder } from './orders.service.ts';
import { markOrderChecked } from './orders.store.ts';
import { listDueUninvoicedOrders, listOrdersToReconcile } from './orders-reconcile.store.ts';
import { getBtcpayConnection } from './payment-settings.service.ts';

/*
 * Nothing missed: every PAYMENTS_RECONCILE_MS, the instance holding the 'payments-reconciler' lease
 * reads the invoices of pending orders again and applies them as a webhook would (applyInvoice), so
 * a payment whose webhook never came is still delivered and ended invoices free their slots. The
 * same check holds: a settled invoice that does not pay the order's price makes no code. It reads
 * additionalStatus as the webhook does (a late payment of an expired invoice is PaidLate, never
 * Settled), watches expired orders for a late payment for a day, and sends the order mails still due.
 */

export const RECONCILER_LEASE = 'payments-reconciler';
/** Orders read per round (a round every minute covers far more than one shop sells). */
const BATCH = 100;

export interface ReconcileSummary {
  checked: number;
  paid: number;
  ended: number;
  /** Settled invoices that do not pay their order's price: held as underpaid / mismatch, no code. */
  held: number;
  /** BTCPay did not answer: the rest waits for the next round. */
  unavailable: boolean;
  /** Order mails sent (order-mail.ts). */
  mailed: number;
}

/** One sweep (the timer's round; tests call it directly). */
export async function reconcileOrders(ctx: AppContext, log?: FastifyBaseLogger): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { checked: 0, paid: 0, ended: 0, held: 0, unavailable: false, mailed: 0 };
  // Orders that never got an invoice id: nothing to ask BTCPay about once their hold ran out.
  for (const order of await listDueUninvoicedOrders(ctx.db, ctx.now(), BATCH)) {
    if (await expireOrder(ctx, order, 'no_invoice')) summary.ended += 1;
  }
  // Order mails still due (a failure retried, or an instance that stopped before sending).
  summary.mailed = await ctx.services.orderMail.sendDue();
  const connection = await getBtcpayConnection(ctx);
  if (!connection) return summary;
  for (const order of await listOrdersToReconcile(ctx.db, ctx.now(), BATCH)) {
    let invoice: Awaited<ReturnType<typeof getInvoice>>;
    try {
      invoice = await getInvoice(connection, order.invoice_id as string);
    } catch (error) {
      if (!(error instanceof BtcpayUnavailableError || error instanceof BtcpayRefusedError)) throw error;
      log?.warn({ reason: error.message }, 'payments: BTCPay Server did not answer the reconciler');
      summary.unavailable = true;
      break;
    }
    summary.checked += 1;
    if (!invoice || invoice.storeId !== connection.storeId) {
      // BTCPay does not know it (any more): it ends when its hold runs out, and is not asked again.
      if (order.expires_at <= ctx.now() && (await expireOrder(ctx, order, 'invoice_not_found')))
        summary.ended += 1;
      if (order.status === 'expired') await markOrderChecked(ctx.db, order.id, ctx.now());
      continue;
    }
    if (
      order.status === 'expired' &&
      invoice.status === 'Expired' &&
      invoice.additionalStatus !== 'PaidLate' &&
      invoice.additionalStatus !== 'PaidPartial'
    ) {
      // Still unpaid: asked again later while a late payment may come (listOrdersToReconcile).
      await markOrderChecked(ctx.db, order.id, ctx.now());
      continue;
    }
    const outcome = await applyInvoice(ctx, order, invoice, { via: 'reconciler' });
    if (outcome === 'paid') summary.paid += 1;
    if (outcome === 'expired' || outcome === 'invalid') summary.ended += 1;
    if (outcome === 'underpaid' || outcome === 'mismatch') summary.held += 1;
  }
  return summary;
}

export interface PaymentsReconciler {
  /** Ends the loop after the round in flight, and gives the lease up. */
  stop(): Promise<void>;
}

/** The timer: a round every `intervalMs` while this instance holds the lease. */
export function startPaymentsReconciler(
  ctx: AppContext,
  log: FastifyBaseLogger,
  options: { intervalMs: number; instanceId: string },
): PaymentsReconciler {
  const { intervalMs, instanceId } = options;
  // Outlives a round's pause, so the holder keeps it from one round to the next.
  const leaseTtlMs = intervalMs * 2 + 30_000;
  let running = true;
  let holding = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const pause = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, intervalMs);
    });

  const holdLease = async () => {
    holding = await acquireLease(ctx.db, RECONCILER_LEASE, instanceId, ctx.now(), leaseTtlMs);
    return holding;
  };

  const loop = (async () => {
    // The lease is taken at start (its row exists from then on); the first sweep waits one interval.
    await holdLease().catch((error: unknown) => log.error({ err: error }, 'payments: lease not taken'));
    while (running) {
      await pause();
      if (!running) break;
      try {
        if (await holdLease()) {
          const summary = await reconcileOrders(ctx, log);
          if (summary.paid > 0 || summary.ended > 0 || summary.held > 0 || summary.mailed > 0)
            log.info(summary, 'payments: reconciled pending orders');
        }
      } catch (error) {
        log.error({ err: error }, 'payments: reconcile round failed');
      }
    }
    if (holding) await releaseLease(ctx.db, RECONCILER_LEASE, instanceId).catch(() => {});
  })();

  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}

/** Starts the reconciler when the app is ready and stops it (after its round) when the app closes. */
export function registerPaymentsReconciler(app: FastifyInstance, ctx: AppContext): void {
  let reconciler: PaymentsReconciler | undefined;
  app.addHook('onReady', async () => {
    reconciler = startPaymentsReconciler(ctx, app.log, {
      intervalMs: ctx.config.PAYMENTS_RECONCILE_MS,
      // Two instances on one host (or two test apps in one process) hold the lease apart.
      instanceId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    });
  });
  app.addHook('onClose', async () => {
    await reconciler?.stop();
    // A mail being tried finishes (or fails, and stays due for the next instance's round).
    await ctx.services.orderMail.idle();
    ctx.services.orderMail.close();
  });
}
