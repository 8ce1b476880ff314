-- The rlm-plan language server in Neovim's built-in LSP client (Neovim 0.7 and later; tested on
-- Debian's 0.7.2 by test/neovim/neovim.test.ts). The part between the two "configuration" lines
-- is the editor configuration server/README.md shows (the test checks that it still does): copy
-- it into your init.lua. The test driver at the end runs only when the test sets
-- RLM_PLAN_NVIM_OUT: it waits for the diagnostics, asks for a hover, runs a plan from its lens,
-- asks for a hover and completion in the host profile, writes all of it as JSON and quits.
--
--   nvim --headless --noplugin -n -i NONE -u test/neovim/init.lua plans/broken.rlmplan.json

-- ---- configuration ----
-- The server: the package's bin on PATH. From a checkout, set this first:
--   vim.g.rlm_plan_cmd = { 'node', '/path/to/rlm-plan/server/bin/rlm-plan-language-server.js', '--stdio' }
local cmd = vim.g.rlm_plan_cmd or { 'rlm-plan-language-server', '--stdio' }

-- Plans get their own filetype (the server knows the language id `rlm-plan`) and JSON syntax.
-- An autocmd, not vim.filetype.add, which Neovim 0.7 ignores unless g:do_filetype_lua = 1.
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { '*.rlmplan.json', '*.rlmplan' },
  callback = function(args)
    vim.bo[args.buf].filetype = 'rlm-plan'
    vim.bo[args.buf].syntax = 'json'
  end,
})

-- The workspace root: the nearest folder above the file with rlmplan.host.json, or with .git.
local function root_of(buf)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':p:h')
  local host = vim.fn.findfile('rlmplan.host.json', dir .. ';')
  if host ~= '' then return vim.fn.fnamemodify(host, ':p:h') end
  local git = vim.fn.finddir('.git', dir .. ';')
  if git ~= '' then return vim.fn.fnamemodify(git, ':p:h:h') end
  return dir
end

-- The "▶ Run plan" code lens (titled with the plan's worst case), asked for once the server is
-- attached to the buffer (Neovim 0.7 never answers a refresh asked before that, nor any after it)
-- and kept current. Run it with :lua vim.lsp.codelens.run() with the cursor on its line.
local function rlm_plan_lenses(_, buf)
  local refresh = function() vim.api.nvim_buf_call(buf, vim.lsp.codelens.refresh) end
  refresh()
  vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave' }, { buffer = buf, callback = refresh })
end

-- One server per root, attached to plans, and to host profiles and test files (*.rlmplan.test.json:
-- diagnostics, hover, completion, a lens per case), which stay filetype json.
local rlm_plan_clients = {}
local function rlm_plan_attach(buf)
  local root = root_of(buf)
  if not rlm_plan_clients[root] then
    rlm_plan_clients[root] = vim.lsp.start_client({
      name = 'rlm-plan',
      cmd = cmd,
      root_dir = root,
      on_attach = rlm_plan_lenses,
      -- The `rlmPlan` section: hostProfile, hostProblemsAsErrors, validationDelay.
      settings = { rlmPlan = { hostProblemsAsErrors = false } },
    })
  end
  vim.lsp.buf_attach_client(buf, rlm_plan_clients[root])
end
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'rlm-plan',
  callback = function(args) rlm_plan_attach(args.buf) end,
})
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { 'rlmplan.host.json', '*.rlmplan.test.json' },
  callback = function(args) rlm_plan_attach(args.buf) end,
})
-- ---- end of configuration ----

-- ---- test driver (only with RLM_PLAN_NVIM_OUT) ----------------------------------------------------

local out_path = os.getenv('RLM_PLAN_NVIM_OUT')
if not out_path then return end

