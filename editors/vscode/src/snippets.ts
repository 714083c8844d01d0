// The agent set-up snippets the status bar menu copies and the README shows (test/snippets.test.ts
// checks that the two agree). Each starts `locus mcp` over stdio with the absolute path of the
// extension's own binary: the HTTP port and token change at every start, `locus mcp` finds the
// running sidecar of the folder it is started in.

/** One ready snippet. */
export interface Snippet {
  /** The label in the menu. */
  label: string;
  /** Where it goes. */
  detail: string;
  /** The text copied. */
  text: string;
}

/** Quotes a path for a POSIX shell when it needs it. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The snippets for the binary at `locus` (absolute). */
export function agentSnippets(locus: string): Snippet[] {
  const q = shellQuote(locus);
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    {
      label: 'Claude Code',
      detail: 'run in the workspace folder',
      text: `claude mcp add locus -- ${q} mcp`,
    },
    {
      label: 'VS Code (.vscode/mcp.json)',
      detail: 'Copilot agent mode and other MCP clients inside VS Code',
      text: json({ servers: { locus: { type: 'stdio', command: locus, args: ['mcp', '--workspace', '${workspaceFolder}'] } } }),
    },
    {
      label: 'Codex',
      detail: 'run in the workspace folder',
      text: `codex mcp add locus -- ${q} mcp`,
    },
    {
      label: 'Cursor (.cursor/mcp.json)',
      detail: 'in the workspace folder',
      text: json({ mcpServers: { locus: { command: locus, args: ['mcp'] } } }),
    },
    {
      label: 'Gemini CLI (.gemini/settings.json)',
      detail: 'in the workspace folder',
      text: json({ mcpServers: { locus: { command: locus, args: ['mcp'] } } }),
    },
  ];
}
