-- The `:Locus` user command: `:Locus` (the scope chain at the cursor and file:line),
-- `:Locus status`, `:Locus restart`, `:Locus mention` (lines to an agent's prompt), `:Locus accept`
-- and `:Locus reject` (a proposed change, lua/locus/review.lua), their completion and how they print. This module loads
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
  -- The lines given (`:'<,'>Locus mention`), else the cursor's, sent to the prompt of the agent
  -- connected through its IDE channel (Claude Code's `@file#L1-2`).
  mention = function(opts)
    local locus = require('locus')
    local bufnr = api.nvim_get_current_buf()
    local client = locus.client(bufnr)
    if not client then
      echo({ 'locus: Locus does not serve this buffer' }, 'WarningMsg')
      return
    end
    local line1, line2 = opts.line1, opts.line2
    if opts.range == 0 then
      line1 = api.nvim_win_get_cursor(0)[1]
      line2 = line1
    end
    local arg = {
      path = api.nvim_buf_get_name(bufnr),
      line = line1,
      column = 1,
      selection = { startLine = line1, endLine = line2 },
    }
    client:request('workspace/executeCommand', { command = 'locus.mention', arguments = { arg } }, function(err, result)
      if err then
        echo({ 'locus: ' .. (err.message or tostring(err)) }, 'WarningMsg')
      elseif result and result.agents == 0 then
        echo({ 'locus: no agent is connected to take the mention' }, 'WarningMsg')
      end
    end, bufnr)
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
  if f and opts.range > 0 and sub ~= 'mention' then
    echo({ ('locus: `:Locus %s` takes no range'):format(sub) }, 'ErrorMsg')
    return
  end
  if not f then
    echo({ ('locus: unknown subcommand `%s` (status, restart, mention, accept, reject)'):format(sub) }, 'ErrorMsg')
    return
  end
  f(opts)
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
    range = true,
    complete = M.complete,
    desc = 'Locus: the scope chain at the cursor; `status`; `restart`; `mention` lines to an agent; `accept`, `reject` a proposed change',
  })
end

return M
