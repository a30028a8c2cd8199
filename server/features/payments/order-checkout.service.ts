import { randomBytes } from 'node:crypto';
import {
  clockTime,
  ORDER_ID_PATTERN,
  ORDER_PAGE_PREFIX,
  ORDER_REFUSAL_REASONS,
  ORDER_TEXTS,
  orderCheckoutPath,
  orderPendingText,
  slotsReservedText,
} from '../../../common/order-texts.ts';
import { type CreateOrderResponse, ORDER_PRICE } from '../../../common/payments.ts';
import { PUBLIC_PAGES } from '../../../common/web-routes.ts';
import type { AppContext } from '../../context.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { sha256 } from '../auth/secret.ts';
import { limitedClient } from '../security/client-address.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { countSlots, getSystemConfiguration } from '../system/system.service.ts';
import { BtcpayRefusedError, BtcpayUnavailableError, createInvoice } from './btcpay-client.ts';
import { sealOrderLink } from './order-recovery.ts';
import {
  endPendingOrder,
  findHoldingOrderOfNetwork,
  findOrderById,
  holdOrderForCheckout,
  insertOrder,
  lockSlots,
  recordOrderInvoice,
} from './orders.store.ts';
import { getEffectivePaymentSettings } from './payment-settings.service.ts';

/*
 * Placing an order and opening its checkout: the rules that keep slots for buyers rather than
 * strangers (docs/payments.md, "Slots"). One pending order per client network; a short hold
 * (ORDER_HOLD_MINUTES) that grows to the invoice's life when the buyer opens the checkout; and
 * holds counted only up to PENDING_ORDERS_MAX_SHARE of the unsold slots (system.service countSlots).
 */

/** 503 for the buyer; `reason` (BTCPay's failure, never the key) is for the log. */
export class ProcessorUnavailableError extends HttpError {
  constructor(readonly reason: string) {
    super(503, ORDER_TEXTS.processorUnavailable);
  }
}

/** 409 with details the buyer page shows (the route sends them beside `error`). */
export class OrderRefusedError extends HttpError {
  constructor(
    message: string,
    readonly details: { reason: string; freeAgainAt: string; reservedSlots?: number },
  ) {
    super(409, message);
  }
}

/** The server's words for a time: the buyer page shows `freeAgainAt` in the buyer's own zone. */
const utcClock = (iso: string) => `${clockTime(iso, 'UTC')} UTC`;

/** An order placed (201), or the one this browser already has waiting (200). */
export interface PlacedOrder {
  created: boolean;
  order: CreateOrderResponse;
}

/**
 * A buyer's new order: a short hold on a slot (or 409), then BTCPay's invoice. The slot is decided in
 * one transaction that serializes every order (lockSlots), so two buyers never get the last one; the
 * invoice is created outside it, so a slow BTCPay holds no lock. `ownOrderId` is the order this
 * browser placed before (its cookie): while that one still holds, it is handed back instead.
 */
