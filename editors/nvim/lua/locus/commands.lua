-- The `:Locus` user command: `:Locus` (the scope chain at the cursor and file:line),
-- `:Locus status`, `:Locus restart`, `:Locus accept` and `:Locus reject` (a proposed change,
-- lua/locus/review.lua), their completion and how they print. This module loads
-- nothing else until the command runs, so plugin/locus.lua can define the command at start-up.

local M = {}

local api = vim.api

local function echo(lines, hl)
  local chunks = {}
  for i, l in ipairs(lines) do
    table.insert(chunks, { l .. (i < #lines and '\n' or ''), hl })
  end
  api.nvim_echo(chunks, true, {})
end

local subcommands = {
  status = function()
    echo(require('locus').status_lines())
  end,
  accept = function()
    require('locus.review').decide(true)
  end,
  reject = function()
    require('locus.review').decide(false)
  end,
  restart = function()
    if require('locus').restart() then
      echo({ 'locus: restarted' })
    end
  end,
}

--- Runs `:Locus [subcommand]`.
---@param opts vim.api.keyset.create_user_command.command_args
function M.run(opts)
  local sub = opts.fargs[1]
  if not sub then
    local text, err = require('locus').describe()
    if text then
      echo({ text })
    else
      echo({ err }, 'WarningMsg')
    end
    return
  end
  local f = subcommands[sub]
  if not f then
    echo({ ('locus: unknown subcommand `%s` (status, restart, accept, reject)'):format(sub) }, 'ErrorMsg')
    return
  end
  f()
end

--- The subcommands that start with `lead`.
---@param lead string
---@return string[]
function M.complete(lead)
  return vim.tbl_filter(function(s)
    return s:find(lead, 1, true) == 1
  end, vim.tbl_keys(subcommands))
end

--- Defines `:Locus` (again: a second definition replaces the first).
function M.create()
  api.nvim_create_user_command('Locus', M.run, {
    nargs = '?',
    complete = M.complete,
    desc = 'Locus: the scope chain at the cursor; `status`; `restart`; `accept`, `reject` a proposed change',
  })
end

return M
