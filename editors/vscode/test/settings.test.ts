import assert from 'node:assert/strict';
import { test } from 'node:test';

import { mcpPort, serverCommand } from '../src/settings';

test('locus.mcp.port takes 0 to 65535 and refuses the rest, saying so', () => {
  assert.deepEqual(mcpPort(0), { port: 0 });
  assert.deepEqual(mcpPort(65535), { port: 65535 });
  assert.deepEqual(mcpPort(undefined), { port: 0 });
  assert.deepEqual(mcpPort('8123'), { port: 8123 });
  for (const bad of [-1, 65536, 1.5, 'abc', true, {}]) {
    const r = mcpPort(bad);
    assert.equal(r.port, 0);
    assert.match(r.problem!.message, /locus\.mcp\.port must be a whole number from 0 to 65535/);
    assert.match(r.problem!.message, new RegExp(JSON.stringify(bad).replace(/[{}.]/g, '\\$&')));
  }
});

const exe = (ok: string[]) => (p: string) => ok.includes(p);

test('the bundled binary by default, with the MCP port', () => {
  const r = serverCommand({ path: '', mcpEnabled: true, mcpPort: 4321 }, '/ext/bin/locus', exe(['/ext/bin/locus']));
  assert.deepEqual(r.settings, { command: '/ext/bin/locus', args: ['lsp', '--mcp-port', '4321'] });
  assert.deepEqual(r.problems, []);
});

test('locus.path wins; MCP off is --no-mcp', () => {
  const r = serverCommand({ path: '/usr/bin/locus', mcpEnabled: false, mcpPort: 99999 }, '/ext/bin/locus', exe(['/usr/bin/locus', '/ext/bin/locus']));
  assert.deepEqual(r.settings, { command: '/usr/bin/locus', args: ['lsp', '--no-mcp'] });
  assert.deepEqual(r.problems, []);
});

test('a locus.path that cannot run is reported, and the bundled binary used', () => {
  const r = serverCommand({ path: '/nope/locus', mcpEnabled: true, mcpPort: 0 }, '/ext/bin/locus', exe(['/ext/bin/locus']));
  assert.equal(r.settings?.command, '/ext/bin/locus');
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0].message, /locus\.path "\/nope\/locus" is not an executable file; using the binary shipped/);
});

test('no binary at all is a problem, and nothing starts', () => {
  const r = serverCommand({ path: '', mcpEnabled: true, mcpPort: 0 }, undefined, exe([]));
  assert.equal(r.settings, undefined);
  assert.match(r.problems[0].message, /no locus binary for this platform; set locus\.path/);
});

test('a bad port starts on a random one and says so', () => {
  const r = serverCommand({ path: '', mcpEnabled: true, mcpPort: 70000 }, '/b', exe(['/b']));
  assert.deepEqual(r.settings?.args, ['lsp', '--mcp-port', '0']);
  assert.equal(r.problems[0].setting, 'locus.mcp.port');
});

test('locus.mcp.tools becomes --tools; empty offers every tool', () => {
  const raw = { path: '', mcpEnabled: true, mcpPort: 0 };
  const r = serverCommand({ ...raw, mcpTools: ['editor', 'symbol', '-symbol_search'] }, '/b', exe(['/b']));
  assert.deepEqual(r.settings?.args, ['lsp', '--mcp-port', '0', '--tools', 'editor,symbol,-symbol_search']);
  assert.deepEqual(serverCommand({ ...raw, mcpTools: [] }, '/b', exe(['/b'])).settings?.args, ['lsp', '--mcp-port', '0']);
  const bad = serverCommand({ ...raw, mcpTools: ['editor', 'debug start', 3] }, '/b', exe(['/b']));
  assert.deepEqual(bad.settings?.args, ['lsp', '--mcp-port', '0']);
  assert.match(bad.problems[0].message, /locus\.mcp\.tools takes families .* not \["debug start",3\]; offering every tool/);
});
