-- Drives a real Neovim with the Locus plugin (editors/nvim) and a real pyright while an agent
-- calls the editor-action tools with `locus call` (forwarded to this Neovim's `locus lsp`), and
-- writes what it observed to $LOCUS_E2E_OUT as JSON; tests/e2e/test_nvim_actions.py checks it.
-- Run: nvim --headless --clean -u NONE -l tests/e2e/nvim_actions_session.lua

local harness = dofile(vim.fs.joinpath(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)), 'nvim_harness.lua'))
local record = harness.record

harness.run(function()
  vim.cmd('filetype on')
  vim.o.hidden = true
  local work = assert(os.getenv('LOCUS_WORK'))
  local bin = assert(os.getenv('LOCUS_BIN'))
  local locus = harness.locus({ cmd = { bin, 'lsp', '--log-level', 'debug' }, symbols = false, statusline = false })
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

  -- file_rename with language servers that take workspace/willRenameFiles (pyright does not):
  -- in-process Lua servers, since no installed peer errors or stays silent on demand. `importer`
  -- rewrites user_a.py's import of the moved module; `tsonly` takes only *.ts files; `broken`
  -- fails; `silent` never answers.
  local function disk(name)
    local f = io.open(work .. '/' .. name)
    if not f then
      return vim.NIL
    end
    local t = f:read('*a')
    f:close()
    return t
  end
  vim.fn.writefile({ 'X = 1' }, work .. '/mod_a.py')
  vim.fn.writefile({ 'import mod_a' }, work .. '/user_a.py')
  local seen = {}
  local function server(name, globs, answer)
    seen[name] = {}
    local filters = {}
    for _, g in ipairs(globs) do
      table.insert(filters, { scheme = 'file', pattern = { glob = g, matches = 'file' } })
    end
    local capabilities = { workspace = { fileOperations = { willRename = { filters = filters }, didRename = { filters = filters } } } }
    local id = 0
    local cmd = function(dispatchers)
      local closing = false
      return {
        request = function(method, params, callback, notify_reply)
          id = id + 1
          local rid = id
          table.insert(seen[name], method)
          local reply
          if method == 'initialize' then
            reply = { nil, { capabilities = capabilities } }
          elseif method == 'shutdown' then
            reply = { nil, vim.NIL }
          else
            reply = answer(method, params)
          end
          if reply then
            vim.schedule(function()
              callback(reply[1], reply[2])
              if notify_reply then
                notify_reply(rid)
              end
            end)
          end
          return true, rid
        end,
        notify = function(method)
          table.insert(seen[name], method)
          if method == 'exit' then
            closing = true
            dispatchers.on_exit(0, 0)
          end
          return true
        end,
        is_closing = function()
          return closing
        end,
        terminate = function()
          if not closing then
            closing = true
            vim.schedule(function()
              dispatchers.on_exit(0, 15)
            end)
          end
        end,
      }
    end
    local client_id = assert(vim.lsp.start({ name = name, cmd = cmd, root_dir = work }, { attach = false }))
    assert(vim.wait(10000, function()
      local c = vim.lsp.get_client_by_id(client_id)
      return c ~= nil and c.initialized
    end, 20), name .. ' did not start')
    return client_id
  end
  local function stop(client_id)
    vim.lsp.get_client_by_id(client_id):stop(true)
    assert(vim.wait(10000, function()
      return vim.lsp.get_client_by_id(client_id) == nil
    end, 20), 'a scripted server did not stop')
  end
  local function count(name, method)
    local n = 0
    for _, m in ipairs(seen[name]) do
      n = n + (m == method and 1 or 0)
    end
    return n
  end
  server('importer', { '**/*.py' }, function(_, params)
    local new = vim.fn.fnamemodify(vim.uri_to_fname(params.files[1].newUri), ':t:r')
    local uri = vim.uri_from_fname(work .. '/user_a.py')
    return { nil, { changes = { [uri] = { {
      range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 12 } },
      newText = 'import ' .. new,
    } } } } }
  end)
  server('tsonly', { '**/*.ts' }, function()
    return { nil, vim.NIL }
  end)

  -- Only the servers whose filters take the file are asked; their edits land, then the move.
  record('imports_rename', call('file_rename', { path = 'mod_a.py', newPath = 'mod_b.py' }))
  record('imports_user_a', disk('user_a.py'))
  record('imports_asked', { importer = count('importer', 'workspace/willRenameFiles'), tsonly = count('tsonly', 'workspace/willRenameFiles') })
  record('imports_told', count('importer', 'workspace/didRenameFiles'))

  -- A server that fails: nothing applied, nothing moved.
  local broken = server('broken', { '**/*.py' }, function()
    return { { code = -32603, message = 'cannot compute the edits' }, nil }
  end)
  record('broken_rename', call('file_rename', { path = 'mod_b.py', newPath = 'mod_c.py' }))
  record('broken_state', { user_a = disk('user_a.py'), mod_b = disk('mod_b.py'), mod_c = disk('mod_c.py') })
  stop(broken)

  -- A move that cannot succeed (the new folder would be inside a file): refused before any
  -- server is asked.
  local before = count('importer', 'workspace/willRenameFiles')
  record('blocked_rename', call('file_rename', { path = 'mod_b.py', newPath = 'user_a.py/mod_c.py' }))
  record('blocked_state', { user_a = disk('user_a.py'), mod_b = disk('mod_b.py'), asked = count('importer', 'workspace/willRenameFiles') - before })

  -- A server that never answers: bounded by the plugin's wait, E_TIMEOUT, nothing applied.
  require('locus.actions').timeout = 1500
  local silent = server('silent', { '**/*.py' }, function()
    return nil
  end)
  record('silent_rename', call('file_rename', { path = 'mod_b.py', newPath = 'mod_c.py' }))
  record('silent_state', { user_a = disk('user_a.py'), mod_b = disk('mod_b.py'), mod_c = disk('mod_c.py') })
  stop(silent)
end)
