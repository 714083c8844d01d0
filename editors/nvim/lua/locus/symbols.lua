-- Symbol forwarding: the document symbols the buffer's other language servers compute, asked
-- for after edits settle and sent to Locus as locus/didChangeSymbols.

local M = {}

local api = vim.api
local config = require('locus.config')
local mirror = require('locus.mirror')

-- Buffer -> the timer that debounces its next request.
local timers = {}

--- Asks the buffer's other language servers for document symbols and forwards them.
---@param bufnr integer
function M.send(bufnr)
  local locus = mirror.client(bufnr)
  if not locus or not api.nvim_buf_is_valid(bufnr) or mirror.is_untitled(bufnr) then
    return
  end
  for _, other in ipairs(vim.lsp.get_clients({ bufnr = bufnr, method = 'textDocument/documentSymbol' })) do
    if other.name ~= config.options.name then
      local version = mirror.version(bufnr)
      local uri = vim.uri_from_bufnr(bufnr)
      other:request('textDocument/documentSymbol', { textDocument = { uri = uri } }, function(err, result)
        if err or type(result) ~= 'table' then
          return
        end
        locus:notify('locus/didChangeSymbols', {
          textDocument = { uri = uri, version = version },
          symbols = result,
          positionEncoding = other.offset_encoding,
        })
      end, bufnr)
      return
    end
  end
end

--- Forwards the symbols of `bufnr` after `symbols_debounce` ms of quiet (when `symbols` is on).
---@param bufnr integer
function M.schedule(bufnr)
  if not config.options.symbols then
    return
  end
  local timer = timers[bufnr]
  if timer then
    timer:stop()
  else
    timer = assert(vim.uv.new_timer())
    timers[bufnr] = timer
  end
  timer:start(config.options.symbols_debounce, 0, vim.schedule_wrap(function()
    M.send(bufnr)
  end))
end

--- Drops the timer of `bufnr` (the buffer was deleted).
---@param bufnr integer
function M.forget(bufnr)
  local timer = timers[bufnr]
  if timer then
    timer:stop()
    timer:close()
    timers[bufnr] = nil
  end
end

return M
