import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';

/**
 * Admin script routes (scripts, versions, the scripts page editor) arrive with their issues. The
 * public read of the page config is served by the public feature through scripts.service.ts.
 */
export const scriptsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (_app, { ctx: _ctx }) => {};
