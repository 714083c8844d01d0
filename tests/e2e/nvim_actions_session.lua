-- Drives a real Neovim with the Locus plugin (editors/nvim) and a real pyright while an agent
-- calls the editor-action tools with `locus call` (forwarded to this Neovim's `locus lsp`), and
-- writes what it observed to $LOCUS_E2E_OUT as JSON; tests/e2e/test_nvim_actions.py checks it.
-- Run: nvim --headless --clean -u NONE -l tests/e2e/nvim_actions_session.lua

local out = { steps = {} }
local function record(name, value)
  out[name] = value
  table.insert(out.steps, name)
end

local function finish(code)
  local f = assert(io.open(assert(os.getenv('LOCUS_E2E_OUT')), 'w'))
  f:write(vim.json.encode(out))
  f:close()
  vim.cmd((code == 0 and 'qall!') or ('cquit! ' .. code))
end

local ok, err = xpcall(function()
  vim.cmd('filetype on')
  vim.o.hidden = true
  vim.opt.runtimepath:prepend(assert(os.getenv('LOCUS_PLUGIN_DIR')))
  local work = assert(os.getenv('LOCUS_WORK'))
  local bin = assert(os.getenv('LOCUS_BIN'))
  local locus = require('locus')
  locus.setup({ cmd = { bin, 'lsp', '--log-level', 'debug' }, symbols = false, statusline = false })
  vim.lsp.config('pyright', {
    cmd = { assert(os.getenv('PYRIGHT_LANGSERVER')), '--stdio' },
    filetypes = { 'python' },
    root_markers = { '.git' },
    settings = { python = { analysis = { diagnosticMode = 'openFilesOnly' } } },
  })
  vim.lsp.enable('pyright')

  local function attached(bufnr, name)
    for _, c in ipairs(vim.lsp.get_clients({ bufnr = bufnr, name = name })) do
      if c.initialized then
        return true
      end
    end
    return false
  end
  local function text(bufnr)
    return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n')
  end
  -- `locus call TOOL --json ARGS` from the workspace, while Neovim keeps serving its requests.
  local function call(tool, args)
    local done
    vim.system({ bin, 'call', tool, '--json', vim.json.encode(args) }, { cwd = work, text = true }, function(r)
      done = r
    end)
    assert(vim.wait(60000, function()
      return done ~= nil
    end, 20), 'locus call ' .. tool .. ' did not finish')
    local okj, envelope = pcall(vim.json.decode, done.stdout)
    assert(okj, ('locus call %s printed no JSON (exit %d): %s %s'):format(tool, done.code, done.stdout, done.stderr))
    return envelope
  end

  vim.cmd.edit(work .. '/app.py')
  local app = vim.api.nvim_get_current_buf()
  vim.cmd.edit(work .. '/lib.py')
  local lib = vim.api.nvim_get_current_buf()
  assert(vim.wait(60000, function()
    return attached(app, 'locus') and attached(lib, 'locus') and attached(app, 'pyright') and attached(lib, 'pyright')
  end, 50), 'locus and pyright did not attach to both files')
  assert(vim.wait(60000, function()
    return #vim.diagnostic.get(app) > 0
  end, 50), 'pyright published no diagnostics for app.py')
  record('declared', locus.client(lib).config.init_options.editorActions)

  -- The user has an unsaved change in app.py; lib.py is as on disk.
  vim.api.nvim_buf_set_lines(app, -1, -1, true, { '# note' })
  -- The cursor on `greet` in lib.py, as the user would leave it.
  vim.api.nvim_win_set_cursor(0, { 1, 5 })
  locus.send_cursor()

  record('rename', call('symbol_rename', { path = 'lib.py', name = 'greet', newName = 'welcome' }))
  record('lib_after', text(lib))
  record('app_after', text(app))
  record('lib_on_disk', table.concat(vim.fn.readfile(work .. '/lib.py'), '\n'))
  record('app_on_disk', table.concat(vim.fn.readfile(work .. '/app.py'), '\n'))
  record('lib_modified', vim.bo[lib].modified)
  record('app_modified', vim.bo[app].modified)

  -- pyright sees the edit and publishes again; then the problems list.
  vim.wait(3000, function()
    return false
  end, 100)
  record('diagnostics', call('diagnostic_collect', vim.empty_dict()))
  record('diagnostics_app', call('diagnostic_collect', { path = 'app.py' }))

  -- lib.py, in the window, has unsaved changes: with 'hidden' off Neovim opens app.py in a split
  -- rather than abandon them.
  vim.api.nvim_buf_set_lines(lib, -1, -1, true, { '# more' })
  vim.o.hidden = false
  local windows = #vim.api.nvim_list_wins()
  record('open', call('editor_open_file', { path = 'app.py', line = 3 }))
  record('open_split', #vim.api.nvim_list_wins() == windows + 1)
  record('open_buffer', vim.api.nvim_buf_get_name(0))
  record('open_cursor', vim.api.nvim_win_get_cursor(0))
  local r = locus.client(0):request_sync('locus/getContext', vim.empty_dict(), 10000, 0)
  record('open_context', r and r.result)

  record('setting', call('setting_get', { key = 'editor.tabSize' }))

  record('file_rename', call('file_rename', { path = 'other.py', newPath = 'moved/other.py' }))
  record('moved_exists', vim.uv.fs_stat(work .. '/moved/other.py') ~= nil)
  record('old_exists', vim.uv.fs_stat(work .. '/other.py') ~= nil)

  -- A file Neovim has not opened: loaded, handed to pyright, renamed in its buffer.
  record('rename_unopened', call('symbol_rename', { path = 'moved/other.py', name = 'x', newName = 'y' }))
  local moved = vim.fn.bufnr(work .. '/moved/other.py')
  record('unopened_after', moved > 0 and text(moved) or vim.NIL)
end, debug.traceback)

if not ok then
  out.error = err
  finish(1)
else
  finish(0)
end
