-- The options of require('locus').setup(): their type, their defaults, and the values in force,
-- which every other module reads from here.

local M = {}

---@class locus.Config
---@field name string The name of the LSP client and of its vim.lsp.config entry.
---@field cmd string[]|fun(dispatchers: vim.lsp.rpc.Dispatchers): vim.lsp.rpc.PublicClient How to start `locus lsp`.
---@field filetypes? string[] The filetypes Locus attaches to; nil: every file, those with no filetype included.
---@field root_markers string[] What marks a workspace's root.
---@field symbols boolean Forward the document symbols of the buffer's other language servers.
---@field symbols_debounce integer Milliseconds of quiet after an edit before symbols are asked for again.
---@field statusline boolean Keep the context at the cursor for statusline() and winbar().
---@field refresh_debounce integer Milliseconds of quiet after a cursor move before the context is asked for again.
---@field untitled boolean Mirror unnamed buffers as `untitled:Untitled-N` documents once they have text.
---@field actions boolean Let agents act through Neovim (editor actions, lua/locus/actions.lua).
---@field actions_save boolean Write the buffers an action edited that had no unsaved changes before.
---@field tools? string[] The tools agents are offered (`locus lsp --tools`): families and tool names, `-name` to remove one; nil: all.

--- What setup() takes: any of the options of locus.Config; the others keep their values.
---@class locus.Opts
---@field name? string
---@field cmd? string[]|fun(dispatchers: vim.lsp.rpc.Dispatchers): vim.lsp.rpc.PublicClient
---@field filetypes? string[]
---@field root_markers? string[]
---@field symbols? boolean
---@field symbols_debounce? integer
---@field statusline? boolean
---@field refresh_debounce? integer
---@field untitled? boolean
---@field actions? boolean
---@field actions_save? boolean
---@field tools? string[]

--- The options in force: the defaults until setup() merges the user's over them. The table
--- stays the same one (`require('locus').config` is it), so readers always see the values.
---@type locus.Config
M.options = {
  name = 'locus',
  cmd = { 'locus', 'lsp' },
  -- nil: every filetype.
  filetypes = nil,
  root_markers = { '.git', '.hg', '.jj' },
  -- Forward symbols from the buffer's other language servers (locus/didChangeSymbols).
  symbols = true,
  -- Milliseconds of quiet after an edit before symbols are asked for again.
  symbols_debounce = 300,
  -- Keep the context of the cursor for statusline() and winbar(), refreshed after cursor moves
  -- and edits (the redraw happens when Locus's answer arrives).
  statusline = true,
  -- Milliseconds of quiet after a cursor move before the context is asked for again.
  refresh_debounce = 80,
  -- Mirror unnamed buffers (`:enew`) as `untitled:Untitled-N` documents once they have text.
  untitled = true,
  -- Let agents act through Neovim (editor actions: symbol_rename, file_rename, editor_open_file,
  -- diagnostic_collect); see lua/locus/actions.lua.
  actions = true,
  -- After an action's edits, write the buffers it changed that had no unsaved changes before
  -- (as VS Code saves a refactoring's files); false leaves every edited buffer unsaved.
  actions_save = true,
  -- The tools agents are offered, as `locus lsp --tools`: families (editor, symbol, dialog,
  -- debug, system) and tool names, '-name' to remove one. nil: every tool.
  tools = nil,
}

--- Merges `opts` over the options in force (a second setup() merges over the first).
---@param opts? locus.Opts
---@return locus.Config
function M.apply(opts)
  local merged = vim.tbl_deep_extend('force', M.options, opts or {})
  for k, v in pairs(merged) do
    M.options[k] = v
  end
  return M.options
end

return M
