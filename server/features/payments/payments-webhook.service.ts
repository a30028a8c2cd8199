import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { WebhookOutcome } from '../../../common/payments.ts';
import { findUnsafeText } from '../../../common/text.ts';
import type { AppContext } from '../../context.ts';
import { badRequest, HttpError } from '../../http-error.ts';
import { unsafeTextError } from '../../plugins/text-check.ts';
import { secretsEqual } from '../auth/secret.ts';
import { BtcpayRefusedError, BtcpayUnavailableError, getInvoice } from './btcpay-client.ts';
import { applyInvoice } from './invoice-apply.service.ts';
import { findOrderById, findOrderByInvoiceId, insertWebhookDelivery } from './orders.store.ts';
import { type BtcpayConnection, getBtcpayConnection } from './payment-settings.service.ts';
import { markPreviousWebhookSecretUsed } from './payment-settings.store.ts';
import {
  countWebhookRejection,
  insertRejectionAuditRow,
  updateRejectionAuditRow,
} from './webhook-rejections.store.ts';

export const WEBHOOK_TEXTS = {
  notConfigured: 'Payments are not configured on this server',
  missingSignature: 'BTCPay-Sig header missing',
  wrongSignature: 'BTCPay-Sig does not match the body',
  /** BTCPay could not be asked about the invoice: BTCPay retries the delivery. */
  unavailable: 'BTCPay Server did not answer when the invoice was read again; send the delivery again later',
} as const;

/** What BTCPay's webhook body must hold for Scanline to act on it (other fields are ignored). */
const WebhookEventSchema = z.object({
  deliveryId: z.string().min(1).max(200),
  originalDeliveryId: z.string().max(200).nullish(),
  isRedelivery: z.boolean().optional(),
  type: z.string().min(1).max(100),
  storeId: z.string().max(200).nullish(),
  invoiceId: z.string().min(1).max(200).nullish(),
});

/** 401: a missing or wrong signature. */
export class WebhookRejectedError extends HttpError {
  constructor(message: string) {
    super(401, message);
  }
}

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, compared in constant time. */
function signatureMatches(header: string | undefined, secret: string, body: Buffer): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest('hex');
  return secretsEqual(expected, match[1]!.toLowerCase());
}

/**
 * Which secret signed the body: the current one, or the one it replaced while that still verifies
 * (a rotation; payment-settings.service.ts). Both are checked, each in constant time.
 */
function verifySignature(
  header: string | undefined,
  connection: BtcpayConnection,
  body: Buffer,
): 'current' | 'previous' | null {
  const current = signatureMatches(header, connection.webhookSecret, body);
  const previous =
    connection.previousWebhookSecret !== null &&
    signatureMatches(header, connection.previousWebhookSecret, body);
  return current ? 'current' : previous ? 'previous' : null;
}

export interface WebhookResult {
  outcome: WebhookOutcome;
  orderId: string | null;
}

/**
 * One webhook delivery from BTCPay Server. The body is only trusted to name an invoice: the invoice
 * is read again from BTCPay and the order follows what BTCPay says now. Answers once the effect and
 * the delivery's row are committed together, so BTCPay's own retry covers a crash before that;
 * when BTCPay cannot be asked, nothing is recorded and the caller answers 503 (BTCPay retries).
 */
