-- scanline:access PREMIUM
--[[
  Scanline Premium (scanline-premium.lua)

  The premium scanner: every live pet find, with auto-join from 5M/s. It is
  served only through the loader, with a script key bound to this device; the
  universal script loads it for you once a code is redeemed:

    loadstring(game:HttpGet("https://YOUR-SITE/api/script/loader?script=scanline-premium.lua&key=YOUR-KEY"))()

  Set getgenv().SCANLINE_URL before loading to point it at another Scanline site.
]]

local SITE = (getgenv and getgenv().SCANLINE_URL) or "http://localhost:5000"
local KEY_FILE = "scanline-key.txt"
local AUTO_JOIN_FROM = 5000000
-- The server holds a poll open up to this many seconds until a find arrives (long-poll).
local POLL_WAIT = 20
local MAX_ROWS = 10

local HttpService = game:GetService("HttpService")
local Players = game:GetService("Players")
local TeleportService = game:GetService("TeleportService")

-- The key the universal script redeemed: handed over in getgenv, or saved on this device.
local function scriptKey()
  local handed = getgenv and getgenv().SCANLINE_KEY
  if type(handed) == "string" and handed ~= "" then return handed end
  if isfile and readfile and isfile(KEY_FILE) then
    local ok, saved = pcall(readfile, KEY_FILE)
    if ok and saved ~= "" then return saved end
  end
  return ""
end

local function hardwareId()
  if gethwid then return gethwid() end
  local ok, id = pcall(function() return game:GetService("RbxAnalyticsService"):GetClientId() end)
  if ok then return id end
  return "unknown-device"
end

local function httpGet(url)
  local ok, body = pcall(function() return game:HttpGet(url) end)
  if ok and type(body) == "string" then return body end
  local send = (syn and syn.request) or http_request or request
  if send then
    local sent, response = pcall(send, { Url = url, Method = "GET" })
    if sent and response and response.StatusCode == 200 then return response.Body end
  end
  return nil
end

local function decodeJson(body)
  if not body then return nil end
  local ok, data = pcall(function() return HttpService:JSONDecode(body) end)
  if ok then return data end
  return nil
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

local key, hwid = scriptKey(), hardwareId()
-- Where this script is in the feed: the server's cursor, sent back as `since` on the next poll.
local cursor, primed = 0, false
local feedUrl = SITE .. "/api/script/feed?key=" .. HttpService:UrlEncode(key)
  .. "&hwid=" .. HttpService:UrlEncode(hwid) .. "&wait=" .. POLL_WAIT .. "&since="
while task.wait(1) do
  local data = decodeJson(httpGet(feedUrl .. tostring(cursor)))
  if data and type(data.discoveries) == "table" then
    local joined = false
    for _, find in ipairs(data.discoveries) do
      table.insert(finds, 1, find)
      if finds[MAX_ROWS + 1] then table.remove(finds) end
      -- One join per batch, and never into the backlog the first poll brings.
      if autoJoin and primed and not joined and find.jobid and (tonumber(find.numericValue) or 0) >= AUTO_JOIN_FROM then
        joined = true
        joinServer(find)
      end
    end
    cursor = tonumber(data.cursor) or cursor
    primed = true
    for i, row in ipairs(rows) do
      local find = finds[i]
      row.Visible = find ~= nil
      if find then
        row.Text = string.format("  %s  %s%s", find.name or "?", find.value or "?", find.jobid and "  [join]" or "")
      end
    end
    status.Text = data.tier == "PREMIUM" and string.format("Live - every find (%d shown)", #finds)
      or "Free tier: this key does not unlock premium finds"
  else
    status.Text = (data and data.error) or "Feed unavailable, retrying..."
  end
end
