// The Locus extension: starts `locus lsp` for the window (vscode-languageclient), reports the
// cursor, the selection, the active editor and its focus, and VS Code's own document symbols
// (docs/editors.md, docs/reference/lsp.md); registers Locus's tools with VS Code's agent and its
// MCP sidecar with VS Code; shows its URL in the status bar; does Locus's editor actions.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, State, type StaticFeature } from 'vscode-languageclient/node';

import { EDITOR_ACTIONS, editorAction } from './actions';
import { apiSupport, NO_MCP_PROVIDER, type VsCodeApis } from './apis';
import { Throttle } from './convert';
import { Forwarder, readDiscovery, type Discovery } from './forward';
import { RESTART_SETTINGS, serverCommand } from './settings';
import * as review from './review';
import { agentSnippets } from './snippets';
import { SYMBOLS_SETTLE_MS, SymbolForwarder } from './symbols';
import { declaredTools, lmApi, registerTools, selfTest } from './tools';

/** The cursor reaches Locus at once, then at most every this many ms while it moves. */
const CURSOR_THROTTLE_MS = 30;

interface McpStatus {
  state: 'listening' | 'disabled' | 'failed';
  url?: string;
  port?: number;
  /** The server's discovery file (where it is differs by system). */
  discoveryFile?: string;
  message?: string;
}

let ext: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  ext = new Extension(context);
  await ext.start();
}

export async function deactivate(): Promise<void> {
  await ext?.dispose();
  ext = undefined;
}

const tracked = (doc: vscode.TextDocument): boolean => doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled';

class Extension {
  private readonly output: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private client: LanguageClient | undefined;
  private child: ChildProcess | undefined;
  private command: string | undefined;
  private mcp: McpStatus | undefined;
  private discovery: Discovery | undefined;
  private forwarder: Forwarder | undefined;
  private readonly registered = new Set<string>();
  private readonly declared: Map<string, string>;
  private readonly mcpChanged = new vscode.EventEmitter<void>();
  private starting: Promise<void> | undefined;
  private stopped = false;

