import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SuccessSchema } from '../../../common/api-error.ts';
import {
  ADMIN_SESSION_TTL_MS,
  LoginRequestSchema,
  LoginResponseSchema,
  SESSION_COOKIE,
} from '../../../common/auth.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { login, logout } from './auth.service.ts';
import { sha256 } from './secret.ts';

export const authRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.config.COOKIE_SECURE,
    path: '/',
  };

  app.post(
    '/api/admin/login',
    {
      schema: { body: LoginRequestSchema, response: responses({ 200: LoginResponseSchema }) },
      preHandler: app.rateLimitHooks('login'),
    },
    async (request, reply) => {
      const { token } = await login(ctx, app.pendingWrites, request.body.adminSecret, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: ADMIN_SESSION_TTL_MS / 1000 });
      return { success: true as const, expiresIn: ADMIN_SESSION_TTL_MS / 1000 };
    },
  );

  app.post(
    '/api/admin/logout',
    { schema: { body: z.unknown().optional(), response: responses({ 200: SuccessSchema }) } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      await logout(ctx, token);
      if (token) {
        // Its dashboards close now. Should the bus fail, the session is gone all the same and the
        // sockets' next liveness sweep closes them.
        await ctx.services.publisher
          .endSession(sha256(token))
          .catch((err: unknown) => request.log.warn({ err }, 'could not announce the logout to the sockets'));
      }
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return { success: true as const };
    },
  );
};
