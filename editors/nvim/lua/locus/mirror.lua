-- Which buffers Locus mirrors and by which URI, and the mirrors of unnamed buffers. Neovim's
-- LSP client attaches only on FileType, and names an unnamed buffer `file://` (the same URI for
-- all of them), so the plugin keeps it away from them (root_dir in lua/locus/discovery.lua) and
-- mirrors them itself: didOpen/didChange (whole text)/didClose with `untitled:Untitled-<bufnr>`,
-- once the buffer has text.

local M = {}

local api = vim.api
local config = require('locus.config')
local discovery = require('locus.discovery')

---@class locus.Untitled
---@field uri string `untitled:Untitled-<bufnr>`.
---@field version integer The buffer's changedtick at the last change sent.
---@field language string The languageId it was opened with (the filetype, or `plaintext`).
---@field clients table<integer, true> The ids of the locus clients it is open on.

-- Buffer -> its mirror, for the unnamed buffers mirrored now.
---@type table<integer, locus.Untitled>
local untitled = {}

-- Buffers whose lines the plugin watches (unnamed buffers the user has entered).
local watched = {}

---@class locus.MirrorEvents
---@field changed fun(bufnr: integer) `bufnr` started or stopped being a text editor.
---@field detached fun(bufnr: integer) Neovim stopped reporting the lines of `bufnr` (its mirror is closed).
---@field closed fun(bufnr: integer) The mirror of `bufnr` was closed.

--- What the other modules do when a mirror changes; init.lua sets them.
---@type locus.MirrorEvents
M.events = {
  changed = function() end,
  detached = function() end,
  closed = function() end,
}

--- Whether `bufnr` is an unnamed buffer mirrored as an `untitled:` document.
---@param bufnr integer
---@return boolean
function M.is_untitled(bufnr)
  return untitled[bufnr] ~= nil
end

--- The locus client for `bufnr`: one attached to it, or for a mirrored unnamed buffer any
--- initialized one; `nil` when Locus does not know the buffer. Without `bufnr`, any client.
---@param bufnr? integer 0 for the current buffer.
---@return vim.lsp.Client?
function M.client(bufnr)
  if bufnr == 0 then
    bufnr = api.nvim_get_current_buf()
  end
  if bufnr and M.is_untitled(bufnr) then
    for _, c in ipairs(discovery.clients()) do
      if untitled[bufnr].clients[c.id] then
        return c
      end
    end
    return nil
  end
  return discovery.clients(bufnr)[1]
end

--- The URI Locus knows `bufnr` by (`untitled:Untitled-N` for a mirrored unnamed buffer).
---@param bufnr integer 0 for the current buffer.
---@return string
function M.uri(bufnr)
  bufnr = bufnr == 0 and api.nvim_get_current_buf() or bufnr
  local u = untitled[bufnr]
  return u and u.uri or vim.uri_from_bufnr(bufnr)
end

--- The version of `bufnr` Locus has.
---@param bufnr integer
---@return integer?
function M.version(bufnr)
  local u = untitled[bufnr]
  if u then
    return u.version
  end
  return vim.lsp.util.buf_versions[bufnr]
end

--- Whether `bufnr` is a text editor for `client`: a normal buffer that Locus mirrors.
---@param bufnr? integer
---@param client vim.lsp.Client
---@return boolean
function M.is_editor(bufnr, client)
  if not bufnr or not api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local u = untitled[bufnr]
  if u then
    return u.clients[client.id] == true
  end
  return vim.lsp.buf_is_attached(bufnr, client.id)
end

--- The locus clients for which `bufnr` is a text editor.
---@param bufnr integer
---@return vim.lsp.Client[]
function M.editor_clients(bufnr)
  local out = {}
  for _, c in ipairs(discovery.clients()) do
    if M.is_editor(bufnr, c) then
      table.insert(out, c)
    end
  end
  return out
end

--- How many unnamed buffers are open on `client`.
---@param client vim.lsp.Client
---@return integer
function M.count(client)
  local n = 0
  for _, u in pairs(untitled) do
    if u.clients[client.id] then
      n = n + 1
    end
  end
  return n
end

--- Whether any unnamed buffer is mirrored.
---@return boolean
function M.any()
  return next(untitled) ~= nil
end

