-- `:checkhealth locus`: is the binary there and which version, is the server attached to the
-- buffer you were in, where agents reach it (the MCP sidecar and its discovery file), whether symbols
-- are forwarded, which position encoding was negotiated, which editor actions agents may ask
-- for, and whether focus events arrive.

local M = {}

local health = vim.health

local function check_setup(locus, st)
  if not st.setup_done then
    health.error("require('locus').setup() was not called", {
      "Add `require('locus').setup()` to your init.lua, after putting editors/nvim on 'runtimepath'.",
    })
    return false
  end
  health.ok('setup() was called')
  if locus.config.untitled then
    health.ok('unnamed buffers (:enew) are mirrored as untitled: documents once they have text')
  end
  return true
end

local function check_binary(locus)
  local cmd = locus.config.cmd
  if type(cmd) ~= 'table' then
    health.info('cmd is a function: Neovim runs it, so the binary cannot be checked here')
    return
  end
  local problem = locus.cmd_problem(cmd)
  if problem then
    health.error(problem, {
      'Install Locus (`cargo install --path crates/locus-server` in its repository) so that `locus` is on $PATH,',
      "or give its path: require('locus').setup({ cmd = { '/path/to/locus', 'lsp' } }).",
    })
    return
  end
  local path = vim.fn.exepath(cmd[1])
  health.ok(('binary: %s (executable)'):format(path))
  local okr, r = pcall(function()
    return vim.system({ path, '--version' }, { text = true }):wait(10000)
  end)
  if okr and r.code == 0 and vim.trim(r.stdout or '') ~= '' then
    health.ok('version: ' .. vim.trim(r.stdout))
  else
    health.error(('`%s --version` failed: %s'):format(path, okr and vim.trim((r.stderr or '') .. ' exit ' .. tostring(r.code)) or tostring(r)), {
      'Run it in a shell to see why; rebuild or reinstall Locus.',
    })
  end
end

local function check_mcp(locus, client)
  local status = locus.mcp_status(client)
  if locus.mcp_disabled(client) then
    health.ok('MCP sidecar: off (--no-mcp in cmd); agents cannot reach this editor')
    return
  end
  if status and status.state == 'failed' then
    health.error('MCP sidecar failed: ' .. (status.message or 'no reason given'), {
      'A port given with --mcp-port may be taken; drop it (0, a random port, is the default) and :Locus restart.',
    })
    return
  end
  local disc = locus.discovery(client)
  if disc then
    health.ok('MCP sidecar: ' .. tostring(disc.record.url))
    health.ok('discovery file: ' .. disc.path)
  elseif status and status.url then
    health.ok('MCP sidecar: ' .. status.url)
    health.warn('no discovery file found in ' .. locus.discovery_dir(), {
      '`locus mcp` finds the editor through it: is $XDG_RUNTIME_DIR the same for Neovim and the agent?',
    })
  else
    health.warn('no discovery file for this server in ' .. locus.discovery_dir(), {
      'Agents (`locus mcp`) cannot find this editor. See :LspLog for the MCP sidecar\'s start-up error;',
      'the agent and Neovim must share $XDG_RUNTIME_DIR.',
    })
  end
end

local function check_symbols(locus, bufnr)
  if not locus.config.symbols then
    health.ok('symbol forwarding: off (symbols = false); scopes come from tree-sitter')
    return
  end
  local names = {}
  if bufnr and vim.api.nvim_buf_is_valid(bufnr) then
    for _, c in ipairs(vim.lsp.get_clients({ bufnr = bufnr, method = 'textDocument/documentSymbol' })) do
      if c.name ~= locus.config.name then
        table.insert(names, c.name)
      end
    end
  end
  if #names > 0 then
    health.ok(('symbol forwarding: on, from %s for this buffer'):format(names[1]))
  else
    health.ok('symbol forwarding: on (no other language server gives symbols for this buffer: tree-sitter answers)')
  end
end

local function check_server(locus, st)
  local bufnr = st.last_buf
  local all = vim.lsp.get_clients({ name = locus.config.name })
  if #all == 0 then
    if st.disabled then
      health.error('no server: ' .. st.disabled, { 'Fix the binary (above), then :Locus restart.' })
    else
      health.warn('no locus server is running', {
        'It starts with the first file you open (FileType). Open a file, then run :checkhealth locus again.',
      })
    end
    return
  end
  local client = bufnr and vim.api.nvim_buf_is_valid(bufnr) and locus.client(bufnr) or nil
  if client then
    local name = vim.api.nvim_buf_get_name(bufnr)
    health.ok(('attached to buffer %d (%s)'):format(bufnr, name ~= '' and vim.fn.fnamemodify(name, ':~:.') or locus.uri(bufnr)))
  elseif bufnr and vim.api.nvim_buf_is_valid(bufnr) and vim.api.nvim_buf_get_name(bufnr) == '' then
    health.info(('buffer %d is an empty unnamed buffer: Locus mirrors it (untitled:) once it has text'):format(bufnr))
  elseif bufnr and vim.api.nvim_buf_is_valid(bufnr) then
    health.warn(('not attached to buffer %d (%s)'):format(bufnr, vim.api.nvim_buf_get_name(bufnr)), {
      'Locus attaches when a buffer gets a filetype; check `filetypes` in setup() and :LspLog.',
    })
  end
  for _, c in ipairs(client and { client } or all) do
    health.info(('client %d: %s %s'):format(c.id, c.server_info and c.server_info.name or 'locus', c.server_info and c.server_info.version or ''))
    if c.offset_encoding then
      health.ok('position encoding: ' .. c.offset_encoding)
    else
      health.warn('position encoding: not negotiated yet', { 'The server has not answered initialize: see :LspLog.' })
    end
    check_mcp(locus, c)
    local declared = vim.tbl_get(c.config, 'init_options', 'editorActions') or {}
    if #declared > 0 then
      health.ok('editor actions for agents: ' .. table.concat(declared, ', '))
    else
      health.info('editor actions: off (actions = false): agents cannot rename or open files through Neovim')
    end
  end
  check_symbols(locus, bufnr)
end

local function check_focus()
  if not vim.env.TMUX or vim.env.TMUX == '' then
    health.info('focus: FocusLost/FocusGained need a terminal that reports focus (most do)')
    return
  end
  local okr, r = pcall(function()
    return vim.system({ 'tmux', 'show-options', '-gv', 'focus-events' }, { text = true }):wait(3000)
  end)
  if not okr then
    health.info('focus: inside tmux, but `tmux` cannot be run to read focus-events: ' .. tostring(r))
    return
  end
  if r.code == 0 and vim.trim(r.stdout) == 'on' then
    health.ok('tmux focus-events is on: agents see `focused: false` while you are in another pane')
  else
    health.warn('tmux focus-events is off: Locus cannot tell when you switch panes', {
      'Add `set -g focus-events on` to ~/.tmux.conf and run `tmux source-file ~/.tmux.conf`.',
    })
  end
end

--- `:checkhealth locus`: the set-up, the server of the buffer you were in, focus events.
function M.check()
  local locus = require('locus')
  local st = locus._state
  health.start('locus: set-up')
  if not check_setup(locus, st) then
    return
  end
  check_binary(locus)
  health.start('locus: server')
  check_server(locus, st)
  health.start('locus: focus')
  check_focus()
end

return M
