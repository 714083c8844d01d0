-- What the plugin shows of Locus: the context at the cursor, asked for `refresh_debounce` ms
-- after the cursor rests and kept per buffer for statusline() and winbar() (the status lines
-- are redrawn when an answer changes what they show); the text of `:Locus` and the lines of
-- `:Locus status`.

local M = {}

local api = vim.api
local config = require('locus.config')
local cursor = require('locus.cursor')
local discovery = require('locus.discovery')
local mirror = require('locus.mirror')

-- Buffer -> the last editorContext Locus gave for it (statusline, winbar).
local contexts = {}
-- Buffer -> number of the latest context request, so an older answer never wins.
local context_seq = {}

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
---@param bufnr? integer
function M.refresh(bufnr)
  bufnr = bufnr or api.nvim_get_current_buf()
  local client = mirror.client(bufnr)
  if not client or not client.initialized then
    return
  end
  local seq = (context_seq[bufnr] or 0) + 1
  context_seq[bufnr] = seq
  client:request('locus/getContext', { textDocument = { uri = mirror.uri(bufnr) } }, function(err, result)
    if context_seq[bufnr] ~= seq or not api.nvim_buf_is_valid(bufnr) then
      return
    end
    local ctx = (not err and result ~= vim.NIL) and result or nil
    local before = summary(contexts[bufnr])
    contexts[bufnr] = ctx
    if summary(ctx) ~= before then
      vim.cmd('redrawstatus!')
    end
  end, bufnr)
end

--- Refreshes the current buffer's context after `refresh_debounce` ms of quiet (when
--- `statusline` is on).
function M.schedule()
  if not config.options.statusline then
    return
  end
  refresh_timer = refresh_timer or assert(vim.uv.new_timer())
  refresh_timer:stop()
  refresh_timer:start(config.options.refresh_debounce, 0, vim.schedule_wrap(function()
    M.refresh()
  end))
end

--- Forgets the context kept for `bufnr` (its mirror closed).
---@param bufnr integer
function M.drop(bufnr)
  contexts[bufnr] = nil
end

--- Forgets everything kept for `bufnr` (the buffer was deleted).
---@param bufnr integer
function M.forget(bufnr)
  contexts[bufnr] = nil
  context_seq[bufnr] = nil
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
---@param bufnr? integer
---@return table?
function M.last_context(bufnr)
  return contexts[bufnr or api.nvim_get_current_buf()]
end

--- The scope chain at the cursor, for a statusline, e.g. `Class:UserService > Method:findUser`
--- (`%{v:lua.require'locus'.statusline()}`).
---@return string
function M.statusline()
  local ctx = contexts[drawn_buf()]
  return ctx and ctx.symbols and ctx.symbols.scopeHierarchy or ''
end

--- Breadcrumbs for a winbar: the file's name and the names of the scopes around the cursor,
--- e.g. `greeter.py › Greeter › greet` (`%{v:lua.require'locus'.winbar()}`); empty when Locus
--- does not know the buffer.
---@return string
function M.winbar()
  local bufnr = drawn_buf()
  local ctx = contexts[bufnr]
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
---@param callback fun(ctx: table?)
---@param bufnr? integer Whose locus client to ask (default: the current buffer's, else any).
function M.context(callback, bufnr)
  local client = mirror.client(bufnr or api.nvim_get_current_buf()) or mirror.client()
  if not client then
    return callback(nil)
  end
  client:request('locus/getContext', vim.empty_dict(), function(err, result)
    callback(not err and result ~= vim.NIL and result or nil)
  end)
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
---@param bufnr? integer Default: the current buffer.
---@return string? text
---@return string? err Why there is no text.
function M.describe(bufnr)
  bufnr = bufnr or api.nvim_get_current_buf()
  local client = mirror.client(bufnr)
  local params = { textDocument = { uri = mirror.uri(bufnr) } }
  if not client then
    if discovery.state.disabled then
      return nil, 'locus: ' .. discovery.state.disabled .. ' (see :checkhealth locus)'
    end
    client = mirror.client()
    if not client then
      return nil, 'locus: no server is running: open a file (see :checkhealth locus)'
    end
    params = vim.empty_dict()
  elseif bufnr == api.nvim_get_current_buf() then
    cursor.send_cursor()
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
    contexts[bufnr] = ctx
  end
  local chain = ctx.symbols and ctx.symbols.scopeHierarchy or ''
  if chain == '' then
    chain = '(top level)'
  end
  return chain .. '  ' .. where(ctx) .. (ctx.focused == false and '  (not focused)' or '')
end

--- The lines `:Locus status` prints: each locus client with its version, encoding, buffers and
--- workspace, its MCP sidecar and discovery file, and the active editor as agents see it.
---@return string[]
function M.status_lines()
  local lines = {}
  if discovery.state.disabled then
    table.insert(lines, 'locus: off: ' .. discovery.state.disabled)
  end
  local all = discovery.clients()
  if #all == 0 then
    table.insert(lines, 'locus: no server running (it starts with the first file you open)')
  end
  for _, c in ipairs(all) do
    local folders = {}
    for _, f in ipairs(c.workspace_folders or {}) do
      table.insert(folders, relative(vim.uri_to_fname(f.uri)))
    end
    local bufs = vim.tbl_count(c.attached_buffers or {}) + mirror.count(c)
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
    local mcp = discovery.mcp_status(c)
    local disc = discovery.discovery(c)
    if discovery.mcp_disabled(c) then
      table.insert(lines, '  MCP: off (--no-mcp)')
    elseif mcp and mcp.state ~= 'listening' then
      table.insert(lines, ('  MCP: %s%s'):format(mcp.state, mcp.message and (': ' .. mcp.message) or ''))
    elseif disc then
      table.insert(lines, ('  MCP: %s (%s)'):format(disc.record.url or '?', disc.path))
    elseif mcp then
      table.insert(lines, '  MCP: ' .. (mcp.url or 'listening'))
    else
      table.insert(lines, '  MCP: no discovery file found in ' .. discovery.discovery_dir())
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

return M