export async function createOrder(
  ctx: AppContext,
  request: { ip: string; publicBase: string; ownOrderId?: string; email?: string },
): Promise<PlacedOrder> {
  const settings = await getEffectivePaymentSettings(ctx);
  const connection = settings.connection;
  if (!connection) throw notFound(ORDER_TEXTS.notAvailable);
  const checkoutLinkOf = (id: string) => `${request.publicBase}${orderCheckoutPath(id)}`;

  const own = request.ownOrderId ? await findHoldingOrder(ctx, request.ownOrderId) : undefined;
  if (own?.invoice_id)
    return { created: false, order: { orderId: own.id, checkoutLink: checkoutLinkOf(own.id) } };

  const { totalSlots } = await getSystemConfiguration(ctx);
  const network = limitedClient(request.ip);
  const orderId = randomBytes(12).toString('base64url');
  const secret = randomBytes(16).toString('base64url');
  // The secret rides only in the fragment, which browsers never send: it reaches no log.
  const redirectUrl = `${request.publicBase}${ORDER_PAGE_PREFIX}${orderId}#${secret}`;
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockSlots(trx, ctx.dialect);
    const waiting = await findHoldingOrderOfNetwork(trx, network, now);
    if (waiting) {
      const until = new Date(waiting.expires_at).toISOString();
      throw new OrderRefusedError(orderPendingText(utcClock(until)), {
        reason: ORDER_REFUSAL_REASONS.orderPending,
        freeAgainAt: until,
      });
    }
    const slots = await countSlots(ctx, trx, totalSlots);
    if (slots.available <= 0) {
      if (slots.held === 0 || slots.freeAgainAt === null) throw conflict(ORDER_TEXTS.soldOut);
      const freeAgainAt = new Date(slots.freeAgainAt).toISOString();
      throw new OrderRefusedError(slotsReservedText(slots.held, utcClock(freeAgainAt)), {
        reason: ORDER_REFUSAL_REASONS.slotsReserved,
        reservedSlots: slots.held,
        freeAgainAt,
      });
    }
    await insertOrder(trx, {
      id: orderId,
      secret_hash: sha256(secret),
      status: 'pending',
      invoice_id: null,
      checkout_link: null,
      amount: ORDER_PRICE.amount,
      currency: ORDER_PRICE.currency,
      key_type: settings.delivery.keyType,
      validity_hours: settings.delivery.validityHours,
      max_hardware_bindings: settings.delivery.maxHardwareBindings,
      redemption_key_id: null,
      redemption_code: null,
      client_ip: request.ip,
      client_network: network,
      created_at: now,
      // Creating the invoice takes at most 10 s; the hold grows when the buyer opens the checkout.
      expires_at: now + ctx.config.ORDER_HOLD_MINUTES * 60_000,
      invoice_expires_at: null,
      checkout_opened_at: null,
      paid_at: null,
      ended_at: null,
      checked_at: null,
      // For this order only: its mail, and finding its page again (order-recovery.ts).
      buyer_email: request.email ?? null,
      sealed_link: request.email ? sealOrderLink(redirectUrl, request.email, orderId) : null,
    });
  });

  let invoice: Awaited<ReturnType<typeof createInvoice>>;
  try {
    invoice = await createInvoice(connection, orderId, redirectUrl);
  } catch (error) {
    if (!(error instanceof BtcpayUnavailableError || error instanceof BtcpayRefusedError)) throw error;
    // Marked invalid rather than deleted: its slot frees at once, and the operator's Orders list
    // still shows the attempt that BTCPay did not take.
    await endPendingOrder(ctx.db, orderId, 'invalid', ctx.now());
    throw new ProcessorUnavailableError(error.message);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await recordOrderInvoice(trx, orderId, {
      invoiceId: invoice.id,
      checkoutLink: invoice.checkoutLink,
      expiresAt: invoice.expiresAt,
    });
    await insertAuditLog(
      trx,
      {
        eventType: 'order_created',
        success: true,
        ipAddress: request.ip,
        details: { orderId, invoiceId: invoice.id, ip: request.ip },
      },
      ctx.now(),
    );
  });
  return { created: true, order: { orderId, checkoutLink: checkoutLinkOf(orderId) } };
}

/** The order `id` names while it still holds its slot. */
async function findHoldingOrder(ctx: AppContext, id: string) {
  if (!ORDER_ID_PATTERN.test(id)) return undefined;
  const order = await findOrderById(ctx.db, id);
  return order?.status === 'pending' && order.expires_at > ctx.now() ? order : undefined;
}

/**
 * The buyer opens the order's checkout: while its short hold runs, the order holds its slot for the
 * invoice's life and the buyer goes on to BTCPay's checkout (a paid one too: BTCPay shows it paid and
 * sends the buyer back to the order page). An order whose hold ran out sends the buyer to the buyer
 * page, to order again.
 */
export async function openOrderCheckout(ctx: AppContext, orderId: string): Promise<string> {
  const order = ORDER_ID_PATTERN.test(orderId) ? await findOrderById(ctx.db, orderId) : undefined;
  if (!order) throw notFound(ORDER_TEXTS.notFound);
  if (order.checkout_link && order.status === 'paid') return order.checkout_link;
  if (order.checkout_link && order.status === 'pending' && order.expires_at > ctx.now()) {
    await holdOrderForCheckout(ctx.db, order.id, ctx.now());
    return order.checkout_link;
  }
  return PUBLIC_PAGES.buyer[0];
}
