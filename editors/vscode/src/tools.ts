// Locus's tools for VS Code's own agent (`vscode.lm.registerTool`), each forwarding to the
// sidecar over MCP (src/forward.ts), so Copilot's agent mode gets what MCP clients get.
// The tool API is found at run time: VS Code before 1.95 and VSCodium builds without it get
// everything else.

import * as vscode from 'vscode';

import { apiSupport, NO_TOOLS, type VsCodeApis } from './apis';
import type { Forwarder, ToolAnswer } from './forward';

/** The `vscode.lm` surface used here (typed locally: engines.vscode is older than it). */
interface LmApi {
  registerTool?: (name: string, tool: unknown) => vscode.Disposable;
  invokeTool?: (name: string, options: { input: object; toolInvocationToken: undefined }, token?: vscode.CancellationToken) => Thenable<{ content: unknown[] }>;
  registerMcpServerDefinitionProvider?: (id: string, provider: unknown) => vscode.Disposable;
}

export function lmApi(): LmApi | undefined {
  return (vscode as unknown as { lm?: LmApi }).lm;
}

/** The name VS Code knows a Locus tool by (`contributes.languageModelTools`). */
export const lmName = (tool: string): string => `locus_${tool}`;

/** The declared tools of package.json: lm name → Locus tool name. */
export function declaredTools(packageJSON: any): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of packageJSON?.contributes?.languageModelTools ?? []) {
    if (typeof t?.name === 'string' && t.name.startsWith('locus_')) {
      out.set(t.name, t.name.slice('locus_'.length));
    }
  }
  return out;
}

/** The text parts of a forwarded answer: the summary, then the envelope as JSON (the sidecar
 * sends both as its MCP content; the envelope is added when an answer has only the summary). */
export function answerTexts(a: ToolAnswer): string[] {
  return a.texts.length > 1 ? a.texts : [...a.texts, JSON.stringify(a.envelope ?? null)];
}

/** Registers the tools the sidecar has enabled and package.json declares; returns the names. */
export function registerTools(
  forwarder: () => Forwarder | undefined,
  listed: { name: string; timeoutMs?: number; title?: string }[],
  declared: Map<string, string>,
  already: Set<string>,
  subscriptions: vscode.Disposable[],
  log: (m: string) => void,
): void {
  const lm = lmApi();
  const vs = vscode as any;
  if (!lm?.registerTool || !apiSupport(vscode as unknown as VsCodeApis).tools) {
    log(NO_TOOLS(vscode.version));
    return;
  }
  const enabled = new Map(listed.map((t) => [t.name, t]));
  for (const [name, tool] of declared) {
    if (already.has(name)) continue;
    const meta = enabled.get(tool);
    if (!meta) {
      log(`tool ${tool}: declared but not enabled in this locus; not registered`);
      continue;
    }
    const timeoutMs = (meta.timeoutMs ?? 30000) + 5000;
    try {
      const d = lm.registerTool(name, {
        prepareInvocation: () => ({ invocationMessage: `Locus: ${meta.title ?? tool}` }),
        invoke: async (options: { input: unknown }, token: vscode.CancellationToken) => {
          const f = forwarder();
          if (!f) {
            throw new Error('Locus\'s MCP sidecar is off (locus.mcp.enabled is false, or the server is stopped)');
          }
          const abort = new AbortController();
          const sub = token?.onCancellationRequested(() => abort.abort());
          try {
            const answer = await f.call(tool, (options.input ?? {}) as Record<string, unknown>, timeoutMs, abort.signal);
            return new vs.LanguageModelToolResult(answerTexts(answer).map((t) => new vs.LanguageModelTextPart(t)));
          } finally {
            sub?.dispose();
          }
        },
      });
      subscriptions.push(d);
      already.add(name);
    } catch (e) {
      log(`tool ${tool}: VS Code refused to register it: ${(e as Error).message}`);
    }
  }
  log(`${already.size} tool(s) registered with VS Code's agent (vscode.lm)`);
}

/**
 * The hidden self-test (`locus.selfTest`, for tests/e2e/test_vscode.py): invokes every
 * registered tool through `vscode.lm.invokeTool` with the inputs of the JSON file
 * `$LOCUS_VSCODE_SELFTEST_INPUTS` (tool → input; `{}` for the others) and writes
 * `{tool: {input, texts}}` to `$LOCUS_VSCODE_SELFTEST`.
 */
export async function selfTest(registered: Set<string>, declared: Map<string, string>, log: (m: string) => void): Promise<void> {
  const out = process.env.LOCUS_VSCODE_SELFTEST;
  const lm = lmApi();
  if (!out || typeof lm?.invokeTool !== 'function') {
    void vscode.window.showErrorMessage('Locus self-test: needs LOCUS_VSCODE_SELFTEST and vscode.lm.invokeTool');
    return;
  }
  const fs = await import('node:fs');
  let inputs: Record<string, object> = {};
  if (process.env.LOCUS_VSCODE_SELFTEST_INPUTS) {
    inputs = JSON.parse(fs.readFileSync(process.env.LOCUS_VSCODE_SELFTEST_INPUTS, 'utf8'));
  }
  const results: Record<string, unknown> = {};
  for (const name of [...registered].sort()) {
    const tool = declared.get(name) ?? name;
    const input = inputs[tool] ?? {};
    try {
      const r = await lm.invokeTool(name, { input, toolInvocationToken: undefined });
      results[tool] = { input, texts: r.content.map((p: any) => (typeof p?.value === 'string' ? p.value : JSON.stringify(p))) };
    } catch (e) {
      results[tool] = { input, error: (e as Error).message };
    }
  }
  fs.writeFileSync(out + '.tmp', JSON.stringify(results, null, 1));
  fs.renameSync(out + '.tmp', out);
  log(`self-test: ${Object.keys(results).length} tool(s) invoked through vscode.lm, written to ${out}`);
  void vscode.window.showInformationMessage(`Locus self-test: ${Object.keys(results).length} tools`);
}
