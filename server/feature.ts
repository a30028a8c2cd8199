import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, AppServices, FeatureOptions } from './context.ts';
import type { SocketProtocol } from './realtime/protocol.ts';

/**
 * What a feature hands the app: each folder under server/features has one entry module,
 * `<area>/<area>.feature.ts`, exporting its manifest (`export const <area>Feature = {…} satisfies
 * Feature`, so app.ts sees which services each builds and a service nobody builds fails to compile).
 * buildApp (server/app.ts) imports only the entries, lists them, and runs each step for every
 * feature in the list's order before the next step: guard, services, jobs, routes, protocols.
 * An entry imports its own feature's files only (tests/architecture.test.ts holds to it); what a
 * feature does for one below it (the fleet's bot hooks) goes through a service.
 */
export interface Feature {
  /** The feature's folder under server/features; also its routes' tag in the API document. */
  name: string;
  /**
   * Hooks every request passes (the admin guard): after the cross-cutting checks (text, origin) and
   * before any service exists or any route is registered.
   */
  guard?(app: FastifyInstance, ctx: AppContext): void;
  /**
   * The long-lived services it adds to ctx.services (server/context.ts). Those of the features listed
   * before it are there already; those after it are not, so a service reads them only once called.
   */
  services?(ctx: AppContext, app: FastifyInstance): Partial<AppServices>;
  /** What it runs beside the requests (loading state, sweeps, loops): started on ready, stopped on close. */
  jobs?(app: FastifyInstance, ctx: AppContext): void;
  /** Its route plugins, registered in this order, each in a context of its own. */
  routes?: FastifyPluginAsyncZod<FeatureOptions>[];
  /** The socket protocols it registers with the transport, after every route, in this order. */
  protocols?(ctx: AppContext): SocketProtocol[];
}
