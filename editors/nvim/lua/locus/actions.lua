-- Editor actions (`locus/editorAction`, docs/reference/lsp.md): what agents ask Neovim to do
-- through Locus's tools (symbol_rename, file_rename, editor_open_file, diagnostic_collect), done by
-- Neovim's own machinery — the buffer's other language servers for renames, `vim.diagnostic` for
-- problems. Locus never writes a file: the edits land in Neovim's buffers, Neovim writes those that
-- had no unsaved changes of the user's (as VS Code saves a refactoring's files;
-- `actions_save = false` leaves them all unsaved), and a renamed file is moved by Neovim.
--
-- Positions arrive in the encoding negotiated with Locus (the locus client's offset_encoding)
-- and are converted to each language server's own.

local M = {}

local api = vim.api

--- The actions Neovim declares in initializationOptions.editorActions.
M.declared = { 'symbol.rename', 'file.rename', 'editor.open_file', 'diagnostic.collect', 'edit.propose', 'edit.propose.close', 'file.save' }

-- How long one request to another language server may take (ms); Locus's own wait is longer.
M.timeout = 15000

local function failure(message, extra)
  local e = { message = message }
  for k, v in pairs(extra or {}) do
    e[k] = v
  end
  return { ok = false, error = e }
end

--- Runs `start(done)` and waits for `done(...)` without blocking Neovim: the handler runs in a
--- coroutine (Neovim's RPC layer wraps server requests in one). Returns what `done` got, or
--- `nil, 'timeout'` after `ms`.
local function await(ms, start)
  local co, main = coroutine.running()
  if not co or main then
    -- Not in a coroutine (a Neovim that calls handlers otherwise): wait, processing events.
    local got
    start(function(...)
      got = got or { n = select('#', ...), ... }
    end)
    if not vim.wait(ms, function()
      return got ~= nil
    end, 10) then
      return nil, 'timeout'
    end
    return unpack(got, 1, got.n)
  end
  local finished = false
  local function resume(...)
    if finished then
      return
    end
    finished = true
    local args = { ... }
    local n = select('#', ...)
    vim.schedule(function()
      coroutine.resume(co, unpack(args, 1, n))
    end)
  end
  start(resume)
  vim.defer_fn(function()
    resume(nil, 'timeout')
  end, ms)
  return coroutine.yield()
end

--- A request to `client`, waited for as above: `err, result`.
local function request(client, method, params, bufnr)
  local err, result = await(M.timeout, function(done)
    local ok = client:request(method, params, function(e, r)
      done(e or false, r)
    end, bufnr)
    if not ok then
      done({ message = client.name .. ' is not running' })
    end
  end)
  if err == nil and result == 'timeout' then
    return { message = ('%s did not answer %s within %d ms'):format(client.name, method, M.timeout), timeout = true },
      nil
  end
  return err or nil, result
end

--- `request` to each of `clients` at once, waited for together at most `M.timeout`: a list of
--- `{client, err, result}` in `clients`' order; a client that did not answer in time has
--- `err.timeout` set (its request is cancelled).
local function request_all(clients, method, params)
  local answers, ids, pending = {}, {}, #clients
  await(M.timeout, function(done)
    local function answered(i, err, result)
      if answers[i] then
        return
      end
      answers[i] = { client = clients[i], err = err or nil, result = result }
      pending = pending - 1
      if pending == 0 then
        done()
      end
    end
    if pending == 0 then
      done()
    end
    for i, c in ipairs(clients) do
      local ok, id = c:request(method, params, function(e, r)
        answered(i, e, r)
      end)
      if ok then
        ids[i] = id
      else
        answered(i, { message = c.name .. ' is not running' })
      end
    end
  end)
  for i, c in ipairs(clients) do
    if not answers[i] then
      if ids[i] then
        pcall(c.cancel_request, c, ids[i])
      end
      answers[i] = {
        client = c,
        err = { message = ('%s did not answer %s within %d ms'):format(c.name, method, M.timeout), timeout = true },
      }
    end
  end
  return answers
end

--- A language server's failure as the action's: `E_TIMEOUT` when it did not answer in time.
local function server_failure(name, err, extra)
  local e = extra or {}
  local timeout = type(err) == 'table' and err.timeout
  if timeout then
    e.code = e.code or 'E_TIMEOUT'
  end
  local message = type(err) == 'table' and (err.message or vim.inspect(err)) or tostring(err)
  if timeout then
    -- The message names the server already.
    return failure(message, e)
  end
  return failure(('%s: %s'):format(name, message), e)
end

local function locus_name()
  return require('locus').config.name
end

-- The buffer of `uri`, loaded, with its filetype set (a file Neovim has not opened yet).
local function load_buffer(uri)
  local bufnr = vim.uri_to_bufnr(uri)
  if not api.nvim_buf_is_loaded(bufnr) then
    vim.fn.bufload(bufnr)
  end
  if vim.bo[bufnr].filetype == '' then
    local ft = vim.filetype.match({ buf = bufnr })
    if ft then
      vim.bo[bufnr].filetype = ft
    end
  end
  vim.bo[bufnr].buflisted = true
  return bufnr
end

-- The language servers (other than Locus) that can do `method` for `bufnr`: those attached to
-- it, else those running for its filetype, which are attached to it first.
local function servers_for(bufnr, method)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = bufnr, method = method })) do
    if c.name ~= locus_name() then
      table.insert(out, c)
    end
  end
  if #out > 0 then
    return out
  end
  local ft = vim.bo[bufnr].filetype
  for _, c in ipairs(vim.lsp.get_clients({ method = method })) do
    local fts = c.config.filetypes
    if c.name ~= locus_name() and (fts == nil or vim.tbl_contains(fts, ft)) then
      vim.lsp.buf_attach_client(bufnr, c.id)
      table.insert(out, c)
    end
  end
  return out
