--[[
  A stand-in for a Roblox executor, for the client-path tests (tests/client/client-path.test.ts).

    luajit tests/client/executor.lua <config.json>

  Runs `config.snippet` (what a buyer pastes, e.g.
  loadstring(game:HttpGet(".../api/script/loader?script=scanline-premium.lua&key=KEY"))())
  with just enough of Roblox and of an executor for the shipped scripts: game:HttpGet over real HTTP
  (socket.http), syn.request/request, gethwid, getgenv, readfile/writefile/isfile in a workspace
  directory, HttpService (dkjson), Players, TeleportService (calls recorded), task.wait/spawn/delay on
  a small coroutine scheduler that really sleeps, and UI objects whose texts are recorded. After
  `config.runSeconds` (or when every thread has ended) it writes a JSON report to `config.report`:
  printed lines, errors, the texts on screen, teleports, every HTTP call (key= masked) and the finds
  every feed answer carried.

  Config: snippet, report, runSeconds, hwid, workspace, genv (table copied into getgenv()),
  httpGetRaisesOn4xx (game:HttpGet raises "HTTP <status>" on a non-2xx answer, as many executors do),
  unreachableAfter (seconds: from then on every HTTP call fails as with the server down, game:HttpGet
  raising curl's "curl: (7) Failed to connect ..." as executors built on libcurl do),
  teleportFailsAfter (seconds: each teleport reports TeleportInitFailed that long after it starts; by
  default a teleport neither ends the script nor fails, as one still under way),
  snapshotEvery (seconds: the visible buttons' texts are recorded in report.snapshots that often),
  actions: [{ after = seconds, fill = { placeholder = "...", text = "..." } } |
            { after = seconds, click = "text the button's Text contains" }].
]]

local json = require("dkjson")
local socket = require("socket")
local http = require("socket.http")
local ltn12 = require("ltn12")

local configPath = assert(arg[1], "usage: luajit executor.lua <config.json>")
local configFile = assert(io.open(configPath, "r"))
local config = assert(json.decode(configFile:read("*a")))
configFile:close()

local now = socket.gettime
local startedAt = now()
local deadline = startedAt + (config.runSeconds or 15)
local function ms(t) return math.floor(t * 1000 + 0.5) end

local report = {
  printed = {}, errors = {}, texts = {}, teleports = {}, http = {}, feedAnswers = {}, files = {}, snapshots = {},
  startedAt = ms(startedAt),
}

local function line(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[#parts + 1] = tostring((select(i, ...))) end
  return table.concat(parts, " ")
end

local realPrint = print
function print(...)
  local text = line(...)
  table.insert(report.printed, text)
  realPrint(text)
end
function warn(...) print(...) end

local function maskUrl(url)
  return (url:gsub("([?&]key=)[^&]*", "%1***"))
end

---------------------------------------------------------------------------------------------------
-- HTTP
---------------------------------------------------------------------------------------------------

-- The names of a JSON body's fields (what a POST sent, without its values).
local function bodyFields(body)
  local data = body and json.decode(body, 1, nil)
  if type(data) ~= "table" then return nil end
  local names = {}
  for k in pairs(data) do names[#names + 1] = tostring(k) end
  table.sort(names)
  return names
end

local function httpCall(method, url, headers, body)
  if config.unreachableAfter and now() - startedAt >= config.unreachableAfter then
    table.insert(report.http, { method = method, url = maskUrl(url), status = 0, at = ms(now()), ms = 0,
      error = "unreachable", fields = bodyFields(body) })
    local host, port = url:match("^%a+://([^:/]+):?(%d*)")
    return nil, string.format("curl: (7) Failed to connect to %s port %s after 0 ms: Couldn't connect to server",
      tostring(host), port ~= "" and port or "80")
  end
  local chunks = {}
  local remaining = deadline - now()
  http.TIMEOUT = math.max(1, math.min(30, remaining + 1))
  local reqHeaders = {}
  for k, v in pairs(headers or {}) do reqHeaders[k] = v end
  if body then reqHeaders["Content-Length"] = tostring(#body) end
  local t0 = now()
  local ok, status, respHeaders = http.request({
    url = url, method = method, headers = reqHeaders,
    source = body and ltn12.source.string(body) or nil,
    sink = ltn12.sink.table(chunks),
  })
  local text = table.concat(chunks)
  local entry = {
    method = method, url = maskUrl(url), status = ok and status or 0,
    at = ms(t0), ms = ms(now() - t0), error = (not ok) and tostring(status) or nil, fields = bodyFields(body),
  }
  table.insert(report.http, entry)
  if ok and url:find("/api/script/feed", 1, true) then
    local data = json.decode(text, 1, nil)
    if type(data) == "table" and type(data.discoveries) == "table" then
      local finds = {}
      for _, d in ipairs(data.discoveries) do
        finds[#finds + 1] = {
          id = d.id, jobid = d.jobid, timestamp = d.timestamp, numericValue = d.numericValue, name = d.name,
          value = d.value,
        }
      end
      table.insert(report.feedAnswers, {
        at = ms(now()), serverTime = data.serverTime, cursor = data.cursor, tier = data.tier, finds = finds,
      })
    end
  end
  if not ok then return nil, tostring(status) end
  return status, text, respHeaders or {}
end

---------------------------------------------------------------------------------------------------
-- Scheduler: every script thread is a coroutine; task.wait yields a wake-up time.
---------------------------------------------------------------------------------------------------

local WAIT = {}
local sleeping = {} -- { co = thread, wakeAt = t, since = t }

local function resumeThread(co, ...)
  local ok, marker, wakeAt = coroutine.resume(co, ...)
  if not ok then
    local message = tostring(marker)
    table.insert(report.errors, message)
    realPrint("ERROR: " .. message)
    io.stderr:write(debug.traceback(co, message), "\n")
    return
  end
  if coroutine.status(co) == "suspended" and marker == WAIT then
    table.insert(sleeping, { co = co, wakeAt = wakeAt, since = now() })
  end
end

local function spawnThread(fn, ...)
  local co = type(fn) == "thread" and fn or coroutine.create(fn)
  resumeThread(co, ...)
  return co
end

local function waitFor(seconds)
  seconds = tonumber(seconds) or 0
  if seconds < 0.03 then seconds = 0.03 end
  if not coroutine.running() then error("task.wait outside a script thread") end
  local since = now()
  coroutine.yield(WAIT, since + seconds)
  local elapsed = now() - since
  return elapsed, now() - startedAt
end

task = {
  wait = waitFor,
  spawn = spawnThread,
  defer = spawnThread,
  delay = function(seconds, fn, ...)
    local args = { ... }
    return spawnThread(function() waitFor(seconds) fn(unpack(args)) end)
  end,
  cancel = function() end,
}
wait = waitFor
spawn = function(fn) return spawnThread(fn) end
delay = task.delay
tick = function() return now() end
os.clock = os.clock

---------------------------------------------------------------------------------------------------
-- Signals, instances, datatypes
---------------------------------------------------------------------------------------------------

local function newSignal()
  local signal = { handlers = {} }
  function signal:Connect(fn)
    table.insert(self.handlers, fn)
    local connection = { Connected = true }
    function connection.Disconnect(c)
      c.Connected = false
      for i, h in ipairs(self.handlers) do if h == fn then table.remove(self.handlers, i) break end end
    end
    return connection
  end
  signal.connect = signal.Connect
  function signal:Fire(...)
    for _, fn in ipairs(self.handlers) do spawnThread(fn, ...) end
  end
  function signal:Wait() return waitFor(3600) end
  return signal
end

local instances = {}
local Instance_mt = {}
local methods = {}

function methods:Destroy() self.__props.Parent = nil; self.__destroyed = true end
function methods:ClearAllChildren()
  for _, child in ipairs(self:GetChildren()) do child:Destroy() end
end
function methods:GetChildren()
  local out = {}
  for _, inst in ipairs(instances) do
    if rawget(inst, "__props").Parent == self and not inst.__destroyed then out[#out + 1] = inst end
  end
  return out
end
methods.GetDescendants = methods.GetChildren
function methods:FindFirstChild(name)
  for _, child in ipairs(self:GetChildren()) do if child.Name == name then return child end end
  return nil
end
methods.WaitForChild = methods.FindFirstChild
methods.FindFirstChildOfClass = function(self, class)
  for _, child in ipairs(self:GetChildren()) do if child.ClassName == class then return child end end
end
function methods:IsA(class) return self.ClassName == class or class == "Instance" or class == "GuiObject" end
function methods:GetPropertyChangedSignal(prop)
  local key = "__changed_" .. prop
  if not rawget(self, key) then rawset(self, key, newSignal()) end
  return rawget(self, key)
end
function methods:TweenPosition() return true end
function methods:TweenSize() return true end
function methods:TweenSizeAndPosition() return true end
function methods:CaptureFocus() end
function methods:ReleaseFocus() end
function methods:IsDescendantOf() return true end

local signalNames = {
  MouseButton1Click = true, MouseButton1Down = true, MouseButton1Up = true, MouseButton2Click = true,
  Activated = true, MouseEnter = true, MouseLeave = true, FocusLost = true, Focused = true,
  TeleportInitFailed = true,
  Changed = true, InputBegan = true, InputEnded = true, InputChanged = true, ChildAdded = true,
  ChildRemoved = true, Destroying = true, AncestryChanged = true,
}

Instance_mt.__index = function(self, key)
  local m = methods[key]
  if m then return m end
  local props = rawget(self, "__props")
  local v = props[key]
  if v ~= nil then return v end
  if signalNames[key] then
    local s = newSignal()
    props[key] = s
    return s
  end
  return nil
end
Instance_mt.__newindex = function(self, key, value)
  local props = rawget(self, "__props")
  props[key] = value
  local changed = rawget(self, "__changed_" .. key)
  if changed then changed:Fire() end
end
Instance_mt.__tostring = function(self) return rawget(self, "__props").Name end

local function newInstance(class, parent)
  local inst = setmetatable({ __props = { ClassName = class, Name = class, Visible = true } }, Instance_mt)
  inst.__props.Parent = parent
  table.insert(instances, inst)
  return inst
end

Instance = { new = function(class, parent) return newInstance(class, parent) end }

local function datatype(name)
  return {
    new = function(...) return { __type = name, ... } end,
    fromRGB = function(...) return { __type = name, ... } end,
    fromHSV = function(...) return { __type = name, ... } end,
    fromHex = function(...) return { __type = name, ... } end,
    fromScale = function(...) return { __type = name, ... } end,
    fromOffset = function(...) return { __type = name, ... } end,
  }
end
UDim2, UDim, Color3, Vector2, Vector3, CFrame, TweenInfo, NumberRange, Rect =
  datatype("UDim2"), datatype("UDim"), datatype("Color3"), datatype("Vector2"), datatype("Vector3"),
  datatype("CFrame"), datatype("TweenInfo"), datatype("NumberRange"), datatype("Rect")
ColorSequence, NumberSequence, ColorSequenceKeypoint, NumberSequenceKeypoint =
  datatype("ColorSequence"), datatype("NumberSequence"), datatype("ColorSequenceKeypoint"),
  datatype("NumberSequenceKeypoint")

-- Enum.Font.Gotham and the like: any path, a value naming itself.
local function enumProxy(path)
  return setmetatable({ Name = path }, {
    __index = function(_, k) return enumProxy(path .. "." .. tostring(k)) end,
    __tostring = function() return path end,
  })
end
Enum = enumProxy("Enum")

---------------------------------------------------------------------------------------------------
-- game and its services
---------------------------------------------------------------------------------------------------

local services = {}
local function service(name)
  if services[name] then return services[name] end
  local s = newInstance(name)
  services[name] = s
  return s
end

local HttpService = service("HttpService")
function HttpService:JSONDecode(text)
  local value, _, err = json.decode(text, 1, nil)
  if err then error("Can't parse JSON", 2) end
  return value
end
function HttpService:JSONEncode(value) return json.encode(value) end
function HttpService:UrlEncode(text)
  return (tostring(text):gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
function HttpService:GenerateGUID()
  return string.format("%08x-%04x-%04x-%04x-%012x", math.random(0, 0xffffffff), math.random(0, 0xffff),
    math.random(0, 0xffff), math.random(0, 0xffff), math.random(0, 0xffffffff))
end

local Players = service("Players")
local localPlayer = newInstance("Player", Players)
localPlayer.Name = "StandInPlayer"
localPlayer.UserId = 1
localPlayer.Kick = function(_, reason) print("Kicked: " .. tostring(reason)) end
localPlayer.GetMouse = function() return newInstance("Mouse") end
Players.LocalPlayer = localPlayer
local playerGui = newInstance("PlayerGui", localPlayer)
localPlayer.PlayerGui = playerGui

local TeleportService = service("TeleportService")
function TeleportService:TeleportToPlaceInstance(placeId, jobId, player)
  table.insert(report.teleports, { placeId = placeId, jobId = jobId, at = ms(now()) })
  realPrint(string.format("teleport -> %s %s", tostring(placeId), tostring(jobId)))
  if config.teleportFailsAfter then
    task.delay(config.teleportFailsAfter, function()
      TeleportService.TeleportInitFailed:Fire(player, "GameFull", "The server is full")
    end)
  end
end
function TeleportService:Teleport(placeId)
  table.insert(report.teleports, { placeId = placeId, at = ms(now()) })
end

local RbxAnalyticsService = service("RbxAnalyticsService")
function RbxAnalyticsService:GetClientId() return config.hwid or "stand-in-client-id" end

local CoreGui = service("CoreGui")
local RunService = service("RunService")
RunService.Heartbeat = newSignal()
RunService.RenderStepped = newSignal()
RunService.Stepped = newSignal()

game = newInstance("DataModel")
game.PlaceId = 109983668079237
game.JobId = "stand-in-job"
game.GetService = function(_, name) return service(name) end
game.HttpGet = function(_, url)
  local status, body = httpCall("GET", url, { ["User-Agent"] = "Roblox/WinInet" })
  if not status and tostring(body):find("^curl:") then error(body, 2) end
  if not status then error("HttpGet failed: " .. tostring(body), 2) end
  if config.httpGetRaisesOn4xx and (status < 200 or status >= 300) then error("HTTP " .. tostring(status), 2) end
  return body
end
game.HttpGetAsync = game.HttpGet
game.Players = Players
game.CoreGui = CoreGui
Workspace = newInstance("Workspace")
workspace = Workspace
game.Workspace = Workspace

---------------------------------------------------------------------------------------------------
-- Executor functions
---------------------------------------------------------------------------------------------------

local genv = _G
for k, v in pairs(config.genv or {}) do genv[k] = v end
function getgenv() return genv end
function getrenv() return genv end
function gethwid() return config.hwid end
function gethui() return CoreGui end
function identifyexecutor() return "ScanlineStandIn", "1.0" end
function setclipboard() end

local function request(options)
  local status, body, headers = httpCall(options.Method or "GET", options.Url, options.Headers, options.Body)
  if not status then return { Success = false, StatusCode = 0, StatusMessage = tostring(body), Body = "" } end
  return { Success = status >= 200 and status < 300, StatusCode = status, Body = body, Headers = headers }
end
syn = { request = request }
_G.request = request
_G.http = { request = request }
http_request = nil -- some executors have it; the scripts must cope without

local workspaceDir = config.workspace or "/tmp"
local function filePath(name)
  assert(not tostring(name):find("%.%."), "path escapes the workspace")
  return workspaceDir .. "/" .. name
end
function readfile(name)
  local f = io.open(filePath(name), "rb")
  if not f then error("file does not exist: " .. tostring(name), 2) end
  local text = f:read("*a")
  f:close()
  return text
end
function writefile(name, text)
  local f = assert(io.open(filePath(name), "wb"))
  f:write(tostring(text))
  f:close()
end
function appendfile(name, text) writefile(name, (isfile(name) and readfile(name) or "") .. tostring(text)) end
function isfile(name)
  local f = io.open(filePath(name), "rb")
  if f then f:close() return true end
  return false
end
function delfile(name) os.remove(filePath(name)) end
function makefolder() end
function isfolder() return false end

---------------------------------------------------------------------------------------------------
-- Scripted user actions, the snippet, the run
---------------------------------------------------------------------------------------------------

for _, action in ipairs(config.actions or {}) do
  spawnThread(function()
    waitFor(action.after or 0)
    if action.fill then
      for _, inst in ipairs(instances) do
        if inst.ClassName == "TextBox" and tostring(inst.PlaceholderText or ""):find(action.fill.placeholder, 1, true) then
          inst.Text = action.fill.text
          if rawget(inst.__props, "FocusLost") then inst.FocusLost:Fire(true) end
        end
      end
    elseif action.click then
      local clicked = false
      for _, inst in ipairs(instances) do
        if not clicked and inst.ClassName == "TextButton" and not inst.__destroyed
          and tostring(inst.Text or ""):find(action.click, 1, true) then
          clicked = true
          for _, name in ipairs({ "MouseButton1Click", "Activated" }) do
            local s = rawget(inst.__props, name)
            if s then s:Fire() end
          end
        end
      end
      if not clicked then table.insert(report.errors, "stand-in: no button with text " .. action.click) end
    end
  end)
end

-- What the panels' buttons read over time (the rows of finds among them).
local function visibleButtons()
  local texts = {}
  for _, inst in ipairs(instances) do
    if inst.ClassName == "TextButton" and not inst.__destroyed and inst.Visible ~= false then
      texts[#texts + 1] = tostring(inst.Text or "")
    end
  end
  return texts
end
if config.snapshotEvery then
  spawnThread(function()
    while true do
      waitFor(config.snapshotEvery)
      table.insert(report.snapshots, { at = ms(now()), buttons = visibleButtons() })
    end
  end)
end

spawnThread(function()
  local chunk, err = loadstring(config.snippet, "=snippet")
  if not chunk then error(err) end
  chunk()
end)

while #sleeping > 0 do
  table.sort(sleeping, function(a, b) return a.wakeAt < b.wakeAt end)
  local nextThread = sleeping[1]
  if nextThread.wakeAt >= deadline then break end
  local delay = nextThread.wakeAt - now()
  if delay > 0 then socket.sleep(delay) end
  table.remove(sleeping, 1)
  resumeThread(nextThread.co)
  if now() >= deadline then break end
end

for _, inst in ipairs(instances) do
  local class = inst.ClassName
  if (class == "TextLabel" or class == "TextButton" or class == "TextBox") and not inst.__destroyed then
    table.insert(report.texts, {
      class = class, name = inst.Name, text = tostring(inst.Text or ""), visible = inst.Visible ~= false,
    })
  end
end
report.endedAt = ms(now())
local dir = io.popen('ls -1 "' .. workspaceDir .. '" 2>/dev/null')
if dir then
  for name in dir:lines() do table.insert(report.files, name) end
  dir:close()
end

local out = assert(io.open(config.report, "w"))
out:write(json.encode(report, { indent = false }))
out:close()
os.exit(0)
