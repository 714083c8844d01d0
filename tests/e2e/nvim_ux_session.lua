-- Drives a headless Neovim with the Locus plugin (editors/nvim) through what its users meet:
-- :checkhealth locus, :Locus, the statusline and winbar components, an agent in Neovim's
-- :terminal and one while Neovim has lost focus, help windows, unnamed buffers, :Locus restart.
-- Writes what it observed to $LOCUS_E2E_OUT as JSON; tests/e2e/test_nvim.py checks it.
--
-- $LOCUS_E2E_MODE=missing runs the plugin with a `locus` that does not exist instead;
-- $LOCUS_E2E_MODE=scratch starts with no file and types into the unnamed buffer.
-- Run: nvim --headless --clean -u NONE -l tests/e2e/nvim_ux_session.lua

local harness = dofile(vim.fs.joinpath(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)), 'nvim_harness.lua'))
local record = harness.record

-- Everything vim.notify shows, in order.
local notified = {}
vim.notify = function(msg, level)
  table.insert(notified, { msg = msg, level = level })
end

-- The lines :checkhealth locus writes, read from its buffer.
local function checkhealth()
  vim.cmd('checkhealth locus')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('bwipeout!')
  return lines
end

local function missing()
  local locus = harness.locus({ cmd = { '/nonexistent/locus', 'lsp' } })
  vim.wait(100)
  record('notified', notified)
  vim.cmd.edit(assert(os.getenv('LOCUS_FILE_A')))
  vim.wait(300)
  record('clients', #vim.lsp.get_clients({ name = 'locus' }))
  record('locus_cmd', vim.fn.execute('Locus'))
  record('health', checkhealth())
end

-- Neovim started with no file: an unnamed buffer with text starts Locus by itself.
local function scratch()
  local locus = harness.locus({ cmd = { assert(os.getenv('LOCUS_BIN')), 'lsp', '--no-mcp' }, symbols = false })
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { 'one', 'two' })
  assert(vim.wait(20000, function()
    local c = locus.client(buf)
    return c ~= nil and c.initialized
  end, 20), 'no locus client for the unnamed buffer')
  vim.api.nvim_win_set_cursor(0, { 2, 1 })
  vim.api.nvim_exec_autocmds('CursorMoved', {})
  local r = locus.client(buf):request_sync('locus/getContext', vim.empty_dict(), 10000, buf)
  assert(r and not r.err, vim.inspect(r))
  record('context', r.result)
  record('notified', notified)
end