local function untitled_eligible(bufnr)
  return config.options.untitled
    and api.nvim_buf_is_valid(bufnr)
    and api.nvim_buf_is_loaded(bufnr)
    and vim.bo[bufnr].buftype == ''
    and api.nvim_buf_get_name(bufnr) == ''
end

local function buffer_text(bufnr)
  local text = table.concat(api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  if vim.bo[bufnr].eol then
    text = text .. '\n'
  end
  return text
end

local function language_of(bufnr)
  local ft = vim.bo[bufnr].filetype
  return ft ~= '' and ft or 'plaintext'
end

local function open_on(client, bufnr)
  local u = untitled[bufnr]
  if not u or u.clients[client.id] or not client.initialized or client:is_stopped() then
    return
  end
  u.clients[client.id] = true
  client:notify('textDocument/didOpen', {
    textDocument = { uri = u.uri, languageId = u.language, version = u.version, text = buffer_text(bufnr) },
  })
end

--- Opens every mirrored unnamed buffer on `client` (a client that has just started).
---@param client vim.lsp.Client
function M.open_all(client)
  for bufnr in pairs(untitled) do
    open_on(client, bufnr)
  end
end

--- Forgets on which clients the unnamed buffers are open (the clients were stopped).
function M.forget_clients()
  for _, u in pairs(untitled) do
    u.clients = {}
  end
end

--- Closes the mirror of `bufnr`, if it has one.
---@param bufnr integer
function M.close(bufnr)
  local u = untitled[bufnr]
  if not u then
    return
  end
  untitled[bufnr] = nil
  for _, client in ipairs(discovery.clients()) do
    if u.clients[client.id] and not client:is_stopped() then
      client:notify('textDocument/didClose', { textDocument = { uri = u.uri } })
    end
  end
  M.events.closed(bufnr)
end

--- Opens, reopens (a new filetype) or closes the mirror of `bufnr` as the buffer now is.
---@param bufnr integer
function M.sync(bufnr)
  local u = untitled[bufnr]
  if not untitled_eligible(bufnr) then
    M.close(bufnr)
    return
  end
  if u then
    if u.language ~= language_of(bufnr) then
      M.close(bufnr)
      M.sync(bufnr)
    end
    return
  end
  -- An empty, unchanged unnamed buffer (Neovim's start-up buffer, a fresh `:enew`) is not a
  -- text editor yet.
  local empty = api.nvim_buf_line_count(bufnr) == 1 and api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] == ''
  if empty and not vim.bo[bufnr].modified then
    return
  end
  untitled[bufnr] = {
    uri = 'untitled:Untitled-' .. bufnr,
    version = api.nvim_buf_get_changedtick(bufnr),
    language = language_of(bufnr),
    clients = {},
  }
  for _, client in ipairs(discovery.clients()) do
    open_on(client, bufnr)
  end
  discovery.ensure_client()
end

--- Syncs the mirror of `bufnr` and, when that made it start or stop being a text editor, says
--- so (events.changed).
---@param bufnr integer
function M.update(bufnr)
  local was = M.is_untitled(bufnr)
  M.sync(bufnr)
  if was ~= M.is_untitled(bufnr) then
    M.events.changed(bufnr)
  end
end

--- Watches an unnamed buffer's lines: the first text opens its mirror, later changes are sent
--- as the whole text (in the change itself, so they reach Locus before the cursor that follows).
---@param bufnr integer
function M.watch(bufnr)
  if watched[bufnr] or not untitled_eligible(bufnr) then
    return
  end
  watched[bufnr] = true
  api.nvim_buf_attach(bufnr, false, {
    on_lines = function(_, b, tick)
      local u = untitled[b]
      if not untitled_eligible(b) then
        watched[b] = nil
        vim.schedule(function()
          M.update(b)
        end)
        return true
      end
      if not u then
        vim.schedule(function()
          M.update(b)
        end)
        return
      end
      u.version = tick
      local text = buffer_text(b)
      for _, client in ipairs(discovery.clients()) do
        if u.clients[client.id] then
          client:notify('textDocument/didChange', {
            textDocument = { uri = u.uri, version = tick },
            contentChanges = { { text = text } },
          })
        end
      end
    end,
    on_reload = function(_, b)
      vim.schedule(function()
        M.close(b)
        M.update(b)
      end)
    end,
    on_detach = function(_, b)
      watched[b] = nil
      vim.schedule(function()
        M.close(b)
        M.events.detached(b)
      end)
    end,
  })
end

return M
