/**
 * What a route-level guard checks, told by the guard itself: the OpenAPI document reads it to say
 * how a route is authenticated, so the description follows the code rather than a list kept apart.
 */
export type GuardScheme = 'adminSession' | 'botToken';

const GUARD = Symbol('scanline.routeGuard');

/** Marks an onRequest/preHandler hook as the guard for `scheme`; returns the same hook. */
export function guardedBy<Hook extends object>(scheme: GuardScheme, hook: Hook): Hook {
  Object.defineProperty(hook, GUARD, { value: scheme });
  return hook;
}

/** The schemes guarding a route, from its hooks (one function, an array, or none). */
export function guardsOf(hooks: unknown): GuardScheme[] {
  return [hooks]
    .flat()
    .map((hook) => (typeof hook === 'function' ? (hook as { [GUARD]?: GuardScheme })[GUARD] : undefined))
    .filter((scheme): scheme is GuardScheme => scheme !== undefined);
}
