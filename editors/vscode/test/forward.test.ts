// Forwarding against a real `locus lsp` (the binary of $LOCUS_BIN, else target/debug/locus):
// the extension's MCP path answers what `locus call` answers.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { discoveryDir, Forwarder, readDiscovery } from '../src/forward';

const repo = path.resolve(__dirname, '../../../..');
const bin = process.env.LOCUS_BIN ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(repo, 'target'), 'debug', 'locus');

function frame(msg: object): string {
  const body = JSON.stringify(msg);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

test('discovery folder as locus computes it, on each system', () => {
  assert.equal(discoveryDir({ XDG_RUNTIME_DIR: '/run/user/1' }, 'linux'), '/run/user/1/locus');
  assert.equal(discoveryDir({ XDG_RUNTIME_DIR: '/r', TMPDIR: '/var/folders/x/T/' }, 'darwin'), '/var/folders/x/T/locus');
  assert.equal(discoveryDir({ LOCALAPPDATA: 'C:/Users/u/AppData/Local' }, 'win32'), path.join('C:/Users/u/AppData/Local', 'locus', 'run'));
});

test('tool calls forwarded over MCP answer what locus call answers', { timeout: 60000 }, async () => {
  assert.ok(fs.existsSync(bin), `no locus binary at ${bin}: cargo build -p locus-server, or set LOCUS_BIN`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'locus-vscode-forward-'));
  const runtime = path.join(tmp, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(tmp, 'ws-')));
  const file = path.join(ws, 'a.ts');
  fs.writeFileSync(file, 'class A {\n  m() {\n    return 1;\n  }\n}\n');
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
  const child = spawn(bin, ['lsp', '--mcp-port', '0'], { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const uri = `file://${file}`;
  try {
    child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: `file://${ws}`, workspaceFolders: [{ uri: `file://${ws}`, name: 'ws' }], capabilities: { experimental: { locus: { cursor: true } } }, clientInfo: { name: 'Visual Studio Code' } } }));
    const deadline = Date.now() + 10000;
    while (!out.includes('"id":1') && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    assert.ok(out.includes('"id":1'), `no answer to initialize: ${out}`);
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'typescript', version: 1, text: fs.readFileSync(file, 'utf8') } } }));
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'locus/didChangeActiveEditor', params: { textDocument: { uri }, focused: true } }));
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'locus/didChangeCursor', params: { textDocument: { uri, version: 1 }, position: { line: 2, character: 4 } } }));
    // The server names its discovery file in locus/mcpStatus.
    const statusDeadline = Date.now() + 10000;
    while (!out.includes('locus/mcpStatus') && Date.now() < statusDeadline) await new Promise((res) => setTimeout(res, 20));
    const status = out.split(/Content-Length: \d+\r\n\r\n/).map((b) => { try { return JSON.parse(b); } catch { return undefined; } }).find((m) => m?.method === 'locus/mcpStatus');
    assert.equal(status?.params?.discoveryFile, path.join(runtime, 'locus', `${child.pid}.json`), out);
    const d = await readDiscovery(child.pid!, 10000, env, status.params.discoveryFile);
    const f = new Forwarder(async () => d, 'forward-test');
    const tools = await f.listTools();
    assert.ok(tools.some((t) => t.name === 'editor_get_context'));
    const viaExtension = await f.call('editor_get_context', {}, 10000);
    assert.equal(viaExtension.isError, false);
    const ctx = (viaExtension.envelope as any).editorContext;
    assert.ok(ctx?.file, JSON.stringify(viaExtension));
    assert.equal(ctx.file.path, file);
    assert.equal(ctx.symbols.scopeHierarchy, 'Class:A > Method:m');
    const cli = JSON.parse(execFileSync(bin, ['call', 'editor_get_context'], { cwd: ws, env, encoding: 'utf8', timeout: 20000 }));
    assert.deepEqual((viaExtension.envelope as any).editorContext, cli.editorContext);
    assert.deepEqual((viaExtension.envelope as any).data, cli.data);
    // A bad call answers its error envelope through both paths alike.
    const bad = await f.call('symbol_scope_at', { path: 'a.ts' }, 10000);
    assert.equal(bad.isError, true);
    assert.equal((bad.envelope as any).error.code, 'E_INVALID_PARAMS');
    await f.close();
    child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
    await new Promise<void>((res) => {
      const t = setTimeout(() => {
        child.kill();
        res();
      }, 5000);
      child.on('exit', () => {
        clearTimeout(t);
        res();
      });
    });
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