end

-- Byte column of an LSP `position` in `encoding` on `bufnr`'s line.
local function byte_col(bufnr, position, encoding)
  local line = api.nvim_buf_get_lines(bufnr, position.line, position.line + 1, false)[1] or ''
  local ok, col = pcall(vim.str_byteindex, line, encoding, position.character, false)
  return ok and math.min(col, #line) or #line
end

-- LSP character of byte `col` on `bufnr`'s `row` in `encoding` (`col` as is when the line is
-- unknown).
local function character(bufnr, row, col, encoding)
  if not api.nvim_buf_is_loaded(bufnr) then
    return col
  end
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
  if not line then
    return col
  end
  return vim.str_utfindex(line, encoding, math.min(col, #line), false)
end

-- `[{uri, edits}]` of a WorkspaceEdit.
local function edited_files(edit)
  local files, index = {}, {}
  local function add(uri, n)
    if not index[uri] then
      table.insert(files, { uri = uri, edits = 0 })
      index[uri] = #files
    end
    files[index[uri]].edits = files[index[uri]].edits + n
  end
  for uri, edits in pairs(edit.changes or {}) do
    add(uri, #edits)
  end
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument then
      add(change.textDocument.uri, #(change.edits or {}))
    elseif change.newUri then
      add(change.newUri, 0)
    end
  end
  table.sort(files, function(a, b)
    return a.uri < b.uri
  end)
  return files
end

-- Applies `edit` (errors are raised), then — unless `actions_save` is off — has Neovim write
-- the buffers it changed that had no unsaved changes of the user's before, as VS Code saves a
-- refactoring's files (files.refactoring.autoSave); agents read files from disk. Returns the
-- files with their edit counts, and the URIs saved and left unsaved.
local function apply(edit, encoding)
  local files = edited_files(edit)
  local function buffer(uri)
    local b = vim.fn.bufnr(vim.uri_to_fname(uri))
    return b > 0 and api.nvim_buf_is_loaded(b) and b or nil
  end
  local dirty_before = {}
  for _, f in ipairs(files) do
    local b = buffer(f.uri)
    dirty_before[f.uri] = b ~= nil and vim.bo[b].modified
  end
  vim.lsp.util.apply_workspace_edit(edit, encoding)
  local save = require('locus').config.actions_save ~= false
  local saved, unsaved = {}, {}
  for _, f in ipairs(files) do
    local b = buffer(f.uri)
    if b and vim.bo[b].modified then
      local wrote = save
        and not dirty_before[f.uri]
        and pcall(api.nvim_buf_call, b, function()
          vim.cmd('silent lockmarks update')
        end)
      table.insert(wrote and saved or unsaved, f.uri)
    end
  end
  return files, saved, unsaved
end

local handlers = {}

-- {uri, position, newName}: the first of the buffer's language servers that can rename.
handlers['symbol.rename'] = function(p, locus)
  local bufnr = load_buffer(p.uri)
  local servers = servers_for(bufnr, 'textDocument/rename')
  if #servers == 0 then
    return failure(('no language server of this buffer (%s) can rename'):format(vim.bo[bufnr].filetype), {
      code = 'E_UNSUPPORTED',
      hint = 'Start a language server for this filetype in Neovim (vim.lsp.enable), or edit the references yourself',
    })
  end
  local col = byte_col(bufnr, p.position, locus.offset_encoding)
  local server = servers[1]
  local line = api.nvim_buf_get_lines(bufnr, p.position.line, p.position.line + 1, false)[1] or ''
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = p.position.line, character = vim.str_utfindex(line, server.offset_encoding, col, false) },
    newName = p.newName,
  }
  local err, edit = request(server, 'textDocument/rename', params, bufnr)
  if err then
    return server_failure(server.name, err)
  end
  if type(edit) ~= 'table' then
    return failure(('%s found nothing to rename there'):format(server.name), {
      code = 'E_NOT_FOUND',
      hint = 'Give the position of the symbol\'s name (symbol_outline shows where it starts)',
    })
  end
  local ok, files, saved, unsaved = pcall(apply, edit, server.offset_encoding)
  if not ok then
    return failure('Neovim could not apply the edit: ' .. tostring(files))
  end
  return { ok = true, data = { applied = true, server = server.name, files = files, saved = saved, unsaved = unsaved } }
end

-- Whether one of a server's `workspace.fileOperations` filters (`FileOperationFilter[]`) takes
-- the file `fname` (LSP 3.16: `scheme`, and a glob matched against the path, files or folders
-- per `matches`, case-insensitively with `options.ignoreCase`). A rename is matched on its old
-- path, as VS Code's language client does.
local function filters_take(filters, fname, is_dir)
  for _, f in ipairs(filters or {}) do
    local pattern = f.pattern or {}
    local kind_ok = pattern.matches == nil or pattern.matches == (is_dir and 'folder' or 'file')
    if (f.scheme == nil or f.scheme == 'file') and kind_ok and type(pattern.glob) == 'string' then
      local glob, path = pattern.glob, fname
      if vim.tbl_get(pattern, 'options', 'ignoreCase') then
        glob, path = glob:lower(), path:lower()
      end
      local ok, lpeg_pattern = pcall(vim.glob.to_lpeg, glob)
      if ok and lpeg_pattern:match(path) then
        return true
      end
    end
  end
  return false
end

-- The language servers (not Locus) whose `workspace.fileOperations.<op>` filters take `fname`.
local function file_operation_servers(op, fname, is_dir)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients()) do
    local registration = vim.tbl_get(c.server_capabilities or {}, 'workspace', 'fileOperations', op)
    if c.name ~= locus_name() and type(registration) == 'table' and filters_take(registration.filters, fname, is_dir) then
      table.insert(out, c)
    end
  end
  return out
end

-- Why moving `old` to `new` would fail, or nil: checked before any import is changed, since
-- edits applied (and saved) for a move that then fails cannot be taken back.
local function move_refused(old, new)
  if not vim.uv.fs_stat(old) then
    return failure(old .. ' does not exist', { code = 'E_NOT_FOUND' })
  end
  if vim.uv.fs_lstat(new) then
    return failure(new .. ' exists already', { code = 'E_INVALID_PARAMS' })
  end
  local existing = vim.fn.bufnr(new)
  if existing > 0 and api.nvim_buf_is_loaded(existing) then
    return failure(new .. ' is open in Neovim as another buffer', {
      code = 'E_INVALID_PARAMS',
      hint = 'Pick another path, or ask the user to close that buffer',
    })
  end
  -- The nearest folder that exists must be a writable folder (the rest is created).
  local dir = vim.fs.dirname(new)
  while dir and not vim.uv.fs_stat(dir) do
    local parent = vim.fs.dirname(dir)
    if parent == dir then
      break
    end
    dir = parent
  end
  local stat = dir and vim.uv.fs_stat(dir)
  if not stat or stat.type ~= 'directory' then
    return failure(('cannot create the folder of %s: %s is not a folder'):format(new, tostring(dir)), {
      code = 'E_INVALID_PARAMS',
      hint = 'Pick a new path whose folders are folders (or do not exist yet)',
    })
  end
  if not vim.uv.fs_access(dir, 'W') or not vim.uv.fs_access(vim.fs.dirname(old), 'W') then
    return failure(('cannot move %s to %s: %s or %s is not writable'):format(old, new, vim.fs.dirname(old), dir), {
      code = 'E_INVALID_PARAMS',
    })
  end
  return nil
end

-- {oldUri, newUri, updateImports}: the move checked first; workspace/willRenameFiles to every
-- language server whose fileOperations.willRename filters take the file, all their answers
-- collected (at most M.timeout) before anything is applied — one that fails or does not answer
-- aborts the action with nothing changed; then their edits applied (and saved), the file and
-- its buffers moved by Neovim, and didRenameFiles to the servers whose didRename filters take it.
handlers['file.rename'] = function(p)
  local old, new = vim.uri_to_fname(p.oldUri), vim.uri_to_fname(p.newUri)
  local refused = move_refused(old, new)
  if refused then
    return refused
  end
  local is_dir = vim.fn.isdirectory(old) == 1
  local files = { { oldUri = vim.uri_from_fname(old), newUri = vim.uri_from_fname(new) } }
  local asked = {}
  if p.updateImports ~= false then
    asked = file_operation_servers('willRename', old, is_dir)
  end
  local answers = request_all(asked, 'workspace/willRenameFiles', { files = files })
  for _, a in ipairs(answers) do
    if a.err then
      local f = server_failure(a.client.name, a.err, {
        hint = ('Nothing was changed. %s could not say which imports to update; retry, or move the file without import updates and fix them yourself'):format(
          a.client.name
        ),
      })
      f.error.message = f.error.message .. '; nothing was changed'
      return f
    end
  end
  local edited, saved, unsaved, names = {}, {}, {}, {}
  for _, a in ipairs(answers) do
    table.insert(names, a.client.name)
    if type(a.result) == 'table' then
      local ok, f, s, u = pcall(apply, a.result, a.client.offset_encoding)
      if not ok then
        return failure(
          ('Neovim could not apply the import updates of %s: %s; the file was not moved'):format(a.client.name, tostring(f)),
          { hint = 'Some import updates may be in Neovim\'s buffers: ask the user to check them (:undo in each), then retry' }
        )
      end
      vim.list_extend(edited, f)
      vim.list_extend(saved, s)
      vim.list_extend(unsaved, u)
    end
  end
  local ok, e = pcall(vim.lsp.util.rename, old, new)
  if not ok or not vim.uv.fs_stat(new) then
    local message = 'Neovim could not rename the file: ' .. tostring(e)
    if #edited > 0 then
      message = message .. ('; the import updates were applied already (%d files)'):format(#edited)
    end
    return failure(message, { files = edited })
  end
  for _, c in ipairs(file_operation_servers('didRename', old, is_dir)) do
    c:notify('workspace/didRenameFiles', { files = files })
  end
  return {
    ok = true,
    data = {
      applied = true,
      importsUpdated = #names > 0,
      servers = names,
      files = edited,
      saved = saved,
      unsaved = unsaved,
    },
  }
end

-- {uri, line?, character?}: the file in the current window, the cursor on the position.
handlers['editor.open_file'] = function(p, locus)
  local fname = vim.uri_to_fname(p.uri)
  local bufnr
  local win = api.nvim_get_current_win()
  if vim.bo[api.nvim_win_get_buf(win)].buftype ~= '' then
    -- From a terminal or help window: a window with a normal buffer, else this one.
    for _, w in ipairs(api.nvim_tabpage_list_wins(0)) do
      if vim.bo[api.nvim_win_get_buf(w)].buftype == '' then
        win = w
        break
      end
    end
    api.nvim_set_current_win(win)
  end
  local opened, e = pcall(vim.cmd.edit, vim.fn.fnameescape(fname))
  if not opened then
    if not tostring(e):find('E37', 1, true) then
      error(e, 0)
    end
    -- The window's buffer has unsaved changes and 'hidden' is off: a split keeps them.
    vim.cmd.split(vim.fn.fnameescape(fname))
    win = api.nvim_get_current_win()
  end
  bufnr = api.nvim_get_current_buf()
  if p.line then
    local last = api.nvim_buf_line_count(bufnr)
    local row = math.min(p.line, last - 1)
    local col = byte_col(bufnr, { line = row, character = p.character or 0 }, locus.offset_encoding)
    api.nvim_win_set_cursor(win, { row + 1, col })
    vim.cmd('normal! zvzz')
  end
  local locus_mod = require('locus')
  locus_mod.send_active()
  locus_mod.send_cursor()
  return { ok = true, data = { uri = p.uri, line = p.line, character = p.character } }
end

-- {uri?}: `vim.diagnostic`'s problems, per file, as LSP diagnostics in Locus's encoding.
handlers['diagnostic.collect'] = function(p, locus)
  local only = p.uri and vim.uri_to_bufnr(p.uri) or nil
  local by_buf, order = {}, {}
  for _, d in ipairs(vim.diagnostic.get(only)) do
    if not by_buf[d.bufnr] then
      by_buf[d.bufnr] = {}
      table.insert(order, d.bufnr)
    end
    local enc = locus.offset_encoding
    local lsp = vim.tbl_get(d, 'user_data', 'lsp') or {}
    table.insert(by_buf[d.bufnr], {
      range = {
        start = { line = d.lnum, character = character(d.bufnr, d.lnum, d.col, enc) },
        ['end'] = {
          line = d.end_lnum or d.lnum,
          character = character(d.bufnr, d.end_lnum or d.lnum, d.end_col or d.col, enc),
        },
      },
      severity = d.severity,
      message = d.message,
      source = d.source,
      code = d.code or lsp.code,
    })
  end
  local out = {}
  for _, b in ipairs(order) do
    table.insert(out, { uri = vim.uri_from_bufnr(b), diagnostics = by_buf[b] })
  end
  if p.uri and #out == 0 then
    out = { { uri = p.uri, diagnostics = {} } }
  end
  return { ok = true, data = out }
end

-- How long a proposed edit waits for the user (ms): as long as Locus waits.
M.review_wait = 60 * 60 * 1000

-- {id, uri, newText, title}: the proposal beside the file in a diff tab page, answered once the
-- user accepted (with the text as they left it) or rejected it (lua/locus/review.lua).
handlers['edit.propose'] = function(p)
  local review = require('locus.review')
  local answer, timeout = await(M.review_wait, function(done)
    review.show(p, done)
  end)
  if answer == nil and timeout == 'timeout' then
    review.close(p.id)
    return { ok = true, data = { accepted = false } }
  end
  return { ok = true, data = answer }
end

-- {uri}: the buffer of `uri` written with Neovim's own `:write` (its autocommands run);
-- `saved = false` when no loaded buffer holds the file or it has no unsaved changes.
handlers['file.save'] = function(p)
  local fname = vim.uri_to_fname(p.uri)
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and api.nvim_buf_get_name(bufnr) == fname then
      if not vim.bo[bufnr].modified then
        break
      end
      api.nvim_buf_call(bufnr, function()
        vim.cmd('silent write')
      end)
      return { ok = true, data = { saved = true } }
    end
  end
  return { ok = true, data = { saved = false } }
end

-- {id}: withdraws a proposal nobody decided on.
handlers['edit.propose.close'] = function(p)
  require('locus.review').close(p.id)
  return { ok = true, data = {} }
end

local unsupported_hints = {
  ['setting.get'] = "Neovim's settings are Lua options in the user's config (init.lua, vim.o, vim.lsp.config): read or suggest the change there, or ask the user",
}
unsupported_hints['setting.set'] = unsupported_hints['setting.get']

--- The `locus/editorAction` handler: `{action, params}` → `{ok, data}`, or JSON-RPC -32601 with a
--- hint for an action Neovim cannot do.
---@param params? {action?: string, params?: table}
---@param ctx lsp.HandlerContext
---@return table? result
---@return lsp.ResponseError? err
function M.handler(_, params, ctx)
  params = type(params) == 'table' and params or {}
  local action = params.action
  local locus = vim.lsp.get_client_by_id(ctx.client_id)
  local handle = handlers[action]
  if not handle or not locus then
    local hint = unsupported_hints[action]
      or ('Neovim\'s Locus plugin does these: %s'):format(table.concat(M.declared, ', '))
    return nil, vim.lsp.rpc_response_error(
      vim.lsp.protocol.ErrorCodes.MethodNotFound,
      ('Neovim cannot do `%s`'):format(tostring(action)),
      { hint = hint }
    )
  end
  local ok, result = pcall(handle, type(params.params) == 'table' and params.params or {}, locus)
  if not ok then
    return failure(('%s failed in Neovim: %s'):format(action, tostring(result)))
  end
  return result
end

return M