  // What was last sent, so that only changes are sent.
  private activeSent: string | undefined;
  private cursorSent: string | undefined;
  private lastEditor: vscode.TextEditor | undefined;
  private windowFocused = vscode.window.state.focused;
  private terminalFocused = false;
  private readonly cursor: Throttle;
  private readonly symbols: SymbolForwarder<vscode.TextDocument>;
  private contextTimer: NodeJS.Timeout | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('Locus');
    this.status = vscode.window.createStatusBarItem('locus.status', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'Locus';
    this.status.command = 'locus.menu';
    this.status.text = 'Locus: starting';
    this.status.show();
    this.declared = declaredTools(context.extension.packageJSON);
    this.cursor = new Throttle(CURSOR_THROTTLE_MS, () => this.sendCursor());
    this.symbols = new SymbolForwarder<vscode.TextDocument>({
      client: () => this.running(),
      provide: (doc) => vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', doc.uri),
      log: (m) => this.log(m),
    });
    const subs = context.subscriptions;
    subs.push(this.output, this.status, this.mcpChanged);
    subs.push(
      vscode.commands.registerCommand('locus.menu', () => this.menu()),
      vscode.commands.registerCommand('locus.acceptProposal', () => review.decideActive(true)),
      vscode.commands.registerCommand('locus.rejectProposal', () => review.decideActive(false)),
      vscode.workspace.onDidCloseTextDocument((d) => review.onClosed(d)),
      vscode.window.onDidChangeActiveTextEditor(() => review.updateContext()),
      vscode.commands.registerCommand('locus.copyMcpUrl', () => this.copyUrl()),
      vscode.commands.registerCommand('locus.copyAgentSnippet', () => this.copySnippet()),
      vscode.commands.registerCommand('locus.restart', () => this.restart('restart asked for')),
      vscode.commands.registerCommand('locus.stop', () => this.stop()),
      vscode.commands.registerCommand('locus.showLog', () => this.output.show(true)),
      vscode.commands.registerCommand('locus.selfTest', () => selfTest(this.registered, this.declared, (m) => this.log(m))),
    );
    void vscode.commands.executeCommand('setContext', 'locus.selfTestEnabled', !!process.env.LOCUS_VSCODE_SELFTEST);
    subs.push(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (tracked(e.textEditor.document)) {
          this.terminalFocused = false;
          this.sendActive();
          this.cursor.fire();
          this.symbols.ifMissing(e.textEditor.document);
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e && tracked(e.document)) {
          this.terminalFocused = false;
          this.symbols.schedule(e.document, 0);
        }
        this.sendActive();
        this.cursor.fire();
      }),
      vscode.window.onDidChangeWindowState((s) => {
        this.windowFocused = s.focused;
        this.sendActive();
      }),
      vscode.window.onDidChangeActiveTerminal((t) => {
        if (t) {
          this.terminalFocused = true;
          this.sendActive();
        }
      }),
      vscode.window.onDidOpenTerminal(() => {
        this.terminalFocused = true;
        this.sendActive();
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.sendActive()),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.symbols.closed(doc);
        this.sendActive();
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => tracked(doc) && this.symbols.schedule(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (tracked(e.document) && e.contentChanges.length > 0) {
          this.symbols.schedule(e.document, SYMBOLS_SETTLE_MS);
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        const which = RESTART_SETTINGS.filter((s) => e.affectsConfiguration(s));
        if (which.length > 0 && !this.stopped) {
          void this.restart(`${which.join(', ')} changed`);
        }
      }),
    );
    this.registerMcpProvider();
  }

  log(message: string): void {
    this.output.appendLine(`[${new Date().toISOString()}] ${message}`);
  }

  /** The binary shipped in this VSIX, when there is one for this platform. */
  private bundled(): string | undefined {
    const p = this.context.asAbsolutePath(process.platform === 'win32' ? 'bin/locus.exe' : 'bin/locus');
    return fs.existsSync(p) ? p : undefined;
  }

  /** The binary the snippets name: the running one (absolute). */
  binary(): string {
    return this.command ?? this.bundled() ?? 'locus';
  }

  async start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.stopped = false;
    const config = vscode.workspace.getConfiguration('locus');
    const { settings, problems } = serverCommand(
      {
        path: config.get('path'),
        mcpEnabled: config.get('mcp.enabled'),
        mcpPort: config.get('mcp.port'),
        mcpTools: config.get('mcp.tools'),
      },
      this.bundled(),
      (p) => {
        try {
          fs.accessSync(p, fs.constants.X_OK);
          return fs.statSync(p).isFile();
        } catch {
          return false;
        }
      },
    );
    for (const p of problems) {
      this.log(p.message);
      void vscode.window.showErrorMessage(`Locus: ${p.message}`);
    }
    if (!settings) {
      this.setStatus({ state: 'failed', message: problems.map((p) => p.message).join('; ') });
      return;
    }
    this.command = settings.command;
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    this.log(`starting ${settings.command} ${settings.args.join(' ')}`);
    const serverOptions = async (): Promise<ChildProcess> => {
      const child = spawn(settings.command, settings.args, { cwd, env: process.env, stdio: 'pipe' });
      child.on('error', (e) => this.log(`locus lsp: ${e.message}`));
      child.on('exit', (code, signal) => {
        this.log(`locus lsp (pid ${child.pid}) exited: ${signal ?? code}`);
        if (this.child === child) {
          this.child = undefined;
        }
      });
      this.child = child;
      return child;
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
      outputChannel: this.output,
      initializationOptions: {
        editorActions: EDITOR_ACTIONS,
        standIns: false,
        ideChannels: vscode.workspace.getConfiguration('locus').get<string[]>('ideChannels', []),
      },
      // Edits reach Locus at once (the client's default), before the cursor that follows them.
    };
    const client = new LanguageClient('locus', 'Locus', serverOptions, clientOptions);
    const capabilities: StaticFeature = {
      fillClientCapabilities(caps) {
        caps.experimental = { ...(caps.experimental as object), locus: { cursor: true, activeEditor: true, symbols: true } };
      },
      initialize() {},
      getState: () => ({ kind: 'static' }),
      clear() {},
    };
    client.registerFeature(capabilities);
    client.onNotification('locus/mcpStatus', (s: McpStatus) => void this.onMcpStatus(s));
    client.onRequest('locus/editorAction', (p: { action?: unknown; params?: unknown }) => {
      this.log(`editor action ${String(p?.action)}`);
      return editorAction(p?.action, p?.params, (m) => this.log(m));
    });
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client && !this.stopped) {
        this.setStatus({ state: 'failed', message: 'locus lsp stopped; see the log' });
      }
    });
    this.client = client;
    this.activeSent = undefined;
    this.cursorSent = undefined;
    this.symbols.restarted();
    try {
      await client.start();
    } catch (e) {
      this.log(`locus lsp did not start: ${(e as Error).message}`);
      this.setStatus({ state: 'failed', message: (e as Error).message });
      return;
    }
    this.log(`locus lsp started (pid ${this.child?.pid})`);
    this.sendActive();
    this.sendCursor();
    for (const editor of vscode.window.visibleTextEditors) {
      if (tracked(editor.document)) this.symbols.schedule(editor.document, 0);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    const child = this.child;
    this.client = undefined;
    await this.forwarder?.close();
    this.forwarder = undefined;
    this.discovery = undefined;
    // VS Code's MCP server list drops Locus (else it keeps the dead sidecar's URL: ECONNREFUSED).
    this.mcpChanged.fire();
    if (client) {
      try {
        await client.stop(3000);
      } catch (e) {
        this.log(`stopping locus lsp: ${(e as Error).message}`);
      }
    }
    // The client does not own a process it did not spawn itself: end it if it is still there.
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill();
    }
    this.child = undefined;
    this.setStatus({ state: 'disabled', message: 'stopped' }, 'Locus: stopped');
  }

  async restart(why: string): Promise<void> {
    this.log(`restarting locus lsp: ${why}`);
    await this.starting;
    await this.stop();
    await this.start();
  }

  async dispose(): Promise<void> {
    this.cursor.dispose();
    this.symbols.dispose();
    clearTimeout(this.contextTimer);
    await this.stop();
  }

  // ---- MCP sidecar, tools, status bar ----

  private async onMcpStatus(s: McpStatus): Promise<void> {
    this.log(`MCP: ${s.state}${s.url ? ` ${s.url}` : ''}${s.message ? `: ${s.message}` : ''}`);
    if (s.state === 'failed' && s.message) {
      void vscode.window.showWarningMessage(`Locus: the MCP sidecar failed: ${s.message}`);
    }
    this.setStatus(s);
    await this.forwarder?.close();
    this.forwarder = undefined;
    this.discovery = undefined;
    const pid = this.child?.pid;
    if (s.state === 'listening' && pid) {
      try {
        this.discovery = await readDiscovery(pid, 5000, process.env, s.discoveryFile);
        const d = this.discovery;
        this.forwarder = new Forwarder(async () => d);
        const listed = (await this.forwarder.listTools()).map((t: any) => ({
          name: t.name,
          title: t.title ?? t.annotations?.title,
          timeoutMs: t._meta?.['locus/timeoutMs'],
        }));
        registerTools(() => this.forwarder, listed, this.declared, this.registered, this.context.subscriptions, (m) => this.log(m));
      } catch (e) {
        this.log(`cannot reach the MCP sidecar: ${(e as Error).message}`);
      }
    }
    this.mcpChanged.fire();
  }

  private setStatus(s: McpStatus, text?: string): void {
    this.mcp = s;
    if (text) {
      this.status.text = text;
    } else if (s.state === 'listening') {
      this.status.text = `Locus: 127.0.0.1:${s.port ?? new URL(s.url ?? 'http://127.0.0.1:0').port}`;
    } else if (s.state === 'disabled') {
      this.status.text = 'Locus: MCP off';
    } else {
      this.status.text = '$(warning) Locus';
    }
    this.status.tooltip = s.state === 'failed' ? `Locus: ${s.message ?? 'failed'}` : this.status.tooltip ?? 'Locus';
  }

  private registerMcpProvider(): void {
    const lm = lmApi();
    const vs = vscode as any;
    if (!lm?.registerMcpServerDefinitionProvider || !apiSupport(vscode as unknown as VsCodeApis).mcpProvider) {
      this.log(NO_MCP_PROVIDER(vscode.version));
      return;
    }
    try {
      this.context.subscriptions.push(
        lm.registerMcpServerDefinitionProvider('locus', {
          onDidChangeMcpServerDefinitions: this.mcpChanged.event,
          provideMcpServerDefinitions: () => {
            const d = this.discovery;
            if (!d) return [];
            return [new vs.McpHttpServerDefinition('Locus', vscode.Uri.parse(d.url), { Authorization: `Bearer ${d.token}` }, this.context.extension.packageJSON.version)];
          },
        }),
      );
    } catch (e) {
      this.log(`VS Code refused the MCP server definition provider: ${(e as Error).message}`);
    }
  }

  private async menu(): Promise<void> {
    type Item = vscode.QuickPickItem & { run: () => unknown };
    const items: Item[] = [];
    if (this.mcp?.state === 'listening') {
      items.push({ label: '$(copy) Copy MCP URL', description: this.mcp.url, run: () => this.copyUrl() });
    }
    items.push({ label: '$(clippy) Copy Agent Snippet', description: 'claude mcp add …, .vscode/mcp.json, …', run: () => this.copySnippet() });
    items.push({ label: '$(debug-restart) Restart', description: 'locus lsp', run: () => this.restart('restart asked for') });
    if (this.client) {
      items.push({ label: '$(debug-stop) Stop Server', run: () => this.stop() });
    } else {
      items.push({ label: '$(play) Start Server', run: () => this.start() });
    }
    items.push({ label: '$(output) Show Log', run: () => this.output.show(true) });
    const picked = await vscode.window.showQuickPick(items, { title: this.status.text, placeHolder: 'Locus' });
    await picked?.run();
  }

  private async copyUrl(): Promise<void> {
    if (this.mcp?.state !== 'listening' || !this.mcp.url) {
      void vscode.window.showWarningMessage('Locus: the MCP sidecar is not listening');
      return;
    }
    await vscode.env.clipboard.writeText(this.mcp.url);
    void vscode.window.showInformationMessage(`Copied ${this.mcp.url} (agents also need the token of the discovery file: prefer \`locus mcp\`)`);
  }

  private async copySnippet(): Promise<void> {
    const snippets = agentSnippets(this.binary());
    const picked = await vscode.window.showQuickPick(
      snippets.map((s) => ({ label: s.label, description: s.detail, detail: s.text.split('\n')[0], snippet: s })),
      { title: 'Copy an agent snippet', placeHolder: 'the agent to set up' },
    );
    if (picked) {
      await vscode.env.clipboard.writeText(picked.snippet.text);
      void vscode.window.showInformationMessage(`Copied the ${picked.label} snippet`);
    }
  }

  // ---- the live editor ----

  private running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /** The text editor Locus keeps active: VS Code's, else the last one while it is still open. */
  private activeEditor(): vscode.TextEditor | undefined {
    const current = vscode.window.activeTextEditor;
    if (current && tracked(current.document)) {
      this.lastEditor = current;
      return current;
    }
    const last = this.lastEditor;
    if (last && !last.document.isClosed) {
      return last;
    }
    const other = vscode.window.visibleTextEditors.find((e) => tracked(e.document));
    this.lastEditor = other;
    return other;
  }

  private sendActive(): void {
    const client = this.running();
    if (!client) return;
    const editor = this.activeEditor();
    const focused =
      !!editor && this.windowFocused && !this.terminalFocused && vscode.window.activeTextEditor === editor;
    const params = editor ? { textDocument: { uri: editor.document.uri.toString() }, focused } : { textDocument: null };
    const key = JSON.stringify(params);
    if (key !== this.activeSent) {
      this.activeSent = key;
      this.cursorSent = undefined;
      void client.sendNotification('locus/didChangeActiveEditor', params).catch((e) => this.log(`didChangeActiveEditor: ${e}`));
      if (editor) this.cursor.fire();
    }
  }

  private sendCursor(): void {
    const client = this.running();
    const editor = vscode.window.activeTextEditor;
    if (!client || !editor || !tracked(editor.document)) return;
    const sel = editor.selection;
    const pos = (p: vscode.Position) => ({ line: p.line, character: p.character });
    const params = {
      textDocument: { uri: editor.document.uri.toString(), version: editor.document.version },
      position: pos(sel.active),
      selections: sel.isEmpty ? undefined : [{ start: pos(sel.start), end: pos(sel.end) }],
    };
    const key = JSON.stringify(params);
    if (key === this.cursorSent) return;
    this.cursorSent = key;
    void client.sendNotification('locus/didChangeCursor', params).catch((e) => this.log(`didChangeCursor: ${e}`));
    this.scheduleContext();
  }

  /** The status bar's tooltip: the scope chain at the cursor, asked for when the cursor rests. */
  private scheduleContext(): void {
    clearTimeout(this.contextTimer);
    this.contextTimer = setTimeout(async () => {
      const client = this.running();
      if (!client) return;
      try {
        const ctx: any = await client.sendRequest('locus/getContext', {});
        const chain = ctx?.symbols?.scopeHierarchy || '(top level)';
        const file = ctx?.file?.path ?? ctx?.file?.name ?? '';
        const where = file ? `${file.split(/[\\/]/).pop()}:${ctx?.cursor?.line ?? ''}` : 'no editor';
        const md = new vscode.MarkdownString(`**${chain}**\n\n${where} · ${ctx?.symbols?.source ?? ''}\n\n${this.mcp?.url ?? ''}`);
        this.status.tooltip = md;
      } catch {
        // The next cursor move asks again.
      }
    }, 150);
  }
}
