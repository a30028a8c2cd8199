import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/** The document's tags, in the order the reference lists them. */
export const API_TAGS = [
  { name: 'auth', description: 'Admin sign-in and sign-out (the session cookie)' },
  { name: 'public', description: 'What the public pages read: slots, wallets, the scripts page' },
  { name: 'dashboard', description: "The admin dashboard's figures" },
  { name: 'system', description: 'Slots and payment wallets' },
  { name: 'licensing', description: 'License keys' },
  { name: 'bindings', description: 'Hardware bindings of keys to devices' },
  { name: 'redemption', description: 'Redemption codes' },
  { name: 'script-keys', description: 'Script keys' },
  { name: 'loader', description: 'What executors call: the loader, redeem, challenge' },
  {
    name: 'key-status',
    description: "My key: a buyer's key status and device reset; an admin's extra resets",
  },
  { name: 'feed', description: 'The discovery feed script users poll (the socket is /ws/feed)' },
  { name: 'fleet', description: 'Scanner bots: batched events and removal (the socket is /ws)' },
  { name: 'server-pool', description: 'Game servers handed out to bots' },
  { name: 'configuration', description: 'Bot configurations, profiles, emergency control' },
  {
    name: 'notifications',
    description: 'Where finds are posted (Discord webhooks, JSON endpoints) and the deliveries',
  },
  {
    name: 'payments',
    description: 'Orders paid through BTCPay Server, its webhook, the connection settings',
  },
  {
    name: 'discord',
    description: "Discord's slash commands (signed interactions) and the Discord settings",
  },
  { name: 'scripts', description: 'Script store, versions, files, the scripts page' },
  { name: 'security', description: 'Audit log and rate-limit status' },
  { name: 'health', description: 'AI health: report, findings, recommendations, error reports' },
  { name: 'operations', description: 'Health and readiness probes, Prometheus metrics' },
  { name: 'realtime', description: 'The sockets /ws and /ws/feed: upgrade and frames' },
];

/**
 * `feature`, with its routes tagged `tag` in the API document (its folder under server/features, or
 * `operations`): an onRoute hook in the feature's own context sets `schema.tags`, so route files need
 * not repeat it. A tag missing from API_TAGS stops the app at start, so none goes undescribed. The
 * feature runs in that context itself (not one level down), so its encapsulation is what it was.
 */
export function documentedFeature<Options extends FastifyPluginOptions>(
  tag: string,
  feature: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  if (!API_TAGS.some((known) => known.name === tag)) {
    throw new Error(
      `No API tag ${tag} for the feature ${feature.name}: add it to server/operations/feature-tags.ts`,
    );
  }
  const documented: FastifyPluginAsync<Options> = async (instance, options) => {
    instance.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, tags: route.schema?.tags ?? [tag] };
    });
    await feature(instance, options);
  };
  // Fastify names the feature's context (and its errors) after the plugin function.
  Object.defineProperty(documented, 'name', { value: feature.name });
  return documented;
}