export async function receiveBtcpayWebhook(
  ctx: AppContext,
  request: { body: Buffer; signature: string | undefined; ip: string },
): Promise<WebhookResult> {
  const connection = await getBtcpayConnection(ctx);
  // 503, not 404: BTCPay retries only 5xx, 408, 429 and network errors, so a delivery that arrives
  // while the connection is being set up (or its settings are away) comes again instead of being lost.
  if (!connection) throw new WebhookRetryError('payments not configured', WEBHOOK_TEXTS.notConfigured);
  const signedWith = verifySignature(request.signature, connection, request.body);
  if (signedWith === null) {
    const reason =
      request.signature === undefined ? WEBHOOK_TEXTS.missingSignature : WEBHOOK_TEXTS.wrongSignature;
    await auditRejection(ctx, request.ip, reason);
    throw new WebhookRejectedError(reason);
  }
  if (signedWith === 'previous') {
    // BTCPay still signs with the secret being rotated out: the settings screen shows it in use.
    await markPreviousWebhookSecretUsed(ctx.db, ctx.now());
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body.toString('utf8'));
  } catch {
    throw badRequest('The webhook body is not JSON');
  }
  // The global text check sees only a parsed body; this one arrives raw (plugins/text-check.ts).
  const unsafe = findUnsafeText(parsed);
  if (unsafe !== undefined) throw badRequest(unsafeTextError('body', unsafe));
  const event = WebhookEventSchema.safeParse(parsed);
  if (!event.success) {
    const issue = event.error.issues[0];
    throw badRequest(
      `The webhook body is not a BTCPay event: ${issue?.path.join('.') || 'body'}: ${issue?.message}`,
    );
  }
  const { deliveryId, type, invoiceId } = event.data;
  const delivery = {
    deliveryId,
    originalDeliveryId: event.data.originalDeliveryId ?? null,
    isRedelivery: event.data.isRedelivery ?? false,
    eventType: type,
  };
  const recordOnly = async (
    outcome: WebhookOutcome,
    orderId: string | null = null,
  ): Promise<WebhookResult> => {
    await insertWebhookDelivery(
      ctx.db,
      { ...delivery, invoiceId: invoiceId ?? null, orderId, outcome },
      ctx.now(),
    );
    return { outcome, orderId };
  };

  // Another store's event, or one about no invoice: nothing to do (answered 200 so BTCPay stops).
  if (!invoiceId || (event.data.storeId && event.data.storeId !== connection.storeId))
    return recordOnly('ignored');

  let invoice: Awaited<ReturnType<typeof getInvoice>>;
  try {
    invoice = await getInvoice(connection, invoiceId);
  } catch (error) {
    if (error instanceof BtcpayUnavailableError || error instanceof BtcpayRefusedError) {
      throw new WebhookRetryError(error.message);
    }
    throw error;
  }
  if (!invoice) return recordOnly('unknown_invoice');
  if (invoice.storeId !== connection.storeId) return recordOnly('ignored');

  const order =
    (await findOrderByInvoiceId(ctx.db, invoice.id)) ??
    (invoice.orderId ? await findOrderById(ctx.db, invoice.orderId) : undefined);
  // Metadata may only stand in for a missing invoice id, never point at another invoice's order.
  if (!order || (order.invoice_id !== null && order.invoice_id !== invoice.id))
    return recordOnly('unknown_invoice');
  const outcome = await applyInvoice(ctx, order, invoice, { via: 'webhook', delivery });
  return { outcome, orderId: order.id };
}

const MINUTE_MS = 60_000;

/**
 * Audits a refused post as one `webhook_rejected` row per address and minute: the first writes it,
 * the rest raise `details.count`, so a flood of forged posts costs the audit log one row a minute.
 */
async function auditRejection(ctx: AppContext, ip: string, reason: string): Promise<void> {
  const now = ctx.now();
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  await ctx.db.transaction().execute(async (trx) => {
    const { count, auditLogId } = await countWebhookRejection(trx, ip, minute);
    const details = { reason, ip, count, minute: new Date(minute).toISOString() };
    if (auditLogId === null) {
      const entry = { eventType: 'webhook_rejected' as const, success: false, ipAddress: ip, details };
      await insertRejectionAuditRow(trx, { ip, minute }, entry, now);
    } else {
      await updateRejectionAuditRow(trx, auditLogId, details);
    }
  });
}

/** Seconds BTCPay is asked to wait before it delivers a 503'd event again. */
export const WEBHOOK_RETRY_AFTER_S = 10;

/**
 * 503: this delivery cannot be acted on now (BTCPay could not be asked about the invoice, or payments
 * are not configured here), so BTCPay should send it again; `reason` is for the log.
 */
export class WebhookRetryError extends HttpError {
  constructor(
    readonly reason: string,
    message: string = WEBHOOK_TEXTS.unavailable,
  ) {
    super(503, message);
  }
}
