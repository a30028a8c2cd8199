/**
 * The one-line Lua loader a script user pastes into their executor: it fetches the named script
 * through the loader endpoint of the site it was copied from.
 *
 * Kept free of other imports so the public bundle and the admin editor can both use it cheaply.
 */
export function buildLoaderSnippet(origin: string, script: string): string {
  const base = origin.replace(/\/+$/, '');
  return `loadstring(game:HttpGet("${base}/api/script/loader?script=${encodeURIComponent(script)}"))()`;
}
