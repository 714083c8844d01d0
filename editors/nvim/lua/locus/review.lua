-- Agents' proposed edits, reviewed in Neovim (the `edit.propose` and `edit.propose.close` editor
-- actions, docs/reference/lsp.md): a new tab page shows the file beside the proposal in diff
-- mode. The proposal is a buffer of its own that the user may edit; `:w` in it or
-- `:Locus accept` accepts it as it stands, `:Locus reject` or closing its window rejects it.
-- Nothing is written to the file: the accepted text goes back to the agent, which writes it.

local M = {}

local api = vim.api

--- The open reviews by id: `{buf, tab, finish}`.
---@type table<string, {buf: integer, tab: integer, finish: fun(accepted: boolean)}>
M.open = {}

--- The review whose proposal or file is shown in the current tab page.
local function current()
  local tab = api.nvim_get_current_tabpage()
  for id, r in pairs(M.open) do
    if r.tab == tab then
      return id, r
    end
  end
end

--- Shows the proposal `p` ({id, uri, newText, title}) and calls `done(answer)` once the user
--- decided: `{accepted = true, text}` or `{accepted = false}`.
function M.show(p, done)
  if M.open[p.id] then
    M.close(p.id)
  end
  local fname = vim.uri_to_fname(p.uri)
  vim.cmd.tabnew(vim.fn.fnameescape(fname))
  local tab = api.nvim_get_current_tabpage()
  local file_win = api.nvim_get_current_win()
  local ft = vim.bo.filetype
  vim.cmd.diffthis()
  vim.cmd('rightbelow vnew')
  local buf = api.nvim_get_current_buf()
  local lines = vim.split(p.newText, '\n', { plain = true })
  local trailing_newline = lines[#lines] == ''
  if trailing_newline then
    table.remove(lines)
  end
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = 'acwrite'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = ft
  vim.bo[buf].modified = false
  pcall(api.nvim_buf_set_name, buf, ('locus-review://%s'):format(p.title or fname))
  vim.cmd.diffthis()
  local finished = false
  local function finish(accepted)
    if finished then
      return
    end
    finished = true
    local text
    if accepted then
      text = table.concat(api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. (trailing_newline and '\n' or '')
    end
    M.open[p.id] = nil
    if api.nvim_tabpage_is_valid(tab) and #api.nvim_list_tabpages() > 1 then
      pcall(vim.cmd.tabclose, api.nvim_tabpage_get_number(tab))
    end
    done(accepted and { accepted = true, text = text } or { accepted = false })
  end
  M.open[p.id] = { buf = buf, tab = tab, finish = finish }
  api.nvim_create_autocmd('BufWriteCmd', {
    buffer = buf,
    callback = function()
      finish(true)
    end,
  })
  api.nvim_create_autocmd({ 'BufWipeout', 'BufHidden' }, {
    buffer = buf,
    callback = function()
      vim.schedule(function()
        finish(false)
      end)
    end,
  })
  api.nvim_win_set_cursor(file_win, { 1, 0 })
  api.nvim_echo({ { ('Locus: %s proposes this change; :w (or :Locus accept) accepts it, :Locus reject rejects it'):format(p.title or 'an agent') } }, false, {})
end

--- Withdraws the review `id` (its agent went away or decided elsewhere): rejected.
function M.close(id)
  local r = M.open[id]
  if r then
    r.finish(false)
  end
end

--- `:Locus accept` / `:Locus reject`: decides the review of the current tab page.
function M.decide(accepted)
  local id, r = current()
  if not id then
    api.nvim_echo({ { 'locus: no proposed change is shown in this tab page', 'WarningMsg' } }, true, {})
    return
  end
  r.finish(accepted)
end

return M
