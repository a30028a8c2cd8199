import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BTCPAY_WEBHOOK_PATH } from '../../../common/order-texts.ts';
import {
  CreateOrderRequestSchema,
  CreateOrderResponseSchema,
  OrderLookupRequestSchema,
  OrderLookupResponseSchema,
  OrderStatusRequestSchema,
  OrderStatusResponseSchema,
  WEBHOOK_OUTCOMES,
} from '../../../common/payments.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import {
  createOrder,
  OrderRefusedError,
  openOrderCheckout,
  ProcessorUnavailableError,
} from './order-checkout.service.ts';
import { lookUpOrder, readOrderStatus } from './orders.service.ts';
import {
  receiveBtcpayWebhook,
  WEBHOOK_RETRY_AFTER_S,
  WebhookRetryError,
} from './payments-webhook.service.ts';

const OrderParamsSchema = z.object({ id: z.string().max(100, 'id must be at most 100 characters') });

/** 303 See Other: no body; Location is BTCPay's checkout, or /buyer once the order's hold ran out. */
const CheckoutRedirectSchema = z
  .null()
  .meta({ description: "See Other: Location is BTCPay's checkout, or /buyer once the order's hold ran out" });

const WebhookAnswerSchema = z
  .object({ outcome: z.enum(WEBHOOK_OUTCOMES), orderId: z.string().nullable() })
  .meta({ id: 'BtcpayWebhookResult' });

/** BTCPay posts small JSON events; anything bigger is not one. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

/** Per IP. BTCPay retries a refused delivery later, so a burst beyond this loses nothing. */
const WEBHOOK_CALLS_PER_MINUTE = 600;

/**
 * A page polling every 3 s (ORDER_POLL_MS) for a 15-minute invoice asks about 20 times a minute; a
 * few tabs fit under this. The secret has 128 bits, so no limit is needed against guessing it.
 */
const STATUS_CALLS_PER_MINUTE = 120;

/** Names the order this browser placed, so a second press of Pay now gets it back (HttpOnly, this path only). */
const ORDER_COOKIE = 'scanline_order';
/** Longer than any hold but a confirming payment's; the server checks the order anyway. */
const ORDER_COOKIE_MAX_AGE_S = 60 * 60;

/**
 * Payments: the buyer's order and its status (no session; limited per IP), and BTCPay Server's
 * webhook (server to server, signed). None is under /api/admin, so no Origin check applies.
 */
export const paymentsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const publicBaseOf = (request: FastifyRequest) =>
    ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  app.post(
    '/api/public/orders',
    {
      schema: {
        summary:
          'Place an order: a short hold on a slot and its BTCPay invoice; 200 hands back the order this browser already has waiting (404 not connected, 409 Sold Out / slots reserved / an order from this address waiting, 503 BTCPay down). An optional e-mail gets the code once paid and finds the order page again',
        body: CreateOrderRequestSchema,
        response: responses({ 200: CreateOrderResponseSchema, 201: CreateOrderResponseSchema }),
      },
      preHandler: app.rateLimitHooks('order'),
    },
    async (request, reply) => {
      try {
        const placed = await createOrder(ctx, {
          ip: request.ip,
          publicBase: publicBaseOf(request),
          ownOrderId: request.cookies[ORDER_COOKIE],
          email: request.body.email,
        });
        reply.setCookie(ORDER_COOKIE, placed.order.orderId, {
          httpOnly: true,
          sameSite: 'strict',
          secure: ctx.config.COOKIE_SECURE,
          path: '/api/public/orders',
          maxAge: ORDER_COOKIE_MAX_AGE_S,
        });
        return reply.status(placed.created ? 201 : 200).send(placed.order);
      } catch (error) {
        if (error instanceof OrderRefusedError) {
          return reply.status(409).send({ error: error.message, ...error.details });
        }
        if (error instanceof ProcessorUnavailableError) {
          request.log.warn({ reason: error.reason }, 'payments: BTCPay Server did not create the invoice');
        }
        throw error;
      }
    },
  );

  app.get(
    '/api/public/orders/:id/checkout',
    {
      schema: {
        summary:
          "Opens an order's checkout: holds its slot for the invoice's life and redirects (303) to BTCPay's checkout, or to /buyer once its hold ran out",
        params: OrderParamsSchema,
        response: responses({ 303: CheckoutRedirectSchema }),
      },
      config: { rateLimit: { max: STATUS_CALLS_PER_MINUTE, timeWindow: '1 minute' } },
    },
    async (request, reply) => reply.redirect(await openOrderCheckout(ctx, request.params.id), 303),
  );

  app.post(
    '/api/public/orders/:id/status',
    {
      schema: {
        summary:
          "An order's status for its page, with its code once paid (the secret from the link's fragment)",
        params: OrderParamsSchema,
        body: OrderStatusRequestSchema,
        response: responses({ 200: OrderStatusResponseSchema }),
      },
      config: { rateLimit: { max: STATUS_CALLS_PER_MINUTE, timeWindow: '1 minute' } },
    },
    async (request) => readOrderStatus(ctx, request.params.id, request.body.secret, publicBaseOf(request)),
  );

  app.post(
    '/api/public/orders/lookup',
    {
      schema: {
        summary:
          "A lost order page: the order link (with its secret) for the invoice id on BTCPay's receipt and the e-mail given at Pay now; the same 404 for an unknown invoice as for a wrong e-mail",
        body: OrderLookupRequestSchema,
        response: responses({ 200: OrderLookupResponseSchema }),
      },
      // Counted with My key's recovery calls (RATE_LIMIT_KEY per IP): a guess costs a call.
      preHandler: app.rateLimitHooks('key'),
    },
    async (request) => lookUpOrder(ctx, request.body),
  );

  // Its own scope: the signature covers the exact bytes, so this route alone takes its body raw.
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    webhook.post(
      BTCPAY_WEBHOOK_PATH,
      {
        schema: {
          summary:
            "BTCPay Server's webhook (BTCPay-Sig signed): a settled invoice becomes its order's code; expired or invalid ends the order",
          response: responses({ 200: WebhookAnswerSchema }),
        },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        // Far above what a busy store sends, but a flood of forged posts cannot flood the audit log.
        config: { rateLimit: { max: WEBHOOK_CALLS_PER_MINUTE, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        const signature = request.headers['btcpay-sig'];
        try {
          return await receiveBtcpayWebhook(ctx, {
            body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            signature: typeof signature === 'string' ? signature : undefined,
            ip: request.ip,
          });
        } catch (error) {
          if (error instanceof WebhookRetryError) {
            request.log.warn({ reason: error.reason }, 'payments: webhook answered 503 (BTCPay retries)');
            reply.header('retry-after', String(WEBHOOK_RETRY_AFTER_S));
          }
          throw error;
        }
      },
    );
  });
};