local function ux()
  vim.cmd('filetype on')
  vim.o.hidden = true
  local locus = harness.locus({
    cmd = { assert(os.getenv('LOCUS_BIN')), 'lsp', '--log-level', 'debug' },
    symbols = false,
  })
  local file_a = assert(os.getenv('LOCUS_FILE_A'))
  local python = assert(os.getenv('LOCUS_PYTHON'))
  local probe = assert(os.getenv('LOCUS_PROBE'))
  local work = vim.fs.dirname(file_a)

  -- Statusline and winbar that remember what they last drew (headless Neovim still draws).
  local drawn = { status = {}, winbar = {} }
  function _G.LocusTestStatus()
    local s = locus.statusline()
    table.insert(drawn.status, s)
    return s
  end
  function _G.LocusTestWinbar()
    local s = locus.winbar()
    table.insert(drawn.winbar, s)
    return s
  end
  vim.o.laststatus = 2
  vim.o.statusline = '%!v:lua.LocusTestStatus()'
  vim.o.winbar = '%!v:lua.LocusTestWinbar()'

  local function attached(bufnr)
    local c = locus.client(bufnr)
    return c ~= nil and c.initialized
  end
  local function context(params)
    return harness.context(locus, params)
  end
  -- Moves the cursor (1-based line, 0-based byte column) as the user would: CursorMoved runs
  -- the plugin's autocmds (a headless -l script has no main loop to fire it).
  local function move(line, col)
    vim.api.nvim_win_set_cursor(0, { line, col })
    vim.api.nvim_exec_autocmds('CursorMoved', {})
  end
  -- Runs the agent probe and waits for its answer; `in_terminal` runs it in a :terminal split.
  local n = 0
  local function agent(in_terminal)
    n = n + 1
    local file = vim.fs.joinpath(work, ('agent-%d.json'):format(n))
    if in_terminal then
      vim.cmd('botright split')
      vim.cmd.terminal(vim.fn.shellescape(python) .. ' ' .. vim.fn.shellescape(probe) .. ' ' .. vim.fn.shellescape(file))
    else
      local r = vim.system({ python, probe, file }, { cwd = work, text = true }):wait(60000)
      assert(r.code == 0, 'agent probe failed: ' .. (r.stderr or ''))
    end
    assert(vim.wait(60000, function()
      return vim.uv.fs_stat(file) ~= nil
    end, 50), 'the agent probe wrote nothing to ' .. file)
    return vim.json.decode(table.concat(vim.fn.readfile(file), '\n'))
  end

  vim.cmd.edit(file_a)
  local buf_a = vim.api.nvim_get_current_buf()
  assert(vim.wait(20000, function()
    return attached(buf_a)
  end, 20), 'locus did not attach to ' .. file_a)
  local win_a = vim.api.nvim_get_current_win()

  -- The discovery file appears once the editor introduced itself.
  assert(vim.wait(20000, function()
    return locus.discovery(locus.client(buf_a)) ~= nil
  end, 50), 'no discovery file in ' .. locus.discovery_dir())
  record('health', checkhealth())
  assert(vim.api.nvim_get_current_buf() == buf_a, 'checkhealth did not give the file back')

  -- Statusline and winbar follow a cursor move with no :redrawstatus.
  move(3, 8)
  assert(vim.wait(10000, function()
    return drawn.status[#drawn.status] == 'Class:Greeter > Method:greet'
  end, 10), 'statusline never drew the new scope: ' .. vim.inspect(drawn.status))
  record('status_greet', drawn.status[#drawn.status])
  record('winbar_greet', drawn.winbar[#drawn.winbar])
  move(7, 4)
  assert(vim.wait(10000, function()
    return drawn.status[#drawn.status] == 'Function:main'
  end, 10), 'statusline never drew the new scope: ' .. vim.inspect(drawn.status))
  record('status_main', drawn.status[#drawn.status])
  record('winbar_main', drawn.winbar[#drawn.winbar])

  -- :Locus and :Locus status.
  move(3, 8)
  record('locus_cmd', vim.fn.execute('Locus'))
  record('locus_status', vim.fn.execute('Locus status'))
  record('in_file', context())

  -- An agent in Neovim's own :terminal, beside the file.
  record('agent_terminal', agent(true))
  record('in_terminal', context())
  record('locus_cmd_terminal', vim.fn.execute('Locus'))
  vim.cmd('stopinsert')

  -- A help window: still the file, not focused.
  vim.api.nvim_set_current_win(win_a)
  vim.cmd('help')
  record('in_help', context())
  vim.cmd('helpclose')
  vim.api.nvim_set_current_win(win_a)
  record('back_in_file', context())

  -- Neovim loses focus (the user switched to the agent's pane or window).
  vim.api.nvim_exec_autocmds('FocusLost', {})
  record('agent_focus_lost', agent(false))
  vim.api.nvim_exec_autocmds('FocusGained', {})
  record('focus_gained', context())

  -- An unnamed buffer: mirrored as untitled: once it has text.
  vim.cmd.enew()
  local scratch = vim.api.nvim_get_current_buf()
  record('untitled_empty_client', locus.client(scratch) ~= nil)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, { 'def scratch():', '    return 1' })
  assert(vim.wait(5000, function()
    return locus.client(scratch) ~= nil
  end, 10), 'the unnamed buffer was not mirrored')
  vim.bo[scratch].filetype = 'python'
  move(2, 4)
  record('untitled', context())
  -- Neovim's LSP client drops null fields; the agent sees the JSON as Locus wrote it.
  record('agent_untitled', agent(false))
  record('untitled_uri', locus.uri(scratch))

  -- The unnamed buffer goes: back to the file.
  vim.cmd('bwipeout! ' .. scratch)
  vim.cmd.buffer(buf_a)
  record('after_untitled', context())

  -- A file with no filetype is a text editor too.
  vim.cmd.edit(vim.fs.joinpath(work, 'NOTES'))
  local notes = vim.api.nvim_get_current_buf()
  assert(vim.wait(20000, function()
    return attached(notes)
  end, 20), 'locus did not attach to NOTES')
  move(2, 2)
  record('notes', context())
  vim.cmd('bwipeout ' .. notes)
  vim.cmd.buffer(buf_a)

  -- :Locus restart: a new server, attached again.
  local before = locus.client(buf_a).id
  record('restart_msg', vim.fn.execute('Locus restart'))
  assert(vim.wait(20000, function()
    local c = locus.client(buf_a)
    return c ~= nil and c.initialized and c.id ~= before
  end, 20), 'locus did not come back after :Locus restart')
  move(7, 4)
  record('after_restart', context())

  -- Only the terminal left, the file's buffer deleted: no text editor at all.
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.bo[vim.api.nvim_win_get_buf(win)].buftype == 'terminal' then
      vim.api.nvim_set_current_win(win)
    end
  end
  vim.cmd('only')
  vim.cmd('bdelete! ' .. buf_a)
  vim.wait(200)
  record('no_editor', context())
  record('notified', notified)
end

harness.run(function()
  if os.getenv('LOCUS_E2E_MODE') == 'missing' then
    missing()
  elseif os.getenv('LOCUS_E2E_MODE') == 'scratch' then
    scratch()
  else
    ux()
  end
end)
