import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BTCPAY_WEBHOOK_PATH } from '../../../common/order-texts.ts';
import {
  CreateOrderResponseSchema,
  OrderStatusRequestSchema,
  OrderStatusResponseSchema,
  WEBHOOK_OUTCOMES,
} from '../../../common/payments.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { createOrder, ProcessorUnavailableError, readOrderStatus } from './orders.service.ts';
import { receiveBtcpayWebhook, WebhookRetryError } from './payments-webhook.service.ts';

const OrderParamsSchema = z.object({ id: z.string().max(100, 'id must be at most 100 characters') });

const WebhookAnswerSchema = z
  .object({ outcome: z.enum(WEBHOOK_OUTCOMES), orderId: z.string().nullable() })
  .meta({ id: 'BtcpayWebhookResult' });

/** BTCPay posts small JSON events; anything bigger is not one. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * A page polling every 3 s (ORDER_POLL_MS) for a 15-minute invoice asks about 20 times a minute; a
 * few tabs fit under this. The secret has 128 bits, so no limit is needed against guessing it.
 */
const STATUS_CALLS_PER_MINUTE = 120;

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
          'Place an order: holds a slot and creates its BTCPay invoice (404 not connected, 409 Sold Out, 503 BTCPay down)',
        response: responses({ 201: CreateOrderResponseSchema }),
      },
      preHandler: app.rateLimitHooks('order'),
    },
    async (request, reply) => {
      try {
        const created = await createOrder(ctx, { ip: request.ip, publicBase: publicBaseOf(request) });
        return reply.status(201).send(created);
      } catch (error) {
        if (error instanceof ProcessorUnavailableError) {
          request.log.warn({ reason: error.reason }, 'payments: BTCPay Server did not create the invoice');
        }
        throw error;
      }
    },
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
    async (request) => readOrderStatus(ctx, request.params.id, request.body.secret),
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
      },
      async (request) => {
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
          }
          throw error;
        }
      },
    );
  });
};
