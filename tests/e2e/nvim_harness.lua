-- What the Neovim e2e sessions share (nvim_session.lua, nvim_ux_session.lua,
-- nvim_actions_session.lua): they record what they observe, step by step, and write it to
-- $LOCUS_E2E_OUT as JSON when they end; an error ends the session with its traceback recorded
-- and Neovim's exit status 1 (tests/e2e/nvim_common.py's run_session reports both).
-- A session loads it from its own folder:
--   local harness = dofile(vim.fs.joinpath(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)), 'nvim_harness.lua'))

local M = {}

local out = { steps = {} }

-- Records `value` under `name` (a nil value as JSON null), and `name` as the next step.
function M.record(name, value)
  out[name] = value == nil and vim.NIL or value
  table.insert(out.steps, name)
end

local function finish(code)
  local f = assert(io.open(assert(os.getenv('LOCUS_E2E_OUT')), 'w'))
  f:write(vim.json.encode(out))
  f:close()
  vim.cmd((code == 0 and 'qall!') or ('cquit! ' .. code))
end

-- Runs the session `body`, then writes what it recorded and quits Neovim: with status 0, or
-- with the error recorded and status 1.
function M.run(body)
  local ok, err = xpcall(body, debug.traceback)
  if not ok then
    M.record('error', tostring(err))
    finish(1)
  else
    finish(0)
  end
end

-- The Locus plugin of $LOCUS_PLUGIN_DIR, set up with `opts`.
function M.locus(opts)
  vim.opt.runtimepath:prepend(assert(os.getenv('LOCUS_PLUGIN_DIR')))
  local locus = require('locus')
  locus.setup(opts)
  return locus
end

-- What `locus/getContext` answers now (`params` default: none), from the active editor's client.
function M.context(locus, params)
  local c = assert(locus.client(), 'no locus client')
  local r = c:request_sync('locus/getContext', params or vim.empty_dict(), 10000, 0)
  assert(r and not r.err, 'getContext failed: ' .. vim.inspect(r))
  return r.result
end

return M
