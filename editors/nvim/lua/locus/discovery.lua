-- The `locus lsp` server: finding the locus clients that run, checking that the command can
-- start, the client's vim.lsp configuration, starting it (also where Neovim's LSP client does
-- not) and stopping it, and how agents reach it: the locus/mcpStatus it sends and the discovery
-- file it writes.

local M = {}

local api = vim.api
local config = require('locus.config')

---@class locus.ServerState
---@field setup_done boolean Whether setup() ran.
---@field disabled? string Why Locus is off, when it is.
---@field stopping table<integer, true> Client ids being stopped on purpose (their exit is no surprise).
---@field mcp table<integer, table> Client id -> the params of its last locus/mcpStatus.

---@type locus.ServerState
M.state = {
  setup_done = false,
  disabled = nil,
  stopping = {},
  mcp = {},
}

--- The running locus clients (all of them, or those attached to `bufnr`).
---@param bufnr? integer
---@return vim.lsp.Client[]
function M.clients(bufnr)
  return vim.lsp.get_clients({ name = config.options.name, bufnr = bufnr })
end

--- Why `cmd` (default: the `cmd` option) cannot start, or nil when it can (a function cmd is
--- trusted).
---@param cmd? string[]|function
---@return string?
function M.cmd_problem(cmd)
  cmd = cmd or config.options.cmd
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

--- The command that starts `locus lsp`: the `cmd` option, with `--tools` from the `tools`
--- option when `cmd` is a list (a function cmd starts what it likes).
---@param opts locus.Config
---@return string[]|function
function M.command(opts)
  local cmd, tools = opts.cmd, opts.tools
  if type(cmd) ~= 'table' or tools == nil or #tools == 0 then
    return cmd
  end
  for _, item in ipairs(tools) do
    if type(item) ~= 'string' or not item:match('^[+-]?[a-z][a-z_]*$') then
      vim.notify(
        ('locus: the `tools` option takes families (editor, symbol, dialog, debug, system) and tool names, '
          .. "'-name' to remove one, not %s; offering every tool"):format(vim.inspect(item)),
        vim.log.levels.WARN
      )
      return cmd
    end
  end
  local full = vim.list_extend({}, cmd)
  vim.list_extend(full, { '--tools', table.concat(tools, ',') })
  return full
end

---@class locus.ServerEvents
---@field on_init fun(client: vim.lsp.Client) A client answered initialize.
---@field on_exit fun(client_id: integer) A client's process ended.

