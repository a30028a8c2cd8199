/**
 * The loader a script user pastes into their executor: it fetches the named script through the
 * loader endpoint of the site it was copied from. Key-protected (PREMIUM) scripts add `&key=`.
 *
 * Kept free of other imports so the public bundle and the admin editor can both use it cheaply.
 */

/** GET {origin}/api/script/loader?script={name}[&key={key}] */
export function buildLoaderUrl(origin: string, script: string, key?: string): string {
  const base = origin.replace(/\/+$/, '');
  const keyParam = key === undefined ? '' : `&key=${encodeURIComponent(key)}`;
  return `${base}/api/script/loader?script=${encodeURIComponent(script)}${keyParam}`;
}

/** The one line of Lua that loads the script: `loadstring(game:HttpGet("…"))()`. */
export function buildLoaderSnippet(origin: string, script: string, key?: string): string {
  return `loadstring(game:HttpGet("${buildLoaderUrl(origin, script, key)}"))()`;
}
