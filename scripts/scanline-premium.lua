-- scanline:access PREMIUM
--[[
  Scanline Premium (scanline-premium.lua)

  The premium scanner: every live pet find, with auto-join from 5M/s. It is
  served only through the loader, with a script key bound to this device. The
  key snippet is all a buyer needs:

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
local MAX_ROWS = 10

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

-- Executors differ: prefer game:HttpGet, fall back to their request function. Many HttpGets raise
-- on a non-2xx status; the request function still hands over the body, which holds the server's
-- reason (e.g. a key switched off). Returns the body, or nil and why.
local function httpGet(url)
  local ok, body = pcall(function() return game:HttpGet(url) end)
  if ok and type(body) == "string" then return body end
  local failure = redact(body)
  local send = (syn and syn.request) or http_request or request
  if send then
    local sent, response = pcall(send, { Url = url, Method = "GET" })
    if sent and type(response) == "table" and type(response.Body) == "string" then return response.Body end
    if not sent then failure = redact(response) end
  end
  return nil, failure
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

local function label(parent, text, y, color)
  local l = Instance.new("TextLabel")
  l.Size = UDim2.new(1, -12, 0, 20)
  l.Position = UDim2.new(0, 6, 0, y)
  l.BackgroundTransparency = 1
  l.TextXAlignment = Enum.TextXAlignment.Left
  l.TextColor3 = color or Color3.fromRGB(229, 231, 235)
  l.Font = Enum.Font.Gotham
  l.TextSize = 12
  l.Text = text
  l.Parent = parent
  return l
end

local gui = Instance.new("ScreenGui")
gui.Name = "ScanlinePremium"
gui.ResetOnSpawn = false
gui.Parent = (gethui and gethui()) or game:GetService("CoreGui")

local frame = Instance.new("Frame")
frame.Size = UDim2.new(0, 300, 0, 84 + MAX_ROWS * 26)
frame.Position = UDim2.new(1, -320, 0.5, -150)
frame.BackgroundColor3 = Color3.fromRGB(17, 24, 39)
frame.Active = true
frame.Draggable = true
frame.Parent = gui

label(frame, "Scanline - Premium", 4, Color3.fromRGB(250, 204, 21)).Font = Enum.Font.GothamBold
local status = label(frame, "Connecting...", 26, Color3.fromRGB(156, 163, 175))

local autoJoin = true
local toggle = Instance.new("TextButton")
toggle.Size = UDim2.new(1, -12, 0, 24)
toggle.Position = UDim2.new(0, 6, 0, 50)
toggle.Text = "Auto-join from 5M/s: ON"
toggle.Parent = frame
toggle.MouseButton1Click:Connect(function()
  autoJoin = not autoJoin
  toggle.Text = "Auto-join from 5M/s: " .. (autoJoin and "ON" or "OFF")
end)

local finds, rows = {}, {}

local function joinServer(find)
  local ok = pcall(function()
    TeleportService:TeleportToPlaceInstance(tonumber(find.placeid), find.jobid, Players.LocalPlayer)
  end)
  if not ok then status.Text = "Could not join that server" end
end

for i = 1, MAX_ROWS do
  local row = Instance.new("TextButton")
  row.Size = UDim2.new(1, -12, 0, 24)
  row.Position = UDim2.new(0, 6, 0, 80 + (i - 1) * 26)
  row.BackgroundColor3 = Color3.fromRGB(31, 41, 55)
  row.TextColor3 = Color3.fromRGB(229, 231, 235)
  row.TextXAlignment = Enum.TextXAlignment.Left
  row.Visible = false
  row.Parent = frame
  row.MouseButton1Click:Connect(function()
    if finds[i] then joinServer(finds[i]) end
  end)
  rows[i] = row
end

local function render()
  for i, row in ipairs(rows) do
    local find = finds[i]
    row.Visible = find ~= nil
    if find then
      row.Text = string.format("  %s  %s%s", find.name or "?", find.value or "?", find.jobid and "  [join]" or "")
    end
  end
end

local key, keyToSave = scriptKey()
local hwid = hardwareId()
-- Save a key that was handed over (the snippet's or universal's), as universal does after a redeem, so
-- the next run on this device finds it.
if keyToSave and writefile then pcall(writefile, KEY_FILE, key) end

-- Whether a find is worth an automatic join: from 5M/s, with join data, and younger than the limit
-- by the server's clock (the answer's serverTime minus the find's timestamp, both from the same
-- answer), never this executor's clock, which may be off by minutes.
local function joinable(find, serverTime)
  if not find.jobid or (tonumber(find.numericValue) or 0) < AUTO_JOIN_FROM then return false end
  local found = isoSeconds(find.timestamp)
  return serverTime ~= nil and found ~= nil and serverTime - found < AUTO_JOIN_MAX_AGE_S
end

local feedUrl = SITE .. "/api/script/feed?key=" .. HttpService:UrlEncode(key)
  .. "&hwid=" .. HttpService:UrlEncode(hwid) .. "&wait=" .. POLL_WAIT
-- Where this script is in the feed: nil at first, so the server starts at the present (the last
-- minute of finds, never the whole backlog); then the server's cursor, sent back as `since`.
local cursor = nil

if key == "" then
  -- Polling with no key only collects refusals: say what to do instead.
  status.Text = "No script key: load premium with your key snippet"
else
  while task.wait(1) do
    local body, failure = httpGet(feedUrl .. (cursor and ("&since=" .. tostring(cursor)) or ""))
    local data = decodeJson(body)
    if data and type(data.discoveries) == "table" then
      local serverTime = isoSeconds(data.serverTime)
      -- One join per answer, into the youngest joinable find (finds come oldest first).
      local toJoin = nil
      for _, find in ipairs(data.discoveries) do
        table.insert(finds, 1, find)
        if finds[MAX_ROWS + 1] then table.remove(finds) end
        if joinable(find, serverTime) then toJoin = find end
      end
      if autoJoin and toJoin then joinServer(toJoin) end
      cursor = tonumber(data.cursor) or cursor
      render()
      status.Text = data.tier == "PREMIUM" and string.format("Live - every find (%d shown)", #finds)
        or "Free tier: this key does not unlock premium finds"
    else
      status.Text = (data and data.error and redact(data.error)) or failure or "Feed unavailable, retrying..."
    end
  end
end
