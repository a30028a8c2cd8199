--[[
  Scanline premium panel (scanline-panel.lua)

  The panel the premium scanner (scanline-premium.lua) shows: its status lines, the auto-join
  switch, the filters (minimum value, name search, rarity, mutation), the sort (value or age) and
  the rows of finds. It holds no key and makes no request: the premium script loads it through the
  loader and hands it the finds. The filters and sort are kept in the executor's workspace
  (scanline-settings.json), as the key is (scanline-key.txt), so the next run starts with them.
]]

local SETTINGS_FILE = "scanline-settings.json"
local MAX_ROWS = 10
-- A find leaves the list a minute after it arrived: its server has most likely lost the pet by then.
local LIST_S = 60
-- Sorted by age, finds from 10M/s stay on top for this long, above the cheaper ones.
local PIN_S = 60
local PIN_FROM = 10000000
local RARITIES = { "Secret", "Brainrot God", "Mythic", "Legendary", "Epic", "Rare", "Common" }
-- Mutations the game puts before a pet's name ("Gold Tralalero Tralala").
local MUTATIONS = { "Gold", "Diamond", "Rainbow", "Lava", "Candy", "Bloodrot", "Celestial", "Galaxy" }

local HttpService = game:GetService("HttpService")

local function now() return (tick and tick()) or os.time() end
local function on(signal, fn) if signal and signal.Connect then signal:Connect(fn) end end

-- "10M", "1.5b", "250k", "5000000" -> a number per second; nil when it does not read as one.
local function parseValue(text)
  local number, unit = tostring(text or ""):upper():gsub("[%$,/S%s]", ""):match("^([%d%.]+)([KMBT]?)$")
  number = tonumber(number)
  if not number then return nil end
  return number * (({ K = 1e3, M = 1e6, B = 1e9, T = 1e12 })[unit] or 1)
end

local function shortValue(value)
  for _, step in ipairs({ { 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "K" } }) do
    if value >= step[1] then return (string.format("%.1f", value / step[1]):gsub("%.0$", "")) .. step[2] end
  end
  return tostring(math.floor(value))
end

local function mutationOf(find)
  local first = tostring(find.name or ""):match("^(%S+)%s")
  for _, mutation in ipairs(MUTATIONS) do if first == mutation then return mutation end end
  return nil
end

local defaults = { minValue = 0, search = "", rarity = "", mutation = "", sort = "value", autoJoin = true }

local function loadSettings()
  local settings = {}
  for k, v in pairs(defaults) do settings[k] = v end
  if not (isfile and readfile and isfile(SETTINGS_FILE)) then return settings end
  local ok, saved = pcall(function() return HttpService:JSONDecode(readfile(SETTINGS_FILE)) end)
  if ok and type(saved) == "table" then
    for k, v in pairs(defaults) do
      if type(saved[k]) == type(v) then settings[k] = saved[k] end
    end
  end
  return settings
end

