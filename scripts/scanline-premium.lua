-- scanline:access PREMIUM
--[[
  Scanline Premium (scanline-premium.lua)

  The premium scanner: every live pet find, filtered and sorted as the buyer
  chooses (the panel, scanline-panel.lua), the key's time left, and auto-join
  into the best fresh find from 5M/s. It is served only through the loader,
  with a script key bound to this device. The key snippet is all a buyer needs:

    loadstring(game:HttpGet("https://YOUR-SITE/api/script/loader?script=scanline-premium.lua&key=YOUR-KEY"))()

  The universal script loads it the same way once a code is redeemed.
]]

-- The loader prepends `local SCANLINE = { site, keyId, autoJoinMaxAgeS }`: the site it came from and
-- its settings, never the key or the device id (a copy of this script must not carry them). Run
-- without the loader (a saved copy) that local is absent, SCANLINE is the nil global, and every
-- setting below falls back.
local LOADED = (type(SCANLINE) == "table" and SCANLINE) or {}
-- Whoever loaded this script hands it `{ key = ..., hwid = ... }`: the loader's bootstrap (the key
-- snippet) or the universal script, with the key and device the loader has just checked.
local HANDED = ...
if type(HANDED) ~= "table" then HANDED = {} end

local function nonEmpty(value)
  if type(value) == "string" and value ~= "" then return value end
  return nil
end

local SITE = nonEmpty(LOADED.site) or (getgenv and nonEmpty(getgenv().SCANLINE_URL)) or "http://localhost:5000"
local KEY_FILE = "scanline-key.txt"
local AUTO_JOIN_FROM = 5000000
-- Auto-join only finds younger than this: an older server has most likely lost the pet already.
local AUTO_JOIN_MAX_AGE_S = tonumber(LOADED.autoJoinMaxAgeS) or 15
-- The server holds a poll open up to this many seconds until a find arrives (long-poll).
local POLL_WAIT = 20
-- The panel chunk this script loads (filters, sort, rows): scanline-panel.lua.
local PANEL_SCRIPT = "scanline-panel.lua"
-- A teleport that neither ends this script nor reports a failure within this long is given up.
local TELEPORT_WAIT_S = 30

local HttpService = game:GetService("HttpService")
local Players = game:GetService("Players")
local TeleportService = game:GetService("TeleportService")

-- The key, in order: the one handed to this script (the key snippet's, or universal's), the one
-- universal left in getgenv, the one saved on this device. The second result says whether to save it.
local function scriptKey()
  local fromCaller = nonEmpty(HANDED.key)
  if fromCaller then return fromCaller, true end
  local handed = getgenv and nonEmpty(getgenv().SCANLINE_KEY)
  if handed then return handed, true end
  if isfile and readfile and isfile(KEY_FILE) then
    local ok, saved = pcall(readfile, KEY_FILE)
    if ok and nonEmpty(saved) then return saved, false end
  end
  return "", false
end

-- The device id: the one the loader bound the key to (handed over with the key), else the executor's.
local function hardwareId()
  local fromCaller = nonEmpty(HANDED.hwid)
  if fromCaller then return fromCaller end
  if gethwid then return gethwid() end
  local ok, id = pcall(function() return game:GetService("RbxAnalyticsService"):GetClientId() end)
  if ok then return id end
  return "unknown-device"
end

-- An executor's HTTP error may quote the URL, and the feed URL holds the key: a key never goes on
-- screen or into a log.
local function redact(message)
  return (tostring(message):gsub("([?&]key=)[^&%s\"']*", "%1***"))
end

-- The panel's word for a server that does not answer at all (an executor's raw "curl: (7) ..." helps no one).
local UNREACHABLE = "Server unreachable — retrying…"

