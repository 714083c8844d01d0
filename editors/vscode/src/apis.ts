// Which of VS Code's agent APIs this VS Code has, decided without importing `vscode` (unit-tested
// in test/apis.test.ts): `vscode.lm.registerTool` (1.95 and later) and
// `vscode.lm.registerMcpServerDefinitionProvider` (1.101 and later) are looked up at run time,
// since engines.vscode is older; VSCodium builds and older VS Codes lack one or both. Each
// missing API is one line in the Locus log, and only what needs it is skipped.

/** The part of the `vscode` module looked at here. */
export interface VsCodeApis {
  version: string;
  lm?: { registerTool?: unknown; registerMcpServerDefinitionProvider?: unknown };
  LanguageModelToolResult?: unknown;
  LanguageModelTextPart?: unknown;
  McpHttpServerDefinition?: unknown;
}

/** What this VS Code offers, with the log line for each API it lacks. */
export interface ApiSupport {
  /** Locus's tools can be registered with VS Code's agent. */
  tools: boolean;
  /** Locus's MCP sidecar can be offered to VS Code (its "MCP: List Servers"). */
  mcpProvider: boolean;
  /** One line per missing API, for the Locus log: what is missing and what still works. */
  missing: string[];
}

const fn = (x: unknown): boolean => typeof x === 'function';

export const NO_TOOLS = (version: string): string =>
  `this VS Code (${version}) has no vscode.lm.registerTool: Locus's tools are not registered with VS Code's agent; MCP clients still reach them`;

export const NO_MCP_PROVIDER = (version: string): string =>
  `this VS Code (${version}) has no vscode.lm.registerMcpServerDefinitionProvider: Locus is not in VS Code's MCP server list; add it to .vscode/mcp.json (Locus menu → Copy Agent Snippet)`;

export function apiSupport(vs: VsCodeApis): ApiSupport {
  const tools = fn(vs.lm?.registerTool) && fn(vs.LanguageModelToolResult) && fn(vs.LanguageModelTextPart);
  const mcpProvider = fn(vs.lm?.registerMcpServerDefinitionProvider) && fn(vs.McpHttpServerDefinition);
  const missing: string[] = [];
  if (!tools) missing.push(NO_TOOLS(vs.version));
  if (!mcpProvider) missing.push(NO_MCP_PROVIDER(vs.version));
  return { tools, mcpProvider, missing };
}