--- Gives vim.lsp the locus client's configuration from the options in force; `events` are what
--- the other modules do when a client starts or ends.
---@param events locus.ServerEvents
function M.configure(events)
  local opts = config.options
  vim.lsp.config(opts.name, {
    cmd = M.command(opts),
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    -- Unnamed buffers are mirrored by the plugin as `untitled:` documents (lua/locus/mirror.lua):
    -- Neovim would name them all `file://`.
    root_dir = function(bufnr, on_dir)
      if api.nvim_buf_get_name(bufnr) ~= '' then
        on_dir(vim.fs.root(bufnr, config.options.root_markers))
      end
    end,
    -- Tells Locus that this editor reports its cursor itself.
    capabilities = { experimental = { locus = { cursor = true, activeEditor = true, symbols = true } } },
    -- The editor actions Neovim does for agents (locus/editorAction).
    init_options = { editorActions = opts.actions and require('locus.actions').declared or {} },
    -- Send edits at once, so a cursor notification never overtakes the edit before it.
    flags = { debounce_text_changes = 0 },
    handlers = {
      ['locus/mcpStatus'] = function(_, result, ctx)
        M.state.mcp[ctx.client_id] = result
        M.name_channels(result)
      end,
      ['locus/editorAction'] = function(...)
        return require('locus.actions').handler(...)
      end,
    },
    on_init = function(client)
      events.on_init(client)
    end,
    on_exit = function(code, signal, client_id)
      events.on_exit(client_id)
      M.state.mcp[client_id] = nil
      local expected = M.state.stopping[client_id]
      M.state.stopping[client_id] = nil
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
end

--- Turns the client on unless its command cannot run, which it says with a visible warning.
---@return boolean enabled
function M.enable()
  local problem = M.cmd_problem()
  if problem then
    M.state.disabled = problem
    vim.notify(
      ('locus: %s, so Locus is off. Install it (`cargo install --path crates/locus-server`) or '
        .. "give its path: require('locus').setup({ cmd = { '/path/to/locus', 'lsp' } }). "
        .. 'See :checkhealth locus'):format(problem),
      vim.log.levels.WARN
    )
    return false
  end
  M.state.disabled = nil
  vim.lsp.enable(config.options.name)
  return true
end

--- Starts a locus client for unnamed buffers when none runs (rooted where Neovim runs).
--- `_uninitialized` (Neovim 0.11's own filter, private) counts a client still starting, which
--- opens the unnamed buffers in its on_init; were it to go away, a rare second client is all.
function M.ensure_client()
  local any = vim.lsp.get_clients({ name = config.options.name, _uninitialized = true })
  if #any > 0 or M.state.disabled or not M.state.setup_done then
    return
  end
  local cfg = vim.deepcopy(vim.lsp.config[config.options.name])
  local cwd = vim.fn.getcwd()
  cfg.root_dir = vim.fs.root(cwd, config.options.root_markers) or cwd
  vim.lsp.start(cfg, { attach = false })
end

--- Files with no filetype (`LICENSE`, `notes`): Neovim's LSP client starts servers on FileType,
--- which such a file never gets, so with `filetypes = nil` (every file) the plugin attaches
--- Locus itself when the buffer is entered.
---@param bufnr integer
function M.attach_plain(bufnr)
  if
    config.options.filetypes ~= nil
    or M.state.disabled
    or not M.state.setup_done
    or not api.nvim_buf_is_loaded(bufnr)
    or vim.bo[bufnr].buftype ~= ''
    or vim.bo[bufnr].filetype ~= ''
    or api.nvim_buf_get_name(bufnr) == ''
    or #M.clients(bufnr) > 0
  then
    return
  end
  local cfg = vim.deepcopy(vim.lsp.config[config.options.name])
  cfg.root_dir = vim.fs.root(bufnr, config.options.root_markers)
  vim.lsp.start(cfg, { bufnr = bufnr })
end

--- Stops the locus clients: asks them to exit, waits up to 3 s, then ends those still running.
function M.stop()
  local old = M.clients()
  for _, c in ipairs(old) do
    M.state.stopping[c.id] = true
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
  M.state.mcp = {}
end

--- The directory `locus lsp` writes its discovery files to (`<pid>.json`), as Locus decides it
--- on each system; used when no server named its file in locus/mcpStatus.
---@return string
function M.discovery_dir()
  local function env(k)
    local v = vim.env[k]
    return v ~= nil and v ~= '' and v or nil
  end
  if vim.fn.has('win32') == 1 then
    local local_app_data = env('LOCALAPPDATA')
      or vim.fs.joinpath(env('USERPROFILE') or vim.uv.os_homedir(), 'AppData', 'Local')
    return vim.fs.joinpath(local_app_data, 'locus', 'run')
  elseif vim.fn.has('mac') == 1 then
    return vim.fs.joinpath(env('TMPDIR') or vim.uv.os_tmpdir(), 'locus')
  end
  if env('XDG_RUNTIME_DIR') then
    return vim.fs.joinpath(env('XDG_RUNTIME_DIR'), 'locus')
  end
  local session = '/run/user/' .. vim.uv.getuid()
  if vim.fn.isdirectory(session) == 1 then
    return vim.fs.joinpath(session, 'locus')
  elseif env('XDG_CACHE_HOME') then
    return vim.fs.joinpath(env('XDG_CACHE_HOME'), 'locus')
  elseif env('HOME') then
    return vim.fs.joinpath(env('HOME'), '.cache', 'locus')
  end
  return vim.fs.joinpath(vim.uv.os_tmpdir(), 'locus-' .. vim.uv.getuid())
end

--- The discovery record in `path`, if it reads as one.
---@param path string
---@return table?
local function read_record(path)
  local okf, lines = pcall(vim.fn.readfile, path)
  local okj, record = pcall(vim.json.decode, okf and table.concat(lines, '\n') or '')
  return okj and type(record) == 'table' and record or nil
end

---@class locus.Discovery
---@field path string The discovery file.
---@field record table What it holds: `{pid, url, ...}`.

--- The discovery record of `client`'s `locus lsp` (its `<pid>.json`: `{pid, url, ...}`) and the
--- file's path: the file its locus/mcpStatus named, else found among the files of processes
--- whose parent is this Neovim, by workspace folders; nil when there is none.
---@param client? vim.lsp.Client
---@return locus.Discovery?
function M.discovery(client)
  -- The file the server named in locus/mcpStatus, on every system.
  local status = client and M.state.mcp[client.id]
  if status and type(status.discoveryFile) == 'string' then
    local record = read_record(status.discoveryFile)
    if record then
      return { path = status.discoveryFile, record = record }
    end
  end
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
        local record = read_record(path)
        if record then
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

--- Whether the client (default: the `cmd` option) was started with `--no-mcp`.
---@param client? vim.lsp.Client
---@return boolean
function M.mcp_disabled(client)
  local cmd = client and client.config.cmd or config.options.cmd
  return type(cmd) == 'table' and vim.tbl_contains(cmd, '--no-mcp')
end

-- The variables by which an agent started in a terminal of this Neovim picks this editor's
-- channel when several editors serve the same folder.
local CHANNEL_PORT_VARIABLES = { claude = 'CLAUDE_CODE_SSE_PORT', gemini = 'GEMINI_CLI_IDE_SERVER_PORT' }

--- Sets, for the terminals this Neovim opens, the port of each agent channel Locus serves here
--- (`channels` of locus/mcpStatus, docs/reference/ide-channels.md).
function M.name_channels(status)
  for _, c in ipairs(type(status) == 'table' and status.channels or {}) do
    local variable = CHANNEL_PORT_VARIABLES[c.agent]
    if variable and c.port then
      vim.env[variable] = tostring(c.port)
    end
  end
end

--- The last locus/mcpStatus Locus sent this client, if any.
---@param client vim.lsp.Client
---@return table?
function M.mcp_status(client)
  return M.state.mcp[client.id]
end

return M
