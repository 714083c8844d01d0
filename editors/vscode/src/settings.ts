// The extension's settings, read and validated without VS Code (unit-tested in
// test/settings.test.ts): what is wrong is said in a message naming the setting and the value.

/** What `locus lsp` is started with. */
export interface ServerSettings {
  /** The binary: `locus.path` when set, else the one shipped in the extension. */
  command: string;
  /** The arguments after the binary. */
  args: string[];
}

/** A problem with a setting, to show the user. */
export interface SettingProblem {
  setting: string;
  message: string;
}

/** The raw values of the settings, as `workspace.getConfiguration('locus')` gives them. */
export interface RawSettings {
  path: unknown;
  mcpEnabled: unknown;
  mcpPort: unknown;
  /** `locus.mcp.tools`; absent in callers that predate it. */
  mcpTools?: unknown;
}

/** A `--tools` item: a family or a tool name, `-` to remove it. Locus checks the names. */
const TOOL_ITEM = /^[+-]?[a-z][a-z_]*$/;

/**
 * Validates `locus.mcp.tools`: a list of families (`editor`, `symbol`, `dialog`, `debug`,
 * `system`) and tool names, `-name` to remove one; empty offers every tool. Returns the
 * `--tools` value (undefined for all), or a problem saying what is wrong.
 */
export function mcpTools(raw: unknown): { tools?: string; problem?: SettingProblem } {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    return {};
  }
  const items = Array.isArray(raw) ? raw : [raw];
  const bad = items.filter((i) => typeof i !== 'string' || !TOOL_ITEM.test(i.trim()));
  if (bad.length > 0) {
    return {
      problem: {
        setting: 'locus.mcp.tools',
        message: `locus.mcp.tools takes families (editor, symbol, dialog, debug, system) and tool names, \`-name\` to remove one, not ${JSON.stringify(bad)}; offering every tool`,
      },
    };
  }
  return { tools: items.map((i) => (i as string).trim()).join(',') };
}

/**
 * Validates `locus.mcp.port`: a whole number from 0 (a random free port) to 65535.
 * Returns the port, or a problem saying what is wrong and what Locus does instead.
 */
export function mcpPort(raw: unknown): { port: number; problem?: SettingProblem } {
  if (raw === undefined || raw === null || raw === '') {
    return { port: 0 };
  }
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 65535) {
    return { port: n };
  }
  return {
    port: 0,
    problem: {
      setting: 'locus.mcp.port',
      message: `locus.mcp.port must be a whole number from 0 to 65535 (0 = a random free port), not ${JSON.stringify(raw)}; using a random port`,
    },
  };
}

/**
 * The command line of `locus lsp` for these settings. `bundled` is the binary shipped in the
 * extension (undefined when this VSIX has none for the platform); `isExecutable` tells whether
 * a path can be run.
 */
export function serverCommand(
  raw: RawSettings,
  bundled: string | undefined,
  isExecutable: (path: string) => boolean,
): { settings?: ServerSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  let command: string | undefined;
  const path = typeof raw.path === 'string' ? raw.path.trim() : '';
  if (raw.path !== undefined && raw.path !== null && typeof raw.path !== 'string') {
    problems.push({ setting: 'locus.path', message: `locus.path must be a string (a path to the locus binary), not ${JSON.stringify(raw.path)}` });
  }
  if (path !== '') {
    if (isExecutable(path)) {
      command = path;
    } else {
      problems.push({
        setting: 'locus.path',
        message: `locus.path ${JSON.stringify(path)} is not an executable file` +
          (bundled ? '; using the binary shipped with the extension' : ''),
      });
    }
  }
  if (command === undefined) {
    if (bundled !== undefined && isExecutable(bundled)) {
      command = bundled;
    } else if (path === '') {
      problems.push({
        setting: 'locus.path',
        message: 'this extension has no locus binary for this platform; set locus.path to the absolute path of `locus`',
      });
    }
  }
  if (command === undefined) {
    return { problems };
  }
  const args = ['lsp'];
  const enabled = raw.mcpEnabled === undefined || raw.mcpEnabled === null ? true : raw.mcpEnabled;
  if (enabled === false) {
    args.push('--no-mcp');
  } else {
    if (enabled !== true) {
      problems.push({ setting: 'locus.mcp.enabled', message: `locus.mcp.enabled must be true or false, not ${JSON.stringify(raw.mcpEnabled)}; MCP stays on` });
    }
    const { port, problem } = mcpPort(raw.mcpPort);
    if (problem) {
      problems.push(problem);
    }
    args.push('--mcp-port', String(port));
    const tools = mcpTools(raw.mcpTools);
    if (tools.problem) {
      problems.push(tools.problem);
    }
    if (tools.tools !== undefined) {
      args.push('--tools', tools.tools);
    }
  }
  return { settings: { command, args }, problems };
}

/** The settings whose change needs `locus lsp` restarted (`locus.trace.server` does not). */
export const RESTART_SETTINGS = ['locus.path', 'locus.mcp.enabled', 'locus.mcp.port', 'locus.mcp.tools', 'locus.ideChannels'];
