-- Locus for Neovim 0.11+: starts `locus lsp` beside your language servers and tells it where
-- you are: the cursor and selection (CursorMoved, ModeChanged), the text editor you are in and
-- whether it has focus (BufEnter, WinEnter, FocusGained, FocusLost), unnamed buffers (`:enew`)
-- as `untitled:` documents, and the symbols your other language servers compute.
--
--   require('locus').setup()                      -- defaults: lua/locus/config.lua
--   require('locus').setup({ cmd = { '/path/to/locus', 'lsp', '--no-mcp' } })
--
-- Components: `require('locus').statusline()` (the scope chain, e.g.
-- `Class:Greeter > Method:greet`) and `require('locus').winbar()` (breadcrumbs,
-- `greeter.py › Greeter › greet`); both refresh shortly after the cursor moves.
-- Agents can ask Neovim to rename symbols and files, open a file and list the problems it shows
-- (editor actions, lua/locus/actions.lua; `actions = false` turns them off).
-- Commands: `:Locus` (scope chain and file:line), `:Locus status`, `:Locus restart`;
-- `:checkhealth locus` checks the set-up. `:help locus` tells it all.
--
-- This file owns setup() and the public API, and wires the modules together: the editor events
-- each one reacts to, and what one does when another's state changes.

local api = vim.api
local commands = require('locus.commands')
local config = require('locus.config')
local cursor = require('locus.cursor')
local discovery = require('locus.discovery')
local mirror = require('locus.mirror')
local status = require('locus.status')
local symbols = require('locus.symbols')

---@class locus
local M = {}

--- The options in force (lua/locus/config.lua).
M.config = config.options

-- What :checkhealth locus reads (lua/locus/health.lua): `setup_done` and `disabled` from the
-- server's state, and `last_buf`, the last normal buffer the user entered.
M._state = setmetatable({ last_buf = nil }, { __index = discovery.state })

M.client = mirror.client
M.uri = mirror.uri
M.send_cursor = cursor.send_cursor
M.send_active = cursor.send_active
M.send_symbols = symbols.send
M.refresh = status.refresh
M.last_context = status.last_context
M.statusline = status.statusline
M.winbar = status.winbar
M.context = status.context
M.describe = status.describe
M.status_lines = status.status_lines
M.cmd_problem = discovery.cmd_problem
M.discovery_dir = discovery.discovery_dir
M.discovery = discovery.discovery
M.mcp_disabled = discovery.mcp_disabled
M.mcp_status = discovery.mcp_status

local group = api.nvim_create_augroup('locus', { clear = true })

-- Tells Locus where the user is now (the active editor, then its cursor).
local function send_where()
  cursor.send_active()
  cursor.send_cursor()
end

mirror.events = {
  changed = send_where,
  detached = cursor.send_active,
  closed = status.drop,
}

--- Stops the locus clients and starts them again for the open buffers.
---@return boolean restarted false when Locus is off (setup() not called, or `cmd` cannot run).
function M.restart()
  discovery.stop()
  cursor.reset()
  mirror.forget_clients()
  if not discovery.state.setup_done then
    return false
  end
  if not discovery.enable() then
    return false
  end
  if mirror.any() then
    discovery.ensure_client()
  end
  return true
end

-- The editor events and what each module does on them, in this order.
local function create_autocmds()
  api.nvim_clear_autocmds({ group = group })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'ModeChanged' }, {
    group = group,
    callback = function()
      cursor.send_cursor()
      status.schedule()
    end,
  })
  api.nvim_create_autocmd({ 'BufEnter', 'WinEnter' }, {
    group = group,
    callback = function(args)
      if vim.bo[args.buf].buftype == '' and api.nvim_buf_get_name(args.buf) ~= 'health://' then
        M._state.last_buf = args.buf
      end
      mirror.watch(args.buf)
      mirror.sync(args.buf)
      discovery.attach_plain(args.buf)
      send_where()
      status.schedule()
    end,
  })
  api.nvim_create_autocmd({ 'FocusGained', 'FocusLost' }, {
    group = group,
    callback = function(args)
      cursor.set_focused(args.event == 'FocusGained')
      send_where()
    end,
  })
  -- A window closed or a buffer went away: the kept text editor may have gone with it.
  api.nvim_create_autocmd({ 'WinClosed', 'BufDelete', 'BufWipeout', 'BufUnload' }, {
    group = group,
    callback = function(args)
      if args.event ~= 'WinClosed' then
        mirror.close(args.buf)
      end
      vim.schedule(cursor.send_active)
    end,
  })
  -- An unnamed buffer got a name (`:w name`) or a filetype.
  api.nvim_create_autocmd({ 'BufFilePost', 'FileType', 'BufReadPost' }, {
    group = group,
    callback = function(args)
      mirror.update(args.buf)
    end,
  })
  api.nvim_create_autocmd('LspAttach', {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if not client then
        return
      end
      if client.name == config.options.name and args.buf == api.nvim_get_current_buf() then
        send_where()
        status.schedule()
      end
      symbols.schedule(args.buf)
    end,
  })
  api.nvim_create_autocmd({ 'TextChanged', 'InsertLeave' }, {
    group = group,
    callback = function(args)
      symbols.schedule(args.buf)
      status.schedule()
    end,
  })
  api.nvim_create_autocmd('BufDelete', {
    group = group,
    callback = function(args)
      symbols.forget(args.buf)
      status.forget(args.buf)
    end,
  })
end

--- Applies `opts` over the options in force, configures and enables the locus client (unless
--- `cmd` cannot run, which a warning says), defines `:Locus` and starts following the editor.
--- Calling it again applies the new options over the old ones.
---@param opts? locus.Opts
function M.setup(opts)
  config.apply(opts)
  discovery.state.setup_done = true
  discovery.configure({
    on_init = function(client)
      mirror.open_all(client)
      vim.schedule(send_where)
    end,
    on_exit = cursor.forget,
  })
  discovery.enable()
  commands.create()
  create_autocmds()
  -- Buffers that exist already (setup() after start-up, or called again).
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    mirror.watch(bufnr)
    mirror.sync(bufnr)
  end
end

return M
