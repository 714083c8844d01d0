import assert from 'node:assert/strict';
import { test } from 'node:test';

import { apiSupport } from '../src/apis';

// Stand-ins for the API surface of the `vscode` module (this test runs without VS Code).
class LanguageModelToolResult {}
class LanguageModelTextPart {}
class McpHttpServerDefinition {}
const registerTool = () => ({ dispose() {} });
const registerMcpServerDefinitionProvider = () => ({ dispose() {} });

test('a VS Code with both APIs: tools and the MCP server definition provider, nothing logged', () => {
  const r = apiSupport({
    version: '1.139.1',
    lm: { registerTool, registerMcpServerDefinitionProvider },
    LanguageModelToolResult, LanguageModelTextPart, McpHttpServerDefinition,
  });
  assert.deepEqual(r, { tools: true, mcpProvider: true, missing: [] });
});

test('VS Code 1.82 (no vscode.lm at all): one clear line for each API, saying what still works', () => {
  const r = apiSupport({ version: '1.82.0' });
  assert.equal(r.tools, false);
  assert.equal(r.mcpProvider, false);
  assert.equal(r.missing.length, 2);
  assert.match(r.missing[0], /^this VS Code \(1\.82\.0\) has no vscode\.lm\.registerTool: .*MCP clients still reach them$/);
  assert.match(r.missing[1], /^this VS Code \(1\.82\.0\) has no vscode\.lm\.registerMcpServerDefinitionProvider: .*\.vscode\/mcp\.json/);
});

test('tools without the MCP provider (VS Code 1.95 to 1.100): the tools still register', () => {
  const r = apiSupport({ version: '1.99.0', lm: { registerTool }, LanguageModelToolResult, LanguageModelTextPart });
  assert.equal(r.tools, true);
  assert.equal(r.mcpProvider, false);
  assert.deepEqual(r.missing.map((m) => m.includes('registerMcpServerDefinitionProvider')), [true]);
});

test('the MCP provider without the tool API (a build that left it out): the provider still registers', () => {
  const r = apiSupport({ version: '1.105.0-vscodium', lm: { registerMcpServerDefinitionProvider }, McpHttpServerDefinition });
  assert.equal(r.tools, false);
  assert.equal(r.mcpProvider, true);
  assert.deepEqual(r.missing.map((m) => m.includes('vscode.lm.registerTool')), [true]);
});

test('a function without the classes it needs (or a non-function) counts as missing', () => {
  const r = apiSupport({ version: '1.96.0', lm: { registerTool, registerMcpServerDefinitionProvider: true } , LanguageModelToolResult });
  assert.deepEqual([r.tools, r.mcpProvider, r.missing.length], [false, false, 2]);
});