-- What the server says with standard messages (a run's transitions and outcome), recorded.
local shown, logged = {}, {}
vim.lsp.handlers['window/showMessage'] = function(_, result) table.insert(shown, result) end
vim.lsp.handlers['window/logMessage'] = function(_, result) table.insert(logged, result.message) end

local function request(buf, method, params, timeout)
  local responses = vim.lsp.buf_request_sync(buf, method, params, timeout or 5000)
  for _, response in pairs(responses or {}) do
    if response.result ~= nil then return response.result end
  end
  return vim.NIL
end

local function position_from(prefix)
  return {
    line = tonumber(os.getenv(prefix .. '_LINE') or '0'),
    character = tonumber(os.getenv(prefix .. '_CHARACTER') or '0'),
  }
end

-- The "▶ Run plan" lens of a plan that runs, run as server/README.md tells users to: once the lens
-- shows, with the cursor on its line, :lua vim.lsp.codelens.run(). What Neovim says (a notice, a
-- picker between lenses) and the command's answer are recorded.
local notified, picked, answered = {}, {}, vim.NIL
vim.notify = function(message) table.insert(notified, message) end
vim.ui.select = function(items, _, on_choice)
  table.insert(picked, #items)
  on_choice(nil)
end
local execute_handler = vim.lsp.handlers['workspace/executeCommand']
vim.lsp.handlers['workspace/executeCommand'] = function(err, result, ctx, config)
  answered = result
  return execute_handler(err, result, ctx, config)
end

local function run_lens(file)
  vim.cmd('edit ' .. file)
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(8000, function() return #vim.lsp.codelens.get(buf) > 0 end, 20)
  local lenses = vim.lsp.codelens.get(buf)
  if #lenses > 0 then
    vim.api.nvim_win_set_cursor(0, { lenses[1].range.start.line + 1, 0 })
    vim.lsp.codelens.run()
    vim.wait(10000, function() return (#shown > 0 and answered ~= vim.NIL) or #notified > 0 or #picked > 0 end, 20)
  end
  return { lenses = lenses, result = answered, notified = notified, picked = picked, shown = shown, logged = logged }
end

-- Hover on a host profile key and completion of keys inside its budget object.
local function host_profile()
  vim.cmd('edit rlmplan.host.json')
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(8000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 20)
  local uri = vim.uri_from_bufnr(buf)
  local hover = request(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = position_from('RLM_PLAN_HOST_HOVER') })
  local completion = request(buf, 'textDocument/completion', { textDocument = { uri = uri }, position = position_from('RLM_PLAN_HOST_COMPLETE') })
  local labels = {}
  local items = completion ~= vim.NIL and (completion.items or completion) or {}
  for _, item in ipairs(items) do table.insert(labels, item.label) end
  return { hover = hover ~= vim.NIL and hover.contents or vim.NIL, completion = labels }
end

-- A test file: the clients attached and its diagnostics (Neovim's view).
local function test_file(file)
  vim.cmd('edit ' .. file)
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(8000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  local diagnostics, attached = {}, {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity, code = d.code, message = d.message })
  end
  for _, client in pairs(vim.lsp.buf_get_clients(buf)) do table.insert(attached, client.name) end
  return { filetype = vim.bo[buf].filetype, clients = attached, diagnostics = diagnostics }
end

local function finish()
  local buf = vim.api.nvim_get_current_buf()
  -- The server publishes every problem of a version at once: the first non-empty list is all.
  local waited = vim.wait(8000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  local hover = request(buf, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position_from('RLM_PLAN_HOVER'),
  })
  if hover ~= vim.NIL then hover = hover.contents end
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = d.code, source = d.source, message = d.message,
    })
  end
  local attached = {}
  for _, client in pairs(vim.lsp.buf_get_clients(buf)) do table.insert(attached, client.name) end
  local filetype = vim.bo[buf].filetype
  local run = run_lens(os.getenv('RLM_PLAN_RUN_PLAN'))
  local host = host_profile()
  local tested = test_file(os.getenv('RLM_PLAN_TEST_FILE'))
  local json = vim.fn.json_encode({
    test_file = tested,
    waited = waited,
    filetype = filetype,
    clients = attached,
    diagnostics = diagnostics,
    hover = hover,
    run = run,
    host = host,
  })
  local file = io.open(out_path, 'w')
  file:write(json .. '\n')
  file:close()
  for _, id in pairs(rlm_plan_clients) do vim.lsp.stop_client(id) end
  vim.cmd((waited and hover ~= vim.NIL) and 'qa!' or 'cq')
end

vim.api.nvim_create_autocmd('VimEnter', { callback = function() vim.schedule(finish) end })
