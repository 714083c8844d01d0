-- Locus for Neovim 0.11+: starts `locus lsp` beside your language servers and tells it where
-- you are: the cursor and selection (CursorMoved, ModeChanged), the text editor you are in and
-- whether it has focus (BufEnter, WinEnter, FocusGained, FocusLost), unnamed buffers (`:enew`)
-- as `untitled:` documents, and the symbols your other language servers compute.
--
--   require('locus').setup()                      -- defaults below
--   require('locus').setup({ cmd = { '/path/to/locus', 'lsp', '--no-mcp' } })
--
-- Components: `require('locus').statusline()` (the scope chain, e.g.
-- `Class:Greeter > Method:greet`) and `require('locus').winbar()` (breadcrumbs,
-- `greeter.py › Greeter › greet`); both refresh shortly after the cursor moves.
-- Agents can ask Neovim to rename symbols and files, open a file and list the problems it shows
-- (editor actions, lua/locus/actions.lua; `actions = false` turns them off).
-- Commands: `:Locus` (scope chain and file:line), `:Locus status`, `:Locus restart`;
-- `:checkhealth locus` checks the set-up.

local M = {}

local api = vim.api

M.config = {
  name = 'locus',
  cmd = { 'locus', 'lsp' },
  -- nil: every filetype.
  filetypes = nil,
  root_markers = { '.git', '.hg', '.jj' },
  -- Forward symbols from the buffer's other language servers (locus/didChangeSymbols).
  symbols = true,
  -- Milliseconds of quiet after an edit before symbols are asked for again.
  symbols_debounce = 300,
  -- Keep the context of the cursor for statusline() and winbar(), refreshed after cursor moves
  -- and edits (the redraw happens when Locus's answer arrives).
  statusline = true,
  -- Milliseconds of quiet after a cursor move before the context is asked for again.
  refresh_debounce = 80,
  -- Mirror unnamed buffers (`:enew`) as `untitled:Untitled-N` documents once they have text.
  untitled = true,
  -- Let agents act through Neovim (editor actions: symbol_rename, file_rename, editor_open_file,
  -- diagnostic_collect); see lua/locus/actions.lua.
  actions = true,
  -- After an action's edits, write the buffers it changed that had no unsaved changes before
  -- (as VS Code saves a refactoring's files); false leaves every edited buffer unsaved.
  actions_save = true,
}

local group = api.nvim_create_augroup('locus', { clear = true })

-- Everything the plugin remembers, keyed by client id or buffer number.
local state = {
  -- Client id -> key of the last cursor sent (a repeat is not sent again).
  cursor_sent = {},
  -- Client id -> key of the last locus/didChangeActiveEditor sent.
  active_sent = {},
  -- Client id -> the buffer of the last text editor the user was in.
  last_editor = {},
  -- Buffer -> the last editorContext Locus gave for it (statusline, winbar).
  contexts = {},
  -- Buffer -> number of the latest context request, so an older answer never wins.
  context_seq = {},
  -- Buffer -> `{uri, version, language, clients = {[id] = true}}` for mirrored unnamed buffers.
  untitled = {},
  -- Client id -> the params of the last locus/mcpStatus notification.
  mcp = {},
  -- Whether Neovim itself has focus (FocusLost/FocusGained).
  focused = true,
  -- The last normal buffer (buftype '') the user entered, for :checkhealth and :Locus.
  last_buf = nil,
  -- Client ids :Locus restart stopped (their exit is no surprise).
  stopping = {},
  -- Whether setup() ran, and why Locus is off when it is.
  setup_done = false,
  disabled = nil,
}
M._state = state

--- The running locus clients (all of them, or those attached to `bufnr`).
local function clients(bufnr)
  return vim.lsp.get_clients({ name = M.config.name, bufnr = bufnr })
end

local function is_untitled(bufnr)
  return state.untitled[bufnr] ~= nil
end

--- The locus client for `bufnr`: one attached to it, or for a mirrored unnamed buffer any
--- initialized one; `nil` when Locus does not know the buffer. Without `bufnr`, any client.
function M.client(bufnr)
  if bufnr == 0 then
    bufnr = api.nvim_get_current_buf()
  end
  if bufnr and is_untitled(bufnr) then
    for _, c in ipairs(clients()) do
      if state.untitled[bufnr].clients[c.id] then
        return c
      end
    end
    return nil
  end
  return clients(bufnr)[1]
end

--- The URI Locus knows `bufnr` by (`untitled:Untitled-N` for a mirrored unnamed buffer).
function M.uri(bufnr)
  bufnr = bufnr == 0 and api.nvim_get_current_buf() or bufnr
  local u = state.untitled[bufnr]
  return u and u.uri or vim.uri_from_bufnr(bufnr)
end

local function version_of(bufnr)
  local u = state.untitled[bufnr]
  if u then
    return u.version
  end
  return vim.lsp.util.buf_versions[bufnr]
end

--- Whether `bufnr` is a text editor for `client`: a normal buffer that Locus mirrors.
local function is_editor(bufnr, client)
  if not bufnr or not api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local u = state.untitled[bufnr]
  if u then
    return u.clients[client.id] == true
  end
  return vim.lsp.buf_is_attached(bufnr, client.id)
end

--- The locus clients for which `bufnr` is a text editor.
local function editor_clients(bufnr)
  local out = {}
  for _, c in ipairs(clients()) do
    if is_editor(bufnr, c) then
      table.insert(out, c)
    end
  end
  return out
end

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
  for _, client in ipairs(editor_clients(bufnr)) do
    local enc = client.offset_encoding
    local cursor = api.nvim_win_get_cursor(0)
    local row = cursor[1] - 1
    local position = { line = row, character = character(bufnr, row, cursor[2], enc) }
    local sel = selection(bufnr, enc)
    local params = {
      textDocument = { uri = M.uri(bufnr), version = version_of(bufnr) },
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
  if last and is_editor(last, client) and held(last) then
    return last
  end
  local wins = api.nvim_tabpage_list_wins(0)
  vim.list_extend(wins, api.nvim_list_wins())
  for _, win in ipairs(wins) do
    local buf = api.nvim_win_get_buf(win)
    if is_editor(buf, client) then
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
  for _, client in ipairs(clients()) do
    local doc, focused
    if state.focused and is_editor(cur, client) then
      doc, focused = cur, true
    else
      doc, focused = kept_editor(client), false
    end
    if doc then
      state.last_editor[client.id] = doc
    end
    local params = doc and { textDocument = { uri = M.uri(doc) }, focused = focused }
      or { textDocument = vim.NIL }
    local key = vim.inspect({ doc and params.textDocument.uri, focused })
    if state.active_sent[client.id] ~= key then
      state.active_sent[client.id] = key
      state.cursor_sent[client.id] = nil
      client:notify('locus/didChangeActiveEditor', params)
    end
  end
end

local symbol_timers = {}

--- Asks the buffer's other language servers for document symbols and forwards them.
function M.send_symbols(bufnr)
  local locus = M.client(bufnr)
  if not locus or not api.nvim_buf_is_valid(bufnr) or is_untitled(bufnr) then
    return
  end
  for _, other in ipairs(vim.lsp.get_clients({ bufnr = bufnr, method = 'textDocument/documentSymbol' })) do
    if other.name ~= M.config.name then
      local version = version_of(bufnr)
      local uri = vim.uri_from_bufnr(bufnr)
      other:request('textDocument/documentSymbol', { textDocument = { uri = uri } }, function(err, result)
        if err or type(result) ~= 'table' then
          return
        end
        locus:notify('locus/didChangeSymbols', {
          textDocument = { uri = uri, version = version },
          symbols = result,
          positionEncoding = other.offset_encoding,
        })
      end, bufnr)
      return
    end
  end
end

local function schedule_symbols(bufnr)
  if not M.config.symbols then
    return
  end
  local timer = symbol_timers[bufnr]
  if timer then
    timer:stop()
  else
    timer = assert(vim.uv.new_timer())
    symbol_timers[bufnr] = timer
  end
  timer:start(M.config.symbols_debounce, 0, vim.schedule_wrap(function()
    M.send_symbols(bufnr)
  end))
end

-- Unnamed buffers. Neovim's LSP client attaches only on FileType, and names an unnamed
-- buffer `file://` (the same URI for all of them), so the plugin keeps it away from them
-- (root_dir below) and mirrors them itself: didOpen/didChange (whole text)/didClose with
-- `untitled:Untitled-<bufnr>`, once the buffer has text.

local function untitled_eligible(bufnr)
  return M.config.untitled
    and api.nvim_buf_is_valid(bufnr)
    and api.nvim_buf_is_loaded(bufnr)
    and vim.bo[bufnr].buftype == ''
    and api.nvim_buf_get_name(bufnr) == ''
end

local function buffer_text(bufnr)
  local text = table.concat(api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  if vim.bo[bufnr].eol then
    text = text .. '\n'
  end
  return text
end

local function language_of(bufnr)
  local ft = vim.bo[bufnr].filetype
  return ft ~= '' and ft or 'plaintext'
end

local function untitled_open_on(client, bufnr)
  local u = state.untitled[bufnr]
  if not u or u.clients[client.id] or not client.initialized or client:is_stopped() then
    return
  end
  u.clients[client.id] = true
  client:notify('textDocument/didOpen', {
    textDocument = { uri = u.uri, languageId = u.language, version = u.version, text = buffer_text(bufnr) },
  })
end

local function untitled_close(bufnr)
  local u = state.untitled[bufnr]
  if not u then
    return
  end
  state.untitled[bufnr] = nil
  for _, client in ipairs(clients()) do
    if u.clients[client.id] and not client:is_stopped() then
      client:notify('textDocument/didClose', { textDocument = { uri = u.uri } })
    end
  end
  state.contexts[bufnr] = nil
end

-- Starts a locus client for unnamed buffers when none runs (rooted where Neovim runs).
-- `_uninitialized` (Neovim 0.11's own filter, private) counts a client still starting, which
-- opens the unnamed buffers in its on_init; were it to go away, a rare second client is all.
local function ensure_client()
  local any = vim.lsp.get_clients({ name = M.config.name, _uninitialized = true })
  if #any > 0 or state.disabled or not state.setup_done then
    return
  end
  local cfg = vim.deepcopy(vim.lsp.config[M.config.name])
  local cwd = vim.fn.getcwd()
  cfg.root_dir = vim.fs.root(cwd, M.config.root_markers) or cwd
  vim.lsp.start(cfg, { attach = false })
end

-- Opens, reopens (a new filetype) or closes the mirror of `bufnr` as the buffer now is.
local function untitled_sync(bufnr)
  local u = state.untitled[bufnr]
  if not untitled_eligible(bufnr) then
    untitled_close(bufnr)
    return
  end
  if u then
    if u.language ~= language_of(bufnr) then
      untitled_close(bufnr)
      untitled_sync(bufnr)
    end
    return
  end
  -- An empty, unchanged unnamed buffer (Neovim's start-up buffer, a fresh `:enew`) is not a
  -- text editor yet.
  local empty = api.nvim_buf_line_count(bufnr) == 1 and api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] == ''
  if empty and not vim.bo[bufnr].modified then
    return
  end
  state.untitled[bufnr] = {
    uri = 'untitled:Untitled-' .. bufnr,
    version = api.nvim_buf_get_changedtick(bufnr),
    language = language_of(bufnr),
    clients = {},
  }
  for _, client in ipairs(clients()) do
    untitled_open_on(client, bufnr)
  end
  ensure_client()
end

-- Syncs the mirror of `bufnr` and, when that made it start or stop being a text editor, says
-- so to Locus.
local function untitled_update(bufnr)
  local was = is_untitled(bufnr)
  untitled_sync(bufnr)
  if was ~= is_untitled(bufnr) then
    M.send_active()
    M.send_cursor()
  end
end

-- Buffers whose lines the plugin watches (unnamed buffers the user has entered).
local watched = {}

-- Watches an unnamed buffer's lines: the first text opens its mirror, later changes are sent
-- as the whole text (in the change itself, so they reach Locus before the cursor that follows).
local function untitled_watch(bufnr)
  if watched[bufnr] or not untitled_eligible(bufnr) then
    return
  end
  watched[bufnr] = true
  api.nvim_buf_attach(bufnr, false, {
    on_lines = function(_, b, tick)
      local u = state.untitled[b]
      if not untitled_eligible(b) then
        watched[b] = nil
        vim.schedule(function()
          untitled_update(b)
        end)
        return true
      end
      if not u then
        vim.schedule(function()
          untitled_update(b)
        end)
        return
      end
      u.version = tick
      local text = buffer_text(b)
      for _, client in ipairs(clients()) do
        if u.clients[client.id] then
          client:notify('textDocument/didChange', {
            textDocument = { uri = u.uri, version = tick },
            contentChanges = { { text = text } },
          })
        end
      end
    end,
    on_reload = function(_, b)
      vim.schedule(function()
        untitled_close(b)
        untitled_update(b)
      end)
    end,
    on_detach = function(_, b)
      watched[b] = nil
      vim.schedule(function()
        untitled_close(b)
        M.send_active()
      end)
    end,
  })
end

-- Files with no filetype (`LICENSE`, `notes`): Neovim's LSP client starts servers on FileType,
-- which such a file never gets, so with `filetypes = nil` (every file) the plugin attaches
-- Locus itself when the buffer is entered.
local function attach_plain(bufnr)
  if
    M.config.filetypes ~= nil
    or state.disabled
    or not state.setup_done
    or not api.nvim_buf_is_loaded(bufnr)
    or vim.bo[bufnr].buftype ~= ''
    or vim.bo[bufnr].filetype ~= ''
    or api.nvim_buf_get_name(bufnr) == ''
    or #clients(bufnr) > 0
  then
    return
  end
  local cfg = vim.deepcopy(vim.lsp.config[M.config.name])
  cfg.root_dir = vim.fs.root(bufnr, M.config.root_markers)
  vim.lsp.start(cfg, { bufnr = bufnr })
end

-- Statusline and winbar: the context of the current buffer, asked for after the cursor rests
-- `refresh_debounce` ms, stored per buffer; the status lines are redrawn when the answer
-- arrives and changes what they show.

local refresh_timer

-- What statusline() and winbar() show of `ctx`: a redraw is needed only when this changes.
local function summary(ctx)
  if not ctx then
    return ''
  end
  return vim.inspect({ ctx.symbols and ctx.symbols.scopeHierarchy, ctx.file and (ctx.file.name or ctx.file.path) })
end

--- Asks Locus for the context of `bufnr` (default: the current buffer) at its cursor, stores
--- it for statusline() and winbar(), and redraws the status lines when it changed.
function M.refresh(bufnr)
  bufnr = bufnr or api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client or not client.initialized then
    return
  end
  local seq = (state.context_seq[bufnr] or 0) + 1
  state.context_seq[bufnr] = seq
  client:request('locus/getContext', { textDocument = { uri = M.uri(bufnr) } }, function(err, result)
    if state.context_seq[bufnr] ~= seq or not api.nvim_buf_is_valid(bufnr) then
      return
    end
    local ctx = (not err and result ~= vim.NIL) and result or nil
    local before = summary(state.contexts[bufnr])
    state.contexts[bufnr] = ctx
    if summary(ctx) ~= before then
      vim.cmd('redrawstatus!')
    end
  end, bufnr)
end

local function schedule_refresh()
  if not M.config.statusline then
    return
  end
  refresh_timer = refresh_timer or assert(vim.uv.new_timer())
  refresh_timer:stop()
  refresh_timer:start(M.config.refresh_debounce, 0, vim.schedule_wrap(function()
    M.refresh()
  end))
end

-- The buffer of the window whose statusline or winbar is being drawn.
local function drawn_buf()
  local win = vim.g.statusline_winid
  if type(win) == 'number' and api.nvim_win_is_valid(win) then
    return api.nvim_win_get_buf(win)
  end
  return api.nvim_get_current_buf()
end

--- The editorContext last seen for `bufnr` (default: the current buffer), or nil.
function M.last_context(bufnr)
  return state.contexts[bufnr or api.nvim_get_current_buf()]
end

--- The scope chain at the cursor, for a statusline, e.g. `Class:UserService > Method:findUser`
--- (`%{v:lua.require'locus'.statusline()}`).
function M.statusline()
  local ctx = state.contexts[drawn_buf()]
  return ctx and ctx.symbols and ctx.symbols.scopeHierarchy or ''
end

--- Breadcrumbs for a winbar: the file's name and the names of the scopes around the cursor,
--- e.g. `greeter.py › Greeter › greet` (`%{v:lua.require'locus'.winbar()}`); empty when Locus
--- does not know the buffer.
function M.winbar()
  local bufnr = drawn_buf()
  local ctx = state.contexts[bufnr]
  if not ctx then
    return ''
  end
  local parts = { ctx.file and (ctx.file.name or (ctx.file.path and vim.fs.basename(ctx.file.path))) or '' }
  for _, scope in ipairs(ctx.symbols and ctx.symbols.containingScopes or {}) do
    table.insert(parts, scope.name)
  end
  return table.concat(parts, ' › ')
end

--- Asks Locus for the editorContext of the active editor; `callback(ctx)` gets it (or nil).
function M.context(callback, bufnr)
  local client = M.client(bufnr or api.nvim_get_current_buf()) or M.client()
  if not client then
    return callback(nil)
  end
  client:request('locus/getContext', vim.empty_dict(), function(err, result)
    callback(not err and result ~= vim.NIL and result or nil)
  end)
end

--- Why `cmd` cannot start, or nil when it can (a function cmd is trusted).
function M.cmd_problem(cmd)
  cmd = cmd or M.config.cmd
  if type(cmd) ~= 'table' then
    return nil
  end
  local bin = cmd[1]
  if type(bin) ~= 'string' or bin == '' then
    return 'cmd[1] is not a program name'
  end
  if vim.fn.executable(bin) == 1 then
    return nil
  end
  if bin:find('/', 1, true) and vim.uv.fs_stat(bin) then
    return ('`%s` is not executable'):format(bin)
  end
  return ('`%s` is not executable (not found%s)'):format(bin, bin:find('/', 1, true) and '' or ' in $PATH')
end

-- Turns the client on unless its command cannot run, which it says with a visible warning.
local function enable()
  local problem = M.cmd_problem()
  if problem then
    state.disabled = problem
    vim.notify(
      ('locus: %s, so Locus is off. Install it (`cargo install --path crates/locus-server`) or '
        .. "give its path: require('locus').setup({ cmd = { '/path/to/locus', 'lsp' } }). "
        .. 'See :checkhealth locus'):format(problem),
      vim.log.levels.WARN
    )
    return false
  end
  state.disabled = nil
  vim.lsp.enable(M.config.name)
  return true
end

--- Stops the locus clients and starts them again for the open buffers.
function M.restart()
  local old = clients()
  for _, c in ipairs(old) do
    state.stopping[c.id] = true
    c:stop()
  end
  vim.wait(3000, function()
    for _, c in ipairs(old) do
      if not c:is_stopped() then
        return false
      end
    end
    return true
  end, 20)
  for _, c in ipairs(old) do
    if not c:is_stopped() then
      c:stop(true)
    end
  end
  state.cursor_sent, state.active_sent, state.last_editor, state.mcp = {}, {}, {}, {}
  for _, u in pairs(state.untitled) do
    u.clients = {}
  end
  if not state.setup_done then
    return false
  end
  if not enable() then
    return false
  end
  if next(state.untitled) then
    ensure_client()
  end
  return true
end

local function relative(path)
  return vim.fn.fnamemodify(path, ':~:.')
end

local function where(ctx)
  local f = ctx.file or {}
  local name = f.path and relative(f.path) or f.name or '?'
  return ('%s:%d'):format(name, ctx.cursor and ctx.cursor.line or 0)
end

--- The text `:Locus` prints: the scope chain at the cursor and file:line. From a window that
--- is not a text editor (a `:terminal`, help), the active editor's, as agents see it.
function M.describe(bufnr)
  bufnr = bufnr or api.nvim_get_current_buf()
  local client = M.client(bufnr)
  local params = { textDocument = { uri = M.uri(bufnr) } }
  if not client then
    if state.disabled then
      return nil, 'locus: ' .. state.disabled .. ' (see :checkhealth locus)'
    end
    client = M.client()
    if not client then
      return nil, 'locus: no server is running: open a file (see :checkhealth locus)'
    end
    params = vim.empty_dict()
  elseif bufnr == api.nvim_get_current_buf() then
    M.send_cursor()
  end
  local r = client:request_sync('locus/getContext', params, 5000, bufnr)
  if not r or r.err then
    return nil, 'locus: no context: ' .. vim.inspect(r and r.err or 'timeout')
  end
  local ctx = r.result
  if ctx == vim.NIL or ctx == nil then
    return nil, 'locus: no text editor is active'
  end
  if params.textDocument then
    state.contexts[bufnr] = ctx
  end
  local chain = ctx.symbols and ctx.symbols.scopeHierarchy or ''
  if chain == '' then
    chain = '(top level)'
  end
  return chain .. '  ' .. where(ctx) .. (ctx.focused == false and '  (not focused)' or '')
end

-- The discovery files of the `locus lsp` processes this Neovim started (`{path, record}`),
-- read from the directory `locus lsp` writes them to.
function M.discovery_dir()
  local function env(k)
    local v = vim.env[k]
    return v ~= nil and v ~= '' and v or nil
  end
  if env('XDG_RUNTIME_DIR') then
    return vim.fs.joinpath(env('XDG_RUNTIME_DIR'), 'locus')
  elseif env('XDG_CACHE_HOME') then
    return vim.fs.joinpath(env('XDG_CACHE_HOME'), 'locus')
  elseif env('HOME') then
    return vim.fs.joinpath(env('HOME'), '.cache', 'locus')
  end
  return vim.fs.joinpath(vim.uv.os_tmpdir(), 'locus')
end

--- The discovery record of `client`'s `locus lsp` (its `<pid>.json`: `{pid, url, ...}`) and the
--- file's path, found among the files of processes whose parent is this Neovim, by workspace
--- folders; nil when there is none.
function M.discovery(client)
  local dir = M.discovery_dir()
  local mine = vim.fn.getpid()
  local folders = {}
  for _, f in ipairs(client and client.workspace_folders or {}) do
    folders[vim.uri_to_fname(f.uri)] = true
  end
  local found
  for name, kind in vim.fs.dir(dir) do
    local pid = tonumber(name:match('^(%d+)%.json$'))
    if kind == 'file' and pid then
      local okp, proc = pcall(api.nvim_get_proc, pid)
      if okp and type(proc) == 'table' and proc.ppid == mine then
        local path = vim.fs.joinpath(dir, name)
        local okf, lines = pcall(vim.fn.readfile, path)
        local okj, record = pcall(vim.json.decode, okf and table.concat(lines, '\n') or '')
        if okj and type(record) == 'table' then
          local match = next(folders) == nil
          for _, f in ipairs(type(record.workspaceFolders) == 'table' and record.workspaceFolders or {}) do
            local p = type(f) == 'table' and (f.path or (f.uri and vim.uri_to_fname(f.uri))) or f
            if type(p) == 'string' and folders[p] then
              match = true
            end
          end
          if match or not found then
            found = { path = path, record = record }
          end
          if match then
            break
          end
        end
      end
    end
  end
  return found
end

--- Whether the client was started with `--no-mcp`.
function M.mcp_disabled(client)
  local cmd = client and client.config.cmd or M.config.cmd
  return type(cmd) == 'table' and vim.tbl_contains(cmd, '--no-mcp')
end

--- The last locus/mcpStatus Locus sent this client, if any.
function M.mcp_status(client)
  return state.mcp[client.id]
end

--- The lines `:Locus status` prints.
function M.status_lines()
  local lines = {}
  if state.disabled then
    table.insert(lines, 'locus: off: ' .. state.disabled)
  end
  local all = clients()
  if #all == 0 then
    table.insert(lines, 'locus: no server running (it starts with the first file you open)')
  end
  for _, c in ipairs(all) do
    local folders = {}
    for _, f in ipairs(c.workspace_folders or {}) do
      table.insert(folders, relative(vim.uri_to_fname(f.uri)))
    end
    local bufs = vim.tbl_count(c.attached_buffers or {})
    for _, u in pairs(state.untitled) do
      if u.clients[c.id] then
        bufs = bufs + 1
      end
    end
    local info = c.server_info or {}
    table.insert(lines, ('locus: client %d, %s %s, %s, %d buffer%s, workspace %s'):format(
      c.id,
      info.name or 'locus',
      info.version or '',
      c.offset_encoding,
      bufs,
      bufs == 1 and '' or 's',
      #folders > 0 and table.concat(folders, ', ') or '(none)'
    ))
    local mcp = state.mcp[c.id]
    local disc = M.discovery(c)
    if M.mcp_disabled(c) then
      table.insert(lines, '  MCP: off (--no-mcp)')
    elseif mcp and mcp.state ~= 'listening' then
      table.insert(lines, ('  MCP: %s%s'):format(mcp.state, mcp.message and (': ' .. mcp.message) or ''))
    elseif disc then
      table.insert(lines, ('  MCP: %s (%s)'):format(disc.record.url or '?', disc.path))
    elseif mcp then
      table.insert(lines, '  MCP: ' .. (mcp.url or 'listening'))
    else
      table.insert(lines, '  MCP: no discovery file found in ' .. M.discovery_dir())
    end
    local r = c.initialized and c:request_sync('locus/getContext', vim.empty_dict(), 3000) or nil
    local ctx = r and not r.err and r.result ~= vim.NIL and r.result or nil
    if ctx then
      table.insert(lines, ('  active editor: %s%s'):format(where(ctx), ctx.focused == false and ' (not focused)' or ''))
    else
      table.insert(lines, '  active editor: none')
    end
  end
  return lines
end

local function echo(lines, hl)
  local chunks = {}
  for i, l in ipairs(lines) do
    table.insert(chunks, { l .. (i < #lines and '\n' or ''), hl })
  end
  api.nvim_echo(chunks, true, {})
end

local subcommands = {
  status = function()
    echo(M.status_lines())
  end,
  restart = function()
    if M.restart() then
      echo({ 'locus: restarted' })
    end
  end,
}

local function command(opts)
  local sub = opts.fargs[1]
  if not sub then
    local text, err = M.describe()
    if text then
      echo({ text })
    else
      echo({ err }, 'WarningMsg')
    end
    return
  end
  local f = subcommands[sub]
  if not f then
    echo({ ('locus: unknown subcommand `%s` (status, restart)'):format(sub) }, 'ErrorMsg')
    return
  end
  f()
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  state.setup_done = true
  vim.lsp.config(M.config.name, {
    cmd = M.config.cmd,
    filetypes = M.config.filetypes,
    root_markers = M.config.root_markers,
    -- Unnamed buffers are mirrored by the plugin as `untitled:` documents (above): Neovim
    -- would name them all `file://`.
    root_dir = function(bufnr, on_dir)
      if api.nvim_buf_get_name(bufnr) ~= '' then
        on_dir(vim.fs.root(bufnr, M.config.root_markers))
      end
    end,
    -- Tells Locus that this editor reports its cursor itself.
    capabilities = { experimental = { locus = { cursor = true, activeEditor = true, symbols = true } } },
    -- The editor actions Neovim does for agents (locus/editorAction).
    init_options = { editorActions = M.config.actions and require('locus.actions').declared or {} },
    -- Send edits at once, so a cursor notification never overtakes the edit before it.
    flags = { debounce_text_changes = 0 },
    handlers = {
      ['locus/mcpStatus'] = function(_, result, ctx)
        state.mcp[ctx.client_id] = result
      end,
      ['locus/editorAction'] = function(...)
        return require('locus.actions').handler(...)
      end,
    },
    on_init = function(client)
      for bufnr in pairs(state.untitled) do
        untitled_open_on(client, bufnr)
      end
      vim.schedule(function()
        M.send_active()
        M.send_cursor()
      end)
    end,
    on_exit = function(code, signal, client_id)
      state.cursor_sent[client_id], state.active_sent[client_id] = nil, nil
      state.last_editor[client_id], state.mcp[client_id] = nil, nil
      local expected = state.stopping[client_id]
      state.stopping[client_id] = nil
      if (code ~= 0 or signal ~= 0) and not expected and vim.v.exiting == vim.NIL then
        vim.schedule(function()
          vim.notify(
            ('locus: `locus lsp` exited (code %d, signal %d); see :LspLog, then :Locus restart'):format(code, signal),
            vim.log.levels.WARN
          )
        end)
      end
    end,
  })
  enable()

  api.nvim_create_user_command('Locus', command, {
    nargs = '?',
    complete = function(lead)
      return vim.tbl_filter(function(s)
        return s:find(lead, 1, true) == 1
      end, vim.tbl_keys(subcommands))
    end,
    desc = 'Locus: the scope chain at the cursor; `status`; `restart`',
  })

  api.nvim_clear_autocmds({ group = group })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'ModeChanged' }, {
    group = group,
    callback = function()
      M.send_cursor()
      schedule_refresh()
    end,
  })
  api.nvim_create_autocmd({ 'BufEnter', 'WinEnter' }, {
    group = group,
    callback = function(args)
      if vim.bo[args.buf].buftype == '' and api.nvim_buf_get_name(args.buf) ~= 'health://' then
        state.last_buf = args.buf
      end
      untitled_watch(args.buf)
      untitled_sync(args.buf)
      attach_plain(args.buf)
      M.send_active()
      M.send_cursor()
      schedule_refresh()
    end,
  })
  api.nvim_create_autocmd({ 'FocusGained', 'FocusLost' }, {
    group = group,
    callback = function(args)
      state.focused = args.event == 'FocusGained'
      M.send_active()
      M.send_cursor()
    end,
  })
  -- A window closed or a buffer went away: the kept text editor may have gone with it.
  api.nvim_create_autocmd({ 'WinClosed', 'BufDelete', 'BufWipeout', 'BufUnload' }, {
    group = group,
    callback = function(args)
      if args.event ~= 'WinClosed' then
        untitled_close(args.buf)
      end
      vim.schedule(M.send_active)
    end,
  })
  -- An unnamed buffer got a name (`:w name`) or a filetype.
  api.nvim_create_autocmd({ 'BufFilePost', 'FileType', 'BufReadPost' }, {
    group = group,
    callback = function(args)
      untitled_update(args.buf)
    end,
  })
  api.nvim_create_autocmd('LspAttach', {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if not client then
        return
      end
      if client.name == M.config.name and args.buf == api.nvim_get_current_buf() then
        M.send_active()
        M.send_cursor()
        schedule_refresh()
      end
      schedule_symbols(args.buf)
    end,
  })
  api.nvim_create_autocmd({ 'TextChanged', 'InsertLeave' }, {
    group = group,
    callback = function(args)
      schedule_symbols(args.buf)
      schedule_refresh()
    end,
  })
  api.nvim_create_autocmd('BufDelete', {
    group = group,
    callback = function(args)
      local timer = symbol_timers[args.buf]
      if timer then
        timer:stop()
        timer:close()
        symbol_timers[args.buf] = nil
      end
      state.contexts[args.buf] = nil
      state.context_seq[args.buf] = nil
    end,
  })

  -- Buffers that exist already (setup() after start-up, or called again).
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    untitled_watch(bufnr)
    untitled_sync(bufnr)
  end
end

return M
