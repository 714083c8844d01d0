-- Run at start-up from 'runtimepath': defines `:Locus`, so it works (and completes) before
-- require('locus').setup(). Nothing else loads and no server starts until the command runs or
-- setup() is called; setup() defines the same command again, which replaces this one.

if vim.g.loaded_locus then
  return
end
vim.g.loaded_locus = true

require('locus.commands').create()
