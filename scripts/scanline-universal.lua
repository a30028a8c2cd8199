--[[
  Scanline Universal (scanline-universal.lua)

  The scanner for everyone: live pet finds below 10M/s without a key, plus a
  redeem panel. Redeeming a code binds it to this device and loads the premium
  scanner (every find, auto-join) through the loader with the new key.

    loadstring(game:HttpGet("https://YOUR-SITE/api/script/loader?script=scanline-universal.lua"))()

  Set getgenv().SCANLINE_URL before loading to point it at another Scanline site.
]]

local SITE = (getgenv and getgenv().SCANLINE_URL) or "http://localhost:5000"
local PREMIUM_SCRIPT = "scanline-premium.lua"
local KEY_FILE = "scanline-key.txt"
-- The server holds a poll open up to this many seconds until a find arrives (long-poll).
local POLL_WAIT = 20

local HttpService = game:GetService("HttpService")

local send = (syn and syn.request) or http_request or request

-- One call for GET and POST: game:HttpGet when there is no body, the executor's request otherwise.
local function http(method, url, body)
  if method == "GET" then
    local ok, text = pcall(function() return game:HttpGet(url) end)
    if ok and type(text) == "string" then return 200, text end
  end
  if not send then return nil, "this executor cannot send HTTP requests" end
  local ok, response = pcall(send, {
    Url = url,
    Method = method,
    Headers = { ["Content-Type"] = "application/json" },
    Body = body and HttpService:JSONEncode(body) or nil,
  })
  if not ok or not response then return nil, "request failed" end
  return response.StatusCode, response.Body
end

local function decodeJson(text)
  local ok, data = pcall(function() return HttpService:JSONDecode(text or "") end)
  if ok then return data end
  return nil
end

-- The device id the server binds a key to.
local function hardwareId()
  if gethwid then return gethwid() end
  local ok, id = pcall(function() return game:GetService("RbxAnalyticsService"):GetClientId() end)
  if ok then return id end
  return "unknown-device"
end

-- Loads the premium scanner with the key; returns whether it loaded and what to tell the user.
local function loadPremium(key)
  local url = SITE .. "/api/script/loader?script=" .. HttpService:UrlEncode(PREMIUM_SCRIPT)
    .. "&key=" .. HttpService:UrlEncode(key) .. "&hwid=" .. HttpService:UrlEncode(hardwareId())
  local status, source = http("GET", url)
  if type(source) ~= "string" then return false, "Premium could not load" end
  -- A refusal is one printed line with the reason (expired key, device limit...): show it.
  local reason = source:match('^print%("%[Scanline%] (.-)"%)')
  if reason then return false, reason end
  local chunk = status == 200 and loadstring(source)
  if not chunk then return false, "Premium could not load" end
  if getgenv then getgenv().SCANLINE_KEY = key end -- the premium scanner's feed needs the key
  task.spawn(chunk)
  return true, "Premium loaded"
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
frame.Size = UDim2.new(0, 300, 0, 250)
frame.Position = UDim2.new(0, 20, 0.5, -125)
frame.BackgroundColor3 = Color3.fromRGB(17, 24, 39)
frame.Active = true
frame.Draggable = true
frame.Parent = gui

label(frame, "Scanline - Universal", 4, Color3.fromRGB(250, 204, 21)).Font = Enum.Font.GothamBold
local feedStatus = label(frame, "Connecting...", 26, Color3.fromRGB(156, 163, 175))
local latest = label(frame, "No finds yet", 48)

local codeBox = Instance.new("TextBox")
codeBox.Size = UDim2.new(1, -12, 0, 28)
codeBox.Position = UDim2.new(0, 6, 0, 150)
codeBox.PlaceholderText = "Redemption code"
codeBox.Text = ""
codeBox.ClearTextOnFocus = false
codeBox.Parent = frame

local redeemButton = Instance.new("TextButton")
redeemButton.Size = UDim2.new(1, -12, 0, 28)
redeemButton.Position = UDim2.new(0, 6, 0, 184)
redeemButton.Text = "Redeem & load premium"
redeemButton.Parent = frame

local redeemStatus = label(frame, "Premium: every find, auto-join from 5M/s", 218, Color3.fromRGB(156, 163, 175))

redeemButton.MouseButton1Click:Connect(function()
  local code = codeBox.Text:gsub("%s+", "")
  if code == "" then redeemStatus.Text = "Enter your redemption code first" return end
  redeemStatus.Text = "Redeeming..."
  local status, text = http("POST", SITE .. "/api/script/redeem", { code = code, hwid = hardwareId() })
  local data = decodeJson(text)
  local key = data and (data.scriptKey or data.key)
  if status ~= 200 or type(key) ~= "string" then
    redeemStatus.Text = (data and data.error) or "Redemption failed"
    return
  end
  if writefile then pcall(writefile, KEY_FILE, key) end
  local _, message = loadPremium(key)
  redeemStatus.Text = message
end)

-- A key redeemed earlier on this device loads premium straight away.
if isfile and readfile and isfile(KEY_FILE) then
  local ok, saved = pcall(readfile, KEY_FILE)
  if ok and saved ~= "" then
    local _, message = loadPremium(saved)
    redeemStatus.Text = message
  end
end

-- The free feed (the server decides what it holds: finds below 10M/s). `cursor` is where this
-- script is in it, sent back as `since` on the next poll.
local cursor = 0
while task.wait(1) do
  local status, text = http("GET", SITE .. "/api/script/feed?since=" .. tostring(cursor) .. "&wait=" .. POLL_WAIT)
  local data = decodeJson(text)
  if status == 200 and data and type(data.discoveries) == "table" then
    local find = data.discoveries[#data.discoveries]
    if find then latest.Text = string.format("%s - %s", find.name or "?", find.value or "?") end
    cursor = tonumber(data.cursor) or cursor
    feedStatus.Text = "Live - free finds below 10M/s"
  else
    feedStatus.Text = (data and data.error) or "Feed unavailable, retrying..."
  end
end
