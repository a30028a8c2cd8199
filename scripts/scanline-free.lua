--[[
  Scanline Free Scanner (scanline-free.lua)

  Shows live pet finds below 10M/s from the Scanline scanner network in a small
  panel; click a find to join its server. Keyless; a redemption code typed in its
  box loads the premium scanner, as in the universal script. Load it with:

    loadstring(game:HttpGet("https://YOUR-SITE/api/script/loader?script=scanline-free.lua"))()

  Set getgenv().SCANLINE_URL before loading to point it at another Scanline site.
]]

-- The loader prepends `local SCANLINE = { site = ... }`, the site that served this script. Run
-- without the loader that local is absent and SCANLINE is the nil global: fall back.
local LOADED = (type(SCANLINE) == "table" and SCANLINE) or {}
local SITE = (type(LOADED.site) == "string" and LOADED.site ~= "" and LOADED.site)
  or (getgenv and getgenv().SCANLINE_URL) or "http://localhost:5000"
-- The server holds a poll open up to this many seconds until a find arrives (long-poll).
local POLL_WAIT = 20
local MAX_ROWS = 8
local KEY_FILE = "scanline-key.txt"
local PREMIUM_SCRIPT = "scanline-premium.lua"
-- What the panel says when the server does not answer at all (an executor's raw "curl: (7) ..." helps no one).
local UNREACHABLE = "Server unreachable — retrying…"

local HttpService = game:GetService("HttpService")
local Players = game:GetService("Players")
local TeleportService = game:GetService("TeleportService")

-- Executors differ: prefer game:HttpGet, fall back to their request functions. Many HttpGets raise
-- on a non-2xx status; the request function still hands over the body, which holds the server's
-- reason (shown in the panel). With a body, the request function also POSTs it (JSON). Returns the
-- body, or nil and what to show.
local send = (syn and syn.request) or http_request or request
local function httpCall(url, body)
  if not body then
    local ok, text = pcall(function() return game:HttpGet(url) end)
    if ok and type(text) == "string" then return text end
  end
  if not send then return nil, "This executor cannot send HTTP requests" end
  local sent, response = pcall(send, {
    Url = url,
    Method = body and "POST" or "GET",
    Headers = { ["Content-Type"] = "application/json" },
    Body = body and HttpService:JSONEncode(body) or nil,
  })
  if sent and type(response) == "table" and (tonumber(response.StatusCode) or 0) > 0 then return response.Body end
  return nil, UNREACHABLE
end

local function decodeJson(body)
  if not body then return nil end
  local ok, data = pcall(function() return HttpService:JSONDecode(body) end)
  if ok then return data end
  return nil
end

local function formatValue(value)
  if value >= 1e9 then return string.format("$%.1fB/s", value / 1e9) end
  if value >= 1e6 then return string.format("$%.1fM/s", value / 1e6) end
  if value >= 1e3 then return string.format("$%.1fK/s", value / 1e3) end
  return string.format("$%d/s", value)
end

-- A small draggable panel: a title, a status line and one row per find.
local function buildPanel()
  local gui = Instance.new("ScreenGui")
  gui.Name = "ScanlineFree"
  gui.ResetOnSpawn = false
  gui.Parent = (gethui and gethui()) or game:GetService("CoreGui")

  local frame = Instance.new("Frame")
  frame.Size = UDim2.new(0, 280, 0, 126 + MAX_ROWS * 26)
  frame.Position = UDim2.new(0, 20, 0.5, -120)
  frame.BackgroundColor3 = Color3.fromRGB(17, 24, 39)
  frame.Active = true
  frame.Draggable = true
  frame.Parent = gui

  local title = Instance.new("TextLabel")
  title.Size = UDim2.new(1, 0, 0, 28)
  title.BackgroundTransparency = 1
  title.Text = "Scanline - Free Scanner"
  title.TextColor3 = Color3.fromRGB(52, 211, 153)
  title.Font = Enum.Font.GothamBold
  title.TextSize = 14
  title.Parent = frame

  local status = Instance.new("TextLabel")
  status.Size = UDim2.new(1, -12, 0, 20)
  status.Position = UDim2.new(0, 6, 0, 30)
  status.BackgroundTransparency = 1
  status.TextXAlignment = Enum.TextXAlignment.Left
  status.TextColor3 = Color3.fromRGB(156, 163, 175)
  status.Font = Enum.Font.Gotham
  status.TextSize = 12
  status.Text = "Connecting..."
  status.Parent = frame

  local rows = {}
  for i = 1, MAX_ROWS do
    local row = Instance.new("TextButton")
    row.Size = UDim2.new(1, -12, 0, 24)
    row.Position = UDim2.new(0, 6, 0, 54 + (i - 1) * 26)
    row.BackgroundColor3 = Color3.fromRGB(31, 41, 55)
    row.TextColor3 = Color3.fromRGB(229, 231, 235)
    row.Font = Enum.Font.Gotham
    row.TextSize = 12
    row.TextXAlignment = Enum.TextXAlignment.Left
    row.Text = ""
    row.Visible = false
    row.Parent = frame
    rows[i] = row
  end
  -- The redeem box, below the rows.
  local function control(class, y, text)
    local c = Instance.new(class)
    c.Size = UDim2.new(1, -12, 0, 26)
    c.Position = UDim2.new(0, 6, 0, 60 + MAX_ROWS * 26 + y)
    c.Text = text
    c.Parent = frame
    return c
  end
  local codeBox = control("TextBox", 0, "")
  codeBox.PlaceholderText = "Redemption code"
  codeBox.ClearTextOnFocus = false
  return status, rows, codeBox, control("TextButton", 30, "Redeem & load premium")
end

local status, rows, codeBox, redeemButton = buildPanel()
local finds = {}
-- Finds received since the script started (the panel shows only the newest MAX_ROWS of them).
local received = 0
-- Where this script is in the feed: nil at first, so the server starts at the present (the last
-- minute of finds, never the whole backlog); then the server's cursor, sent back as `since`.
local cursor = nil

local function joinServer(find)
  -- The server sends join data for finds from 5M/s to premium keys only.
  if not find.jobid then
    status.Text = "Joining finds from 5M/s is premium"
    return
  end
  local ok = pcall(function()
    TeleportService:TeleportToPlaceInstance(tonumber(find.placeid), find.jobid, Players.LocalPlayer)
  end)
  if not ok then status.Text = "Could not join that server" end
end

local function render()
  for i, row in ipairs(rows) do
    local find = finds[i]
    row.Visible = find ~= nil
    if find then
      local value = find.value or formatValue(tonumber(find.numericValue) or 0)
      row.Text = string.format("  %s  %s%s", find.name or "?", value, find.jobid and "" or "  (premium join)")
    end
  end
end

for i, row in ipairs(rows) do
  row.MouseButton1Click:Connect(function()
    if finds[i] then joinServer(finds[i]) end
  end)
end

-- Newest finds first: the server sends them oldest first, so each goes on top. The server decides
-- what the free tier sees (finds below 10M/s).
local function addFinds(discoveries)
  for _, find in ipairs(discoveries) do
    table.insert(finds, 1, find)
    if finds[MAX_ROWS + 1] then table.remove(finds) end
  end
end

-- The device id the server binds a key to.
local function hardwareId()
  if gethwid then return gethwid() end
  local ok, id = pcall(function() return game:GetService("RbxAnalyticsService"):GetClientId() end)
  return ok and id or "unknown-device"
end

-- Set while premium runs: its feed loop replaces this one (a device runs one feed loop).
local handedOver = false

-- Redeems the code, saves the key (as the universal script does) and loads premium with it.
local function redeem(code)
  local hwid = hardwareId()
  local text, failure = httpCall(SITE .. "/api/script/redeem", { code = code, hwid = hwid })
  local data = decodeJson(text)
  local key = data and (data.scriptKey or data.key)
  if type(key) ~= "string" then
    if failure == UNREACHABLE then return "Server unreachable: try again in a moment" end
    return (data and data.error) or failure or "Redemption failed"
  end
  if writefile then pcall(writefile, KEY_FILE, key) end
  local source = httpCall(SITE .. "/api/script/loader?script=" .. PREMIUM_SCRIPT .. "&key="
    .. HttpService:UrlEncode(key) .. "&hwid=" .. HttpService:UrlEncode(hwid))
  local chunk = source and loadstring(source)
  if not chunk then return "Premium could not load" end
  handedOver = true
  local stopped = nil
  task.spawn(function()
    -- Premium stops with an error (the loader's refusal) or returning why (key expired...).
    local ok, err = pcall(chunk, { key = key, hwid = hwid })
    if not ok or type(err) == "string" then
      stopped = tostring(err):gsub("^%[Scanline%] ", "")
      handedOver = false
      status.Text = stopped
    end
  end)
  return stopped or "Premium loaded"
end

redeemButton.MouseButton1Click:Connect(function()
  local code = codeBox.Text:gsub("%s+", "")
  if code == "" then status.Text = "Enter your redemption code first" return end
  if handedOver then status.Text = "Premium is already running" return end
  status.Text = "Redeeming..."
  status.Text = redeem(code)
end)

local function pollFree()
  local since = cursor and ("&since=" .. tostring(cursor)) or ""
  local body, failure = httpCall(SITE .. "/api/script/feed?wait=" .. POLL_WAIT .. since)
  -- Premium may have taken over while this poll was held open: its panel is the live one now.
  if handedOver then return end
  local data = decodeJson(body)
  if data and type(data.discoveries) == "table" then
    addFinds(data.discoveries)
    received = received + #data.discoveries
    cursor = tonumber(data.cursor) or cursor
    status.Text = string.format("Live - %d finds below 10M/s", received)
    render()
  else
    status.Text = (data and data.error) or failure or "Feed unavailable, retrying..."
  end
end

while task.wait(1) do
  if handedOver then status.Text = "Premium is running: free feed paused" else pollFree() end
end
