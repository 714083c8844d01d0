-- Where the user is, told to every locus client: the cursor and the visual selection
-- (locus/didChangeCursor), and the active text editor and whether it has focus
-- (locus/didChangeActiveEditor). Each is sent only when it changed.

local M = {}

local api = vim.api
local discovery = require('locus.discovery')
local mirror = require('locus.mirror')

-- What was sent, per client id, and whether Neovim itself has focus (FocusLost/FocusGained).
local state = {
  -- Client id -> key of the last cursor sent (a repeat is not sent again).
  cursor_sent = {},
  -- Client id -> key of the last locus/didChangeActiveEditor sent.
  active_sent = {},
  -- Client id -> the buffer of the last text editor the user was in.
  last_editor = {},
  focused = true,
}

-- Byte column `col` (0-based) of line `row` (0-based) in the client's encoding.
local function character(bufnr, row, col, encoding)
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
  col = math.min(col, #line)
  return vim.str_utfindex(line, encoding, col, false)
end

-- The byte just after the character that starts at byte `col` of `row`.
local function after_char(bufnr, row, col)
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
  if col >= #line then
    return #line
  end
  return col + vim.str_utf_end(line, col + 1) + 1
end

-- The visual selection as an LSP range (end exclusive), or nil outside visual modes.
local function selection(bufnr, encoding)
  local mode = api.nvim_get_mode().mode
  local kind = mode:sub(1, 1)
  if kind ~= 'v' and kind ~= 'V' and mode ~= '\22' then
    return nil
  end
  local v = vim.fn.getpos('v')
  local c = api.nvim_win_get_cursor(0)
  local a = { v[2] - 1, v[3] - 1 }
  local b = { c[1] - 1, c[2] }
  if a[1] > b[1] or (a[1] == b[1] and a[2] > b[2]) then
    a, b = b, a
  end
  if kind == 'V' then
    local last = api.nvim_buf_line_count(bufnr)
    local start = { line = a[1], character = 0 }
    if b[1] + 1 < last then
      return { start = start, ['end'] = { line = b[1] + 1, character = 0 } }
    end
    local line = api.nvim_buf_get_lines(bufnr, b[1], b[1] + 1, false)[1] or ''
    return { start = start, ['end'] = { line = b[1], character = character(bufnr, b[1], #line, encoding) } }
  end
  return {
    start = { line = a[1], character = character(bufnr, a[1], a[2], encoding) },
    ['end'] = { line = b[1], character = character(bufnr, b[1], after_char(bufnr, b[1], b[2]), encoding) },
  }
end

--- Sends the cursor (and selection) of the current window's buffer to every locus client that
--- mirrors it.
function M.send_cursor()
  local bufnr = api.nvim_get_current_buf()
  for _, client in ipairs(mirror.editor_clients(bufnr)) do
    local enc = client.offset_encoding
    local cursor = api.nvim_win_get_cursor(0)
    local row = cursor[1] - 1
    local position = { line = row, character = character(bufnr, row, cursor[2], enc) }
    local sel = selection(bufnr, enc)
    local params = {
      textDocument = { uri = mirror.uri(bufnr), version = mirror.version(bufnr) },
      position = position,
      selections = sel and { sel } or nil,
    }
    local key = vim.inspect({ params.textDocument.uri, params.textDocument.version, position, sel })
    if state.cursor_sent[client.id] ~= key then
      state.cursor_sent[client.id] = key
      client:notify('locus/didChangeCursor', params)
    end
  end
end

-- Whether `bufnr` is shown in a window, or is a window's alternate buffer (a `:terminal` or
-- help buffer opened over it in the same window: `<C-^>` brings it back).
local function held(bufnr)
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(win) == bufnr then
      return true
    end
  end
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_call(win, function()
      return vim.fn.bufnr('#')
    end) == bufnr then
      return true
    end
  end
  return false
end

-- The text editor `client` should keep while the user is elsewhere: the last one the user was
-- in while it is still held by a window, else another one shown in a window, else nil.
local function kept_editor(client)
  local last = state.last_editor[client.id]
  if last and mirror.is_editor(last, client) and held(last) then
    return last
  end
  local wins = api.nvim_tabpage_list_wins(0)
  vim.list_extend(wins, api.nvim_list_wins())
  for _, win in ipairs(wins) do
    local buf = api.nvim_win_get_buf(win)
    if mirror.is_editor(buf, client) then
      return buf
    end
  end
  return nil
end

--- Tells every locus client which text editor is active and whether it has focus: the current
--- buffer when it is one of Locus's documents and Neovim has focus; otherwise (focus in another
--- application, a `:terminal`, help, quickfix, a prompt or a floating window) the last text
--- editor, `focused: false`; `null` only when no text editor is left in any window.
function M.send_active()
  local cur = api.nvim_get_current_buf()
  for _, client in ipairs(discovery.clients()) do
    local doc, focused
    if state.focused and mirror.is_editor(cur, client) then
      doc, focused = cur, true
    else
      doc, focused = kept_editor(client), false
    end
    if doc then
      state.last_editor[client.id] = doc
    end
    local params = doc and { textDocument = { uri = mirror.uri(doc) }, focused = focused }
      or { textDocument = vim.NIL }
    local key = vim.inspect({ doc and params.textDocument.uri, focused })
    if state.active_sent[client.id] ~= key then
      state.active_sent[client.id] = key
      state.cursor_sent[client.id] = nil
      client:notify('locus/didChangeActiveEditor', params)
    end
  end
end

--- Records whether Neovim itself has focus (FocusGained, FocusLost).
---@param focused boolean
function M.set_focused(focused)
  state.focused = focused
end

--- Forgets what was sent to the client `client_id` (it ended).
---@param client_id integer
function M.forget(client_id)
  state.cursor_sent[client_id], state.active_sent[client_id] = nil, nil
  state.last_editor[client_id] = nil
end

--- Forgets what was sent to every client (they were stopped).
function M.reset()
  state.cursor_sent, state.active_sent, state.last_editor = {}, {}, {}
end

return M