-- Executors differ: prefer game:HttpGet, fall back to their request function. Many HttpGets raise
-- on a non-2xx status; the request function still hands over the body, which holds the server's
-- reason (e.g. a key switched off). Returns the body, or nil and what to show.
local function httpGet(url)
  local ok, body = pcall(function() return game:HttpGet(url) end)
  if ok and type(body) == "string" then return body end
  local failure = redact(body)
  local send = (syn and syn.request) or http_request or request
  if send then
    local sent, response = pcall(send, { Url = url, Method = "GET" })
    if sent and type(response) == "table" and (tonumber(response.StatusCode) or 0) > 0 then return response.Body end
  end
  -- An error quoting an HTTP status came from the server; anything else means it is out of reach.
  if failure:find("HTTP %d%d%d") then return nil, failure end
  return nil, UNREACHABLE
end

local function decodeJson(body)
  if not body then return nil end
  local ok, data = pcall(function() return HttpService:JSONDecode(body) end)
  if ok then return data end
  return nil
end

-- Seconds since 1970 of an ISO 8601 time ("2026-11-25T13:34:24.123Z", or with a +hh:mm offset),
-- or nil. Plain arithmetic on the calendar date (years counted from March, so the leap day ends a
-- year), so neither os.time nor the executor's clock or time zone is involved.
local function isoSeconds(text)
  if type(text) ~= "string" then return nil end
  local y, mo, d, h, mi, s, zone = text:match("^(%d%d%d%d)%-(%d%d)%-(%d%d)[T ](%d%d):(%d%d):(%d%d%.?%d*)(.*)$")
  if not y then return nil end
  local offset = 0
  local sign, oh, om = zone:match("^([+-])(%d%d):?(%d%d)$")
  if sign then
    offset = (tonumber(oh) * 3600 + tonumber(om) * 60) * (sign == "-" and -1 or 1)
  elseif zone ~= "Z" and zone ~= "" then
    return nil
  end
  y, mo, d = tonumber(y), tonumber(mo), tonumber(d)
  if mo <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yearOfEra = y - era * 400
  local dayOfYear = math.floor((153 * ((mo + 9) % 12) + 2) / 5) + d - 1
  local dayOfEra = yearOfEra * 365 + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100) + dayOfYear
  local days = era * 146097 + dayOfEra - 719468
  return days * 86400 + tonumber(h) * 3600 + tonumber(mi) * 60 + tonumber(s) - offset
end

local function now() return (tick and tick()) or os.time() end

local key, keyToSave = scriptKey()
local hwid = hardwareId()
-- Save a key that was handed over (the snippet's or universal's), as universal does after a redeem, so
-- the next run on this device finds it.
if keyToSave and writefile then pcall(writefile, KEY_FILE, key) end

-- The panel (filters, sort, rows) is a chunk of its own, served by the loader like this script.
local panelSource, panelFailure = httpGet(SITE .. "/api/script/loader?script=" .. PANEL_SCRIPT)
local panelChunk = panelSource and loadstring(panelSource)
local loaded, buildPanel = pcall(panelChunk or error, panelFailure or "not a script")
if not loaded or type(buildPanel) ~= "function" then
  local reason = "[Scanline] Premium could not load its panel: " .. tostring(loaded and "not a script" or buildPanel)
  print(reason)
  return reason
end

-- Jobs joined (never twice) and when the last teleport started: until it ends (a teleport that
-- works ends this script; one that fails says so through TeleportInitFailed) no other auto-join.
local joined, joiningSince = {}, nil
local panel
local function joinServer(find)
  joined[find.jobid] = true
  local ok = pcall(function()
    TeleportService:TeleportToPlaceInstance(tonumber(find.placeid), find.jobid, Players.LocalPlayer)
  end)
  if ok then joiningSince = now() else panel.status("Could not join that server") end
end
local failed = TeleportService.TeleportInitFailed
if failed and failed.Connect then
  failed:Connect(function(player)
    if player == nil or player == Players.LocalPlayer then joiningSince = nil end
  end)
end

panel = buildPanel({ onJoin = function(find) if find.jobid then joinServer(find) end end })

