import { luaStringLiteral } from './loader-response.ts';

/**
 * What the loader answers a PREMIUM call that carries no hardware id: a few lines of Lua 5.1 that
 * read the device id in the executor (gethwid() where the executor has it, else the Roblox client
 * id), fetch the same loader URL again with `&hwid=` added, and run what comes back with
 * `{ key = KEY, hwid = ID }` as its argument (`...` in the script). So the one-line loader snippet
 * works as it is copied, the key is bound to the device it actually runs on, and the served script
 * learns the key and device from its caller rather than from its own text (scanlinePreamble).
 *
 * `loaderUrl` is the URL of this very call (origin, path and query as received), `key` the key it
 * carried: the caller's own, already in that URL.
 */
export function loaderBootstrapChunk(loaderUrl: string, key: string): string {
  return `-- Scanline: this script is bound to your device; reading its id and loading again.
local id
if gethwid then
  local ok, value = pcall(gethwid)
  if ok then id = value end
end
if id == nil or id == "" then
  local ok, value = pcall(function() return game:GetService("RbxAnalyticsService"):GetClientId() end)
  if ok then id = value end
end
if id == nil or id == "" then
  print("[Scanline] Could not read this device's id: this executor cannot load premium scripts")
  return
end
id = tostring(id)
local url = ${luaStringLiteral(loaderUrl)} .. "&hwid=" .. game:GetService("HttpService"):UrlEncode(id)
loadstring(game:HttpGet(url))({ key = ${luaStringLiteral(key)}, hwid = id })
`;
}
