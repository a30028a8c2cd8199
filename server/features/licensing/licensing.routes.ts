import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SuccessSchema } from '../../../common/api-error.ts';
import {
  CreateLicenseKeySchema,
  LicenseKeyListQuerySchema,
  LicenseKeyListResponseSchema,
  LicenseKeyResponseSchema,
} from '../../../common/licensing.ts';
import type { FeatureOptions } from '../../context.ts';
import { IdParamsSchema } from '../../plugins/id-params.ts';
import { responses } from '../../plugins/responses.ts';
import {
  createLicenseKey,
  deleteLicenseKey,
  listLicenseKeysForAdmin,
  revokeLicenseKey,
} from './licensing.service.ts';

export const licensingRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/admin/license-keys',
    { schema: { body: CreateLicenseKeySchema, response: responses({ 201: LicenseKeyResponseSchema }) } },
    async (request, reply) => {
      const licenseKey = await createLicenseKey(ctx, request.body, { ip: request.ip });
      return reply.status(201).send({ licenseKey });
    },
  );

  app.get(
    '/api/admin/license-keys',
    {
      schema: {
        querystring: LicenseKeyListQuerySchema,
        response: responses({ 200: LicenseKeyListResponseSchema }),
      },
    },
    async (request) => listLicenseKeysForAdmin(ctx, request.query),
  );

  app.post(
    '/api/admin/license-keys/:id/revoke',
    {
      schema: {
        params: IdParamsSchema,
        body: z.unknown().optional(),
        response: responses({ 200: LicenseKeyResponseSchema }),
      },
    },
    async (request) => ({ licenseKey: await revokeLicenseKey(ctx, request.params.id, { ip: request.ip }) }),
  );

  app.delete(
    '/api/admin/license-keys/:id',
    { schema: { params: IdParamsSchema, response: responses({ 200: SuccessSchema }) } },
    async (request) => {
      await deleteLicenseKey(ctx, request.params.id, { ip: request.ip });
      return { success: true as const };
    },
  );
};