-- The server's clock now: its last answer's serverTime plus the time since (never this executor's
-- clock, which may be off by minutes).
local serverTime, answeredAt = nil, now()
local function serverNow() return serverTime and serverTime + (now() - answeredAt) end

-- Finds worth an automatic join: from 5M/s, with join data, younger than the limit, never joined.
-- The best is the dearest, then the youngest.
local candidates = {}
local function bestToJoin()
  local t, best, fresh = serverNow(), nil, {}
  for _, find in ipairs(candidates) do
    if t and find.foundAt and t - find.foundAt < AUTO_JOIN_MAX_AGE_S and not joined[find.jobid] then
      fresh[#fresh + 1] = find
      local value, bestValue = tonumber(find.numericValue) or 0, best and tonumber(best.numericValue) or 0
      if not best or value > bestValue or (value == bestValue and find.foundAt > best.foundAt) then best = find end
    end
  end
  candidates = fresh
  return best
end

-- "Key time left: 23h 59m" from the key's end the feed reports (keyExpiresAt).
local keyExpiresAt = nil
local function timeLeft()
  local t = serverNow()
  if not (keyExpiresAt and t) then return "" end
  local left = keyExpiresAt - t
  if left <= 0 then return "Key time left: none" end
  local hours = math.floor(left / 3600)
  if hours >= 48 then return string.format("Key time left: %dd %dh", math.floor(hours / 24), hours % 24) end
  return string.format("Key time left: %dh %02dm", hours, math.floor(left % 3600 / 60))
end

-- Refusals that end this script: polling on would only collect them (and a removed device polling
-- on would compete for the key with the PC it was moved to). Each with what to do next.
local STOPS = {
  { "This device was removed from the key", "Close this script: the key now runs on another PC" },
  { "This key has expired", "Buy a new code: " .. SITE .. "/buyer" },
}

local feedUrl = SITE .. "/api/script/feed?key=" .. HttpService:UrlEncode(key)
  .. "&hwid=" .. HttpService:UrlEncode(hwid) .. "&wait=" .. POLL_WAIT
-- Where this script is in the feed: nil at first, so the server starts at the present (the last
-- minute of finds, never the whole backlog); then the server's cursor, sent back as `since`.
local cursor = nil

if key == "" then
  -- Polling with no key only collects refusals: say what to do instead.
  panel.status("No script key: load premium with your key snippet")
  return "No script key"
end
-- Poll again at once after finds (the server holds an empty poll open); pause 1 s otherwise.
local pause = 0
while task.wait(pause) do
  pause = 1
  local body, failure = httpGet(feedUrl .. (cursor and ("&since=" .. tostring(cursor)) or ""))
  local data = decodeJson(body)
  if data and type(data.discoveries) == "table" then
    if #data.discoveries > 0 then pause = 0 end
    serverTime, answeredAt = isoSeconds(data.serverTime), now()
    keyExpiresAt = isoSeconds(data.keyExpiresAt)
    for _, find in ipairs(data.discoveries) do
      find.foundAt = isoSeconds(find.timestamp)
      if find.jobid and (tonumber(find.numericValue) or 0) >= AUTO_JOIN_FROM then table.insert(candidates, find) end
    end
    local shown = panel.add(data.discoveries)
    cursor = tonumber(data.cursor) or cursor
    panel.status(data.tier == "PREMIUM" and string.format("Live - every find (%d shown)", shown)
      or "Free tier: this key does not unlock premium finds")
    panel.note(timeLeft())
  else
    local reason = (data and data.error and redact(data.error)) or failure or "Feed unavailable, retrying..."
    panel.status(reason)
    for _, stop in ipairs(STOPS) do
      if reason:sub(1, #stop[1]) == stop[1] then
        panel.note(stop[2])
        print("[Scanline] " .. reason .. ". " .. stop[2])
        return reason
      end
    end
  end
  if joiningSince and now() - joiningSince > TELEPORT_WAIT_S then joiningSince = nil end
  local best = panel.autoJoin() and not joiningSince and bestToJoin()
  if best then joinServer(best) end
end
