--[[
  Scanline Universal (scanline-universal.lua)

  The scanner for everyone: live pet finds below 10M/s without a key, plus a
  redeem panel. Redeeming a code binds it to this device and loads the premium
  scanner (every find, auto-join) through the loader with the new key; a code
  redeemed while premium runs adds its time to that key. "Reset devices" frees a
  key bound to another PC (within the key's weekly resets): close the script on
  the old PC first, and run this script again afterwards.

    loadstring(game:HttpGet("https://YOUR-SITE/api/script/loader?script=scanline-universal.lua"))()

  Set getgenv().SCANLINE_URL before loading to point it at another Scanline site.
]]

-- The loader prepends `local SCANLINE = { site = ... }`, the site that served this script. Run
-- without the loader that local is absent and SCANLINE is the nil global: fall back.
local LOADED = (type(SCANLINE) == "table" and SCANLINE) or {}
local SITE = (type(LOADED.site) == "string" and LOADED.site ~= "" and LOADED.site)
  or (getgenv and getgenv().SCANLINE_URL) or "http://localhost:5000"
local PREMIUM_SCRIPT = "scanline-premium.lua"
local KEY_FILE = "scanline-key.txt"
-- The server holds a poll open up to this many seconds until a find arrives (long-poll).
local POLL_WAIT = 20
-- What the panel says when the server does not answer at all (an executor's raw "curl: (7) ..." helps no one).
local UNREACHABLE = "Server unreachable — retrying…"
local UNREACHABLE_ONCE = "Server unreachable: try again in a moment" -- for the redeem and reset buttons

local HttpService = game:GetService("HttpService")

local send = (syn and syn.request) or http_request or request

-- A URL may hold a key (the loader's), and an executor's HTTP error may quote it: a key never goes
-- on screen or into a log.
local function redact(message)
  return (tostring(message):gsub("([?&]key=)[^&%s\"']*", "%1***"))
end

-- One call for GET and POST: game:HttpGet when there is no body, the executor's request otherwise
-- (also when HttpGet raises, as many do on a non-2xx status: the request function still hands
-- over the body, which holds the server's reason). Returns the status and body, or nil and why.
local function http(method, url, body)
  local failure = "this executor cannot send HTTP requests"
  if method == "GET" then
    local ok, text = pcall(function() return game:HttpGet(url) end)
    if ok and type(text) == "string" then return 200, text end
    failure = redact(text)
  end
  if not send then return nil, failure:find("HTTP %d%d%d") and failure or UNREACHABLE end
  local ok, response = pcall(send, { Url = url, Method = method, Headers = { ["Content-Type"] = "application/json" },
    Body = body and HttpService:JSONEncode(body) or nil })
  -- No status at all: the server is down or out of reach.
  if not ok or type(response) ~= "table" or (tonumber(response.StatusCode) or 0) == 0 then return nil, UNREACHABLE end
  return response.StatusCode, response.Body
end

local function decodeJson(text)
  local ok, data = pcall(function() return HttpService:JSONDecode(text or "") end)
  return ok and data or nil
end

-- The device id the server binds a key to.
local function hardwareId()
  if gethwid then return gethwid() end
  local ok, id = pcall(function() return game:GetService("RbxAnalyticsService"):GetClientId() end)
  return ok and id or "unknown-device"
end

-- Set while premium runs. Premium has its own feed loop and a device runs one feed loop, so the
-- free loop below stops polling while this is set. `runningKey` is the key premium runs with: a code
-- redeemed meanwhile adds its time to that key.
local handedOver, runningKey = false, nil
-- The redeem panel's status line (made below): premium's refusal or failure is shown there.
local redeemStatus

-- Loads the premium scanner with the key; returns whether it loaded and what to tell the user.
local function loadPremium(key)
  local hwid = hardwareId()
  local url = SITE .. "/api/script/loader?script=" .. HttpService:UrlEncode(PREMIUM_SCRIPT)
    .. "&key=" .. HttpService:UrlEncode(key) .. "&hwid=" .. HttpService:UrlEncode(hwid)
  local status, source = http("GET", url)
  if status == nil then return false, "Premium could not load: " .. tostring(source) end
  if status ~= 200 then return false, "Premium could not load (HTTP " .. tostring(status) .. ")" end
  local chunk = type(source) == "string" and loadstring(source)
  if not chunk then return false, "Premium could not load" end
  -- Stop the free loop first: from here on premium's loop is this device's feed loop.
  handedOver, runningKey = true, key
  local stopped = nil
  task.spawn(function()
    -- The loader refuses (expired key, device limit...) with Lua that raises the reason; premium may
    -- stop later, returning why (key expired, device removed). Either way: show why, resume the free
    -- feed. Premium learns the key and device from its caller (`...`): its own text carries neither.
    local ok, err = pcall(chunk, { key = key, hwid = hwid })
    if not ok or type(err) == "string" then
      stopped = redact(err):gsub("^%[Scanline%] ", "")
      handedOver, runningKey = false, nil
      if redeemStatus then redeemStatus.Text = stopped end
    end
  end)
  if stopped then return false, stopped end
  return true, "Premium loaded"
end

-- "2026-12-02T18:30:00.000Z" -> "2026-12-02 18:30 UTC"
local function shortTime(iso)
  if type(iso) ~= "string" then return nil end
  local day, clock = iso:match("^(%d+%-%d+%-%d+)T(%d+:%d+)")
  return day and (day .. " " .. clock .. " UTC") or iso
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
gui.Name = "ScanlineUniversal"
gui.ResetOnSpawn = false
gui.Parent = (gethui and gethui()) or game:GetService("CoreGui")

local frame = Instance.new("Frame")
frame.Size = UDim2.new(0, 300, 0, 360)
frame.Position = UDim2.new(0, 20, 0.5, -180)
frame.BackgroundColor3 = Color3.fromRGB(17, 24, 39)
frame.Active = true
frame.Draggable = true
frame.Parent = gui

label(frame, "Scanline - Universal", 4, Color3.fromRGB(250, 204, 21)).Font = Enum.Font.GothamBold
local feedStatus = label(frame, "Connecting...", 26, Color3.fromRGB(156, 163, 175))
local latest = label(frame, "No finds yet", 48)

-- A text box (with its placeholder) or a button across the panel at height y.
local function control(class, y, text, placeholder)
  local c = Instance.new(class)
  c.Size = UDim2.new(1, -12, 0, 28)
  c.Position = UDim2.new(0, 6, 0, y)
  c.Text = text
  if placeholder then c.PlaceholderText = placeholder c.ClearTextOnFocus = false end
  c.Parent = frame
  return c
end

local codeBox = control("TextBox", 150, "", "Redemption code")
local redeemButton = control("TextButton", 184, "Redeem & load premium")

redeemStatus = label(frame, "Premium: every find, auto-join from 5M/s", 218, Color3.fromRGB(156, 163, 175))

redeemButton.MouseButton1Click:Connect(function()
  local code = codeBox.Text:gsub("%s+", "")
  if code == "" then redeemStatus.Text = "Enter your redemption code first" return end
  redeemStatus.Text = "Redeeming..."
  -- While premium runs, the code renews its key (its time is added) rather than making another.
  local status, text = http("POST", SITE .. "/api/script/redeem", { code = code, hwid = hardwareId(), key = runningKey })
  local data = decodeJson(text)
  if status == 200 and data and data.extended then
    redeemStatus.Text = "Renewed: premium runs until " .. (shortTime(data.expiresAt) or "later")
    return
  end
  local key = data and (data.scriptKey or data.key)
  if status ~= 200 or type(key) ~= "string" then
    redeemStatus.Text = (data and data.error) or (status == nil and UNREACHABLE_ONCE) or "Redemption failed"
    return
  end
  if writefile then pcall(writefile, KEY_FILE, key) end
  -- A second premium would be a second feed loop on this device: the new key is for the next run.
  if handedOver then redeemStatus.Text = "Saved a new key: run the script again to use it" return end
  local _, message = loadPremium(key)
  redeemStatus.Text = message
end)

-- Device reset: a key bound to another PC (the loader says "device limit reached") is freed here.
-- A blank box uses this device's saved key, which is never put on screen.
local keyBox = control("TextBox", 244, "", "Script key (blank: the saved one)")
local resetButton = control("TextButton", 278, "Reset devices")

local resetStatus = label(frame, "Moved to a new PC? Reset your key's devices", 312, Color3.fromRGB(156, 163, 175))
-- A script still running on the old PC would bind the key again: it must be closed first.
local resetHint = label(frame, "Close the script on the old PC first", 332, Color3.fromRGB(156, 163, 175))

local function savedKey()
  if not (isfile and readfile and isfile(KEY_FILE)) then return "" end
  local ok, saved = pcall(readfile, KEY_FILE)
  return ok and type(saved) == "string" and saved:gsub("%s+", "") or ""
end

resetButton.MouseButton1Click:Connect(function()
  local key = keyBox.Text:gsub("%s+", "")
  if key == "" then key = savedKey() end
  if key == "" then resetStatus.Text = "Enter your script key first" return end
  resetStatus.Text = "Resetting..."
  -- A POST, so the key stays out of URLs and logs.
  local status, text = http("POST", SITE .. "/api/script/reset-hwid", { key = key })
  local data = decodeJson(text)
  local nextReset = data and shortTime(data.nextResetAt)
  if status == 200 and data and type(data.removed) == "number" then
    local message = string.format("Removed %d device%s. Resets left: %s", data.removed,
      data.removed == 1 and "" or "s", tostring(data.resetsLeft))
    if nextReset and data.resetsLeft == 0 then message = message .. ". Next reset: " .. nextReset end
    resetStatus.Text = message
    -- This device loads premium with the key at its next start.
    if writefile then pcall(writefile, KEY_FILE, key) end
    resetHint.Text = "Close the script on the old PC, then run the script again"
  elseif status == nil then resetStatus.Text = UNREACHABLE_ONCE
  else
    local message = (data and data.error) or ("Reset failed (HTTP " .. tostring(status) .. ")")
    if status == 429 and nextReset then message = message .. ". Next reset: " .. nextReset end
    resetStatus.Text = message
  end
end)

-- A key redeemed earlier on this device loads premium straight away.
if savedKey() ~= "" then
  local _, message = loadPremium(savedKey())
  redeemStatus.Text = message
end

-- The free feed (the server decides what it holds: finds below 10M/s). `cursor` is where this
-- script is in it: nil at first, so the server starts at the present (the last minute of finds,
-- never the whole backlog); then the server's cursor, sent back as `since`.
local cursor = nil
local function pollFree()
  local since = cursor and ("&since=" .. tostring(cursor)) or ""
  local status, text = http("GET", SITE .. "/api/script/feed?wait=" .. POLL_WAIT .. since)
  -- Premium may have taken over while this poll was held open: its panel is the live one now.
  if handedOver then return end
  local data = decodeJson(text)
  if status == 200 and data and type(data.discoveries) == "table" then
    local find = data.discoveries[#data.discoveries]
    if find then latest.Text = string.format("%s - %s", find.name or "?", find.value or "?") end
    cursor = tonumber(data.cursor) or cursor
    feedStatus.Text = "Live - free finds below 10M/s"
  else
    feedStatus.Text = (data and data.error) or (status == nil and text) or "Feed unavailable, retrying..."
  end
end

while task.wait(1) do
  if handedOver then feedStatus.Text = "Premium is running: free feed paused" else pollFree() end
end
