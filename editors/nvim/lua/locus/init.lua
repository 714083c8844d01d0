-- Locus for Neovim 0.11+: starts `locus lsp` beside your language servers and tells it where
-- you are: the cursor and selection (CursorMoved, ModeChanged), the focused buffer (BufEnter,
-- FocusGained, FocusLost) and the symbols your other language servers compute.
--
--   require('locus').setup()                      -- defaults below
--   require('locus').setup({ cmd = { '/path/to/locus', 'lsp', '--no-mcp' } })
--
-- `require('locus').context(cb)` asks for the editorContext (for statuslines);
-- `require('locus').statusline()` returns the last scope chain it saw.

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
  -- Refresh the statusline scope on CursorHold.
  statusline = true,
}

local group = api.nvim_create_augroup('locus', { clear = true })
local last_sent = {}
local scope_cache = {}

--- The running locus client attached to `bufnr` (or any, when `bufnr` is nil).
function M.client(bufnr)
  return vim.lsp.get_clients({ name = M.config.name, bufnr = bufnr })[1]
end

local function version_of(bufnr)
  return vim.lsp.util.buf_versions[bufnr]
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

--- Sends the cursor (and selection) of the current window's buffer.
function M.send_cursor()
  local bufnr = api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return
  end
  local enc = client.offset_encoding
  local cursor = api.nvim_win_get_cursor(0)
  local row = cursor[1] - 1
  local position = { line = row, character = character(bufnr, row, cursor[2], enc) }
  local sel = selection(bufnr, enc)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version_of(bufnr) },
    position = position,
    selections = sel and { sel } or nil,
  }
  local key = vim.inspect({ params.textDocument.uri, params.textDocument.version, position, sel })
  if last_sent[client.id] == key then
    return
  end
  last_sent[client.id] = key
  client:notify('locus/didChangeCursor', params)
end

--- Says which buffer has focus (`nil`: none, e.g. when Neovim loses focus).
function M.send_active(bufnr)
  for _, client in ipairs(vim.lsp.get_clients({ name = M.config.name })) do
    local doc = vim.NIL
    if bufnr and vim.lsp.buf_is_attached(bufnr, client.id) then
      doc = { uri = vim.uri_from_bufnr(bufnr) }
    end
    client:notify('locus/didChangeActiveEditor', { textDocument = doc })
    last_sent[client.id] = nil
  end
end

local symbol_timers = {}

--- Asks the buffer's other language servers for document symbols and forwards them.
function M.send_symbols(bufnr)
  local locus = M.client(bufnr)
  if not locus or not api.nvim_buf_is_valid(bufnr) then
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

--- Asks Locus for the editorContext of the active editor; `callback(ctx)` gets it (or nil).
function M.context(callback, bufnr)
  local client = M.client(bufnr or api.nvim_get_current_buf())
  if not client then
    return callback(nil)
  end
  client:request('locus/getContext', vim.empty_dict(), function(err, result)
    callback(not err and result ~= vim.NIL and result or nil)
  end)
end

--- The scope chain last seen for the current buffer (for a statusline), e.g.
--- `Class:UserService > Method:findUser`.
function M.statusline()
  return scope_cache[api.nvim_get_current_buf()] or ''
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  vim.lsp.config(M.config.name, {
    cmd = M.config.cmd,
    filetypes = M.config.filetypes,
    root_markers = M.config.root_markers,
    -- Tells Locus that this editor reports its cursor itself.
    capabilities = { experimental = { locus = { cursor = true, activeEditor = true, symbols = true } } },
    -- Send edits at once, so a cursor notification never overtakes the edit before it.
    flags = { debounce_text_changes = 0 },
  })
  vim.lsp.enable(M.config.name)

  api.nvim_clear_autocmds({ group = group })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'ModeChanged' }, {
    group = group,
    callback = function()
      M.send_cursor()
    end,
  })
  api.nvim_create_autocmd({ 'BufEnter', 'WinEnter', 'FocusGained' }, {
    group = group,
    callback = function(args)
      M.send_active(args.buf)
      M.send_cursor()
    end,
  })
  api.nvim_create_autocmd('FocusLost', {
    group = group,
    callback = function()
      M.send_active(nil)
    end,
  })
  api.nvim_create_autocmd('LspAttach', {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if not client then
        return
      end
      if client.name == M.config.name then
        if args.buf == api.nvim_get_current_buf() then
          M.send_active(args.buf)
          M.send_cursor()
        end
      end
      schedule_symbols(args.buf)
    end,
  })
  api.nvim_create_autocmd({ 'TextChanged', 'InsertLeave' }, {
    group = group,
    callback = function(args)
      schedule_symbols(args.buf)
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
      scope_cache[args.buf] = nil
    end,
  })
  if M.config.statusline then
    api.nvim_create_autocmd('CursorHold', {
      group = group,
      callback = function(args)
        M.context(function(ctx)
          scope_cache[args.buf] = ctx and ctx.symbols and ctx.symbols.scopeHierarchy or nil
        end, args.buf)
      end,
    })
  end
end

return M