return function(options)
  local settings = loadSettings()
  local function save()
    if writefile then pcall(writefile, SETTINGS_FILE, HttpService:JSONEncode(settings)) end
  end

  local gui = Instance.new("ScreenGui")
  gui.Name = "ScanlinePremium"
  gui.ResetOnSpawn = false
  gui.Parent = (gethui and gethui()) or game:GetService("CoreGui")

  local frame = Instance.new("Frame")
  frame.Size = UDim2.new(0, 300, 0, 162 + MAX_ROWS * 26)
  frame.Position = UDim2.new(1, -320, 0.5, -200)
  frame.BackgroundColor3 = Color3.fromRGB(17, 24, 39)
  frame.Active = true
  frame.Draggable = true
  frame.Parent = gui

  local function make(class, x, y, width, height, text)
    local c = Instance.new(class)
    c.Size = UDim2.new(width, width == 1 and -12 or -8, 0, height)
    c.Position = UDim2.new(x, x == 0 and 6 or 2, 0, y)
    c.Text = text
    c.TextColor3 = Color3.fromRGB(229, 231, 235)
    c.Font = Enum.Font.Gotham
    c.TextSize = 12
    c.Parent = frame
    if class == "TextLabel" then c.BackgroundTransparency = 1 c.TextXAlignment = Enum.TextXAlignment.Left end
    return c
  end

  local title = make("TextLabel", 0, 4, 1, 20, options.title or "Scanline - Premium")
  title.TextColor3 = Color3.fromRGB(250, 204, 21)
  local status = make("TextLabel", 0, 26, 1, 20, "Connecting...")
  status.TextColor3 = Color3.fromRGB(156, 163, 175)
  local note = make("TextLabel", 0, 46, 1, 20, "")
  note.TextColor3 = Color3.fromRGB(156, 163, 175)

  local toggle = make("TextButton", 0, 70, 1, 24, "")
  local minBox = make("TextBox", 0, 98, 0.5, 24, settings.minValue > 0 and shortValue(settings.minValue) or "")
  minBox.PlaceholderText = "Min value (e.g. 10M)"
  minBox.ClearTextOnFocus = false
  local searchBox = make("TextBox", 0.5, 98, 0.5, 24, settings.search)
  searchBox.PlaceholderText = "Search name"
  searchBox.ClearTextOnFocus = false
  local rarityButton = make("TextButton", 0, 126, 1 / 3, 24, "")
  local mutationButton = make("TextButton", 1 / 3, 126, 1 / 3, 24, "")
  local sortButton = make("TextButton", 2 / 3, 126, 1 / 3, 24, "")

  local finds, shown, rows = {}, {}, {}
  for i = 1, MAX_ROWS do
    local row = make("TextButton", 0, 156 + (i - 1) * 26, 1, 24, "")
    row.BackgroundColor3 = Color3.fromRGB(31, 41, 55)
    row.TextXAlignment = Enum.TextXAlignment.Left
    row.Visible = false
    on(row.MouseButton1Click, function() if shown[i] and options.onJoin then options.onJoin(shown[i]) end end)
    rows[i] = row
  end

  local function passes(find)
    if (tonumber(find.numericValue) or 0) < settings.minValue then return false end
    if settings.search ~= "" and not tostring(find.name or ""):lower():find(settings.search:lower(), 1, true) then
      return false
    end
    if settings.rarity ~= "" and find.type ~= settings.rarity then return false end
    if settings.mutation ~= "" and mutationOf(find) ~= settings.mutation then return false end
    return true
  end

  -- Value: dearest first. Age: newest first, but finds from 10M/s of the last minute (`pinned`, set
  -- before sorting) above the rest.
  local function before(a, b)
    if settings.sort == "value" then
      local va, vb = tonumber(a.numericValue) or 0, tonumber(b.numericValue) or 0
      if va ~= vb then return va > vb end
    elseif a.pinned ~= b.pinned then
      return a.pinned
    end
    return a.order > b.order
  end

  local panel = {}
  local arrived = 0

  function panel.render()
    local t = now()
    local kept, listed = {}, {}
    for _, find in ipairs(finds) do
      if t - find.arrivedAt < LIST_S then
        kept[#kept + 1] = find
        find.pinned = (tonumber(find.numericValue) or 0) >= PIN_FROM and t - find.arrivedAt < PIN_S
        if passes(find) then listed[#listed + 1] = find end
      end
    end
    finds = kept
    table.sort(listed, before)
    for i, row in ipairs(rows) do
      local find = listed[i]
      shown[i] = find
      row.Visible = find ~= nil
      if find then
        row.Text = string.format("  %s  %s%s", find.name or "?", find.value or "?", find.jobid and "  [join]" or "")
      end
    end
    toggle.Text = "Auto-join from 5M/s: " .. (settings.autoJoin and "ON" or "OFF")
    rarityButton.Text = "Rarity: " .. (settings.rarity ~= "" and settings.rarity or "any")
    mutationButton.Text = "Mutation: " .. (settings.mutation ~= "" and settings.mutation or "any")
    sortButton.Text = "Sort: " .. settings.sort
    return math.min(#listed, MAX_ROWS)
  end

  -- The finds of one feed answer (oldest first).
  function panel.add(discoveries)
    for _, find in ipairs(discoveries) do
      arrived = arrived + 1
      find.arrivedAt, find.order = now(), arrived
      finds[#finds + 1] = find
    end
    return panel.render()
  end

  function panel.status(text) status.Text = text end
  function panel.note(text) note.Text = text end
  function panel.autoJoin() return settings.autoJoin end

  local function change(field, value)
    settings[field] = value
    save()
    panel.render()
  end
  -- Each click moves to the next choice ("" = any).
  local function cycle(list, current)
    for i, item in ipairs(list) do if item == current then return list[i + 1] or "" end end
    return list[1]
  end

  on(toggle.MouseButton1Click, function() change("autoJoin", not settings.autoJoin) end)
  on(rarityButton.MouseButton1Click, function() change("rarity", cycle(RARITIES, settings.rarity)) end)
  on(mutationButton.MouseButton1Click, function() change("mutation", cycle(MUTATIONS, settings.mutation)) end)
  on(sortButton.MouseButton1Click, function() change("sort", settings.sort == "value" and "age" or "value") end)
  on(minBox.FocusLost, function()
    local value = parseValue(minBox.Text) or 0
    minBox.Text = value > 0 and shortValue(value) or ""
    change("minValue", value)
  end)
  on(searchBox.FocusLost, function() change("search", (searchBox.Text:gsub("^%s+", ""):gsub("%s+$", ""))) end)

  panel.render()
  return panel
end
