import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  OrderListQuerySchema,
  OrderListResponseSchema,
  PaymentConnectionSchema,
  PaymentSettingsResponseSchema,
  ResolveOrderResponseSchema,
  ResolveOrderSchema,
  UpdatePaymentSettingsSchema,
} from '../../../common/payments.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { resolveHeldOrder } from './order-settlement.service.ts';
import { getPaymentSettings } from './payment-settings.service.ts';
import { changePaymentSettings, checkPaymentConnection, listOrders } from './payments-admin.service.ts';

/**
 * Payments (admin): the BTCPay Server connection and what an order delivers, and the orders. Under
 * /api/admin, so the admin guard and the origin check cover every call.
 */
export const paymentsAdminRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/payments/settings',
    {
      schema: {
        summary:
          'Read the connection settings (the API key and webhook secret masked) and what an order delivers',
        response: responses({ 200: PaymentSettingsResponseSchema }),
      },
    },
    async () => ({ settings: await getPaymentSettings(ctx) }),
  );

  app.put(
    '/api/admin/payments/settings',
    {
      schema: {
        summary:
          'Change the settings: an absent field is kept, null clears it; a field the environment sets is a 400',
        body: UpdatePaymentSettingsSchema,
        response: responses({ 200: PaymentSettingsResponseSchema }),
      },
    },
    async (request) => ({
      settings: await changePaymentSettings(ctx, request.body, { ip: request.ip }),
    }),
  );

  app.get(
    '/api/admin/payments/connection',
    {
      schema: {
        summary: 'Ask BTCPay Server for the store with the settings in effect (waits at most 10 s)',
        response: responses({ 200: PaymentConnectionSchema }),
      },
    },
    async () => checkPaymentConnection(ctx),
  );

  app.get(
    '/api/admin/orders',
    {
      schema: {
        summary: 'List orders, newest first, with their webhook deliveries; by status and search',
        querystring: OrderListQuerySchema,
        response: responses({ 200: OrderListResponseSchema }),
      },
    },
    async (request) => listOrders(ctx, request.query),
  );

  app.post(
    '/api/admin/orders/:id/resolve',
    {
      schema: {
        summary:
          'Decide an underpaid or mismatched order: issue its code anyway, or record the payment as refunded (409 for any other order)',
        params: z.object({ id: z.string().max(100, 'id must be at most 100 characters') }),
        body: ResolveOrderSchema,
        response: responses({ 200: ResolveOrderResponseSchema }),
      },
    },
    async (request) => ({
      order: await resolveHeldOrder(ctx, request.params.id, request.body.action, { ip: request.ip }),
    }),
  );
};
