-- Drives a real Neovim with the Locus plugin (editors/nvim) against `locus lsp`, and writes
-- what it observed to $LOCUS_E2E_OUT as JSON; tests/e2e/test_nvim.py checks it.
-- Run: nvim --headless --clean -u NONE -l tests/e2e/nvim_session.lua

local harness = dofile(vim.fs.joinpath(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)), 'nvim_harness.lua'))
local record = harness.record

harness.run(function()
  vim.cmd('filetype on')
  vim.o.hidden = true
  vim.o.autoindent = false
  local locus = harness.locus({
    cmd = { assert(os.getenv('LOCUS_BIN')), 'lsp', '--no-mcp', '--log-level', 'debug' },
    symbols = false,
    statusline = false,
  })
  local file_a = assert(os.getenv('LOCUS_FILE_A'))
  local file_b = assert(os.getenv('LOCUS_FILE_B'))

  local function keys(s)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(s, true, false, true), 'xt', false)
  end
  local function attached(bufnr)
    local c = locus.client(bufnr)
    return c ~= nil and c.initialized and vim.lsp.buf_is_attached(bufnr, c.id)
  end
  local function context()
    return harness.context(locus)
  end
  -- The buffer's text as Neovim sends it to language servers.
  local function buffer_text(bufnr)
    local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n')
    if vim.bo[bufnr].eol then
      text = text .. '\n'
    end
    return text
  end
  local function mirror(bufnr)
    local c = locus.client()
    local r = c:request_sync('locus/debugText', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 10000, bufnr)
    assert(r and not r.err, 'debugText failed: ' .. vim.inspect(r))
    return r.result.text
  end

  vim.cmd.edit(file_a)
  local buf_a = vim.api.nvim_get_current_buf()
  assert(vim.wait(20000, function()
    return attached(buf_a)
  end, 20), 'locus did not attach to ' .. file_a)
  local client = locus.client(buf_a)
  record('encoding', client.offset_encoding)
  record('hover_declared', client.server_capabilities.hoverProvider ~= nil)
  record('initial', context())

  -- Type a new method below line 3 (indenting is off: the spaces are typed).
  for _, opt in ipairs({ 'autoindent', 'smartindent', 'cindent' }) do
    vim.bo[buf_a][opt] = false
  end
  vim.bo[buf_a].indentexpr = ''
  vim.api.nvim_win_set_cursor(0, { 3, 0 })
  keys('o    def added(self):<CR>        return "é😀"<Esc>')
  record('typed_mirror', mirror(buf_a))
  record('typed_buffer', buffer_text(buf_a))

  -- Move into the new method; the plugin sends the cursor.
  vim.api.nvim_win_set_cursor(0, { 5, 12 })
  locus.send_cursor()
  record('in_added', context())

  -- A cursor notification with a selection, from a few lines of Lua.
  client:notify('locus/didChangeCursor', {
    textDocument = { uri = vim.uri_from_bufnr(buf_a), version = vim.lsp.util.buf_versions[buf_a] },
    position = { line = 1, character = 13 },
    selections = { { start = { line = 1, character = 4 }, ['end'] = { line = 1, character = 13 } } },
  })
  record('selected', context())

  -- More editing: delete a line and undo it, insert multibyte text, join lines, replace.
  keys('ggddu')
  vim.api.nvim_buf_set_text(buf_a, 0, 0, 0, 0, { '# 中文 😀 ' })
  keys('Gkkjx')
  keys('ggJ')
  keys('3Gcwrenamed<Esc>')
  record('edited_mirror', mirror(buf_a))
  record('edited_buffer', buffer_text(buf_a))

  -- A second file: BufEnter makes it the active editor.
  vim.cmd.edit(file_b)
  local buf_b = vim.api.nvim_get_current_buf()
  assert(vim.wait(20000, function()
    return attached(buf_b)
  end, 20), 'locus did not attach to ' .. file_b)
  vim.api.nvim_win_set_cursor(0, { 3, 6 })
  locus.send_cursor()
  record('second', context())

  -- Neovim loses focus: no active editor; it comes back.
  vim.api.nvim_exec_autocmds('FocusLost', {})
  record('focus_lost', context())
  vim.api.nvim_exec_autocmds('FocusGained', {})
  record('focus_gained', context())

  -- Back to the first buffer.
  vim.cmd.buffer(buf_a)
  record('back', context())
  record('back_mirror_equal', mirror(buf_a) == buffer_text(buf_a))
end)
