import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeliveryListSchema,
  DeliveryQuerySchema,
  DeliverySchema,
  DestinationInputSchema,
  DestinationListSchema,
  DestinationPatchSchema,
  DestinationSchema,
} from '../../../common/notifications.ts';
import type { FeatureOptions } from '../../context.ts';
import { IdParamsSchema } from '../../plugins/id-params.ts';
import { responses } from '../../plugins/responses.ts';
import {
  createDestination,
  deleteDestination,
  listDeliveries,
  listDestinations,
  outboundPolicyOf,
  retryDelivery,
  sendTestNotification,
  updateDestination,
} from './notifications.service.ts';

/** What Send test answers: whether the destination took the sample find, and its HTTP status. */
const TestResultSchema = z.object({
  ok: z.boolean(),
  /** The destination's HTTP status; null when no answer came (refused address, timeout, network). */
  status: z.number().nullable(),
  error: z.string().optional(),
});

/**
 * Notifications (admin): destinations finds are posted to, and their deliveries. Under /api/admin,
 * so the admin guard and the origin check cover every call.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/notifications/destinations',
    {
      schema: {
        summary:
          "List the destinations (URLs masked) with their delivery figures, and the server's URL settings",
        response: responses({ 200: DestinationListSchema }),
      },
    },
    async () => ({ destinations: await listDestinations(ctx), urlPolicy: outboundPolicyOf(ctx) }),
  );

  app.post(
    '/api/admin/notifications/destinations',
    {
      schema: {
        summary: 'Add a destination (a Discord webhook or a JSON endpoint); a URL the rules refuse is a 400',
        body: DestinationInputSchema,
        response: responses({ 201: z.object({ destination: DestinationSchema }) }),
      },
    },
    async (request, reply) => {
      const destination = await createDestination(ctx, request.body, { ip: request.ip });
      return reply.status(201).send({ destination });
    },
  );

  app.patch(
    '/api/admin/notifications/destinations/:id',
    {
      schema: {
        summary:
          'Change a destination (any of its settings); enabling it clears a reason it was turned off for',
        params: IdParamsSchema,
        body: DestinationPatchSchema,
        response: responses({ 200: z.object({ destination: DestinationSchema }) }),
      },
    },
    async (request) => ({
      destination: await updateDestination(ctx, request.params.id, request.body, { ip: request.ip }),
    }),
  );

  app.delete(
    '/api/admin/notifications/destinations/:id',
    {
      schema: {
        summary: 'Delete a destination and its deliveries',
        params: IdParamsSchema,
        response: responses({ 200: z.object({ success: z.literal(true) }) }),
      },
    },
    async (request) => {
      await deleteDestination(ctx, request.params.id, { ip: request.ip });
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/notifications/destinations/:id/test',
    {
      schema: {
        summary: 'Post a sample find to the destination now and answer how it went',
        params: IdParamsSchema,
        body: z.unknown().optional(),
        response: responses({ 200: TestResultSchema }),
      },
    },
    async (request) => sendTestNotification(ctx, request.params.id),
  );

  app.get(
    '/api/admin/notifications/deliveries',
    {
      schema: {
        summary: 'List deliveries, newest first, by destination and state',
        querystring: DeliveryQuerySchema,
        response: responses({ 200: DeliveryListSchema }),
      },
    },
    async (request) => ({ deliveries: await listDeliveries(ctx, request.query) }),
  );

  app.post(
    '/api/admin/notifications/deliveries/:id/retry',
    {
      schema: {
        summary: 'Queue a failed delivery again (pending, attempts 0, due now)',
        params: IdParamsSchema,
        body: z.unknown().optional(),
        response: responses({ 200: z.object({ delivery: DeliverySchema }) }),
      },
    },
    async (request) => ({ delivery: await retryDelivery(ctx, request.params.id, { ip: request.ip }) }),
  );
};
