// Forwarding tool calls to the sidecar (the MCP server inside `locus lsp`), the one implementation
// behind the `vscode.lm` tools: they answer exactly what MCP clients get. No VS Code here
// (test/forward.test.ts runs it against a real `locus lsp`).

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A sidecar's discovery file (docs/configuration.md), the fields used here. */
export interface Discovery {
  pid: number;
  url: string;
  token: string;
}

/**
 * The folder of discovery files, as `locus` computes it (locus-platform's `folders.rs`), for a
 * server too old to name its file in `locus/mcpStatus`: on Linux `$XDG_RUNTIME_DIR/locus`,
 * else `/run/user/<uid>/locus`, else `$XDG_CACHE_HOME/locus`, else `~/.cache/locus`; on macOS
 * `$TMPDIR/locus`; on Windows `%LOCALAPPDATA%\\locus\\run`.
 */
export function discoveryDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || os.homedir();
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || path.join(env.USERPROFILE || home, 'AppData', 'Local');
    return path.join(local, 'locus', 'run');
  }
  if (platform === 'darwin') {
    return path.join(env.TMPDIR || os.tmpdir(), 'locus');
  }
  if (env.XDG_RUNTIME_DIR) {
    return path.join(env.XDG_RUNTIME_DIR, 'locus');
  }
  const uid = process.getuid?.() ?? 0;
  const session = `/run/user/${uid}`;
  try {
    if (fs.statSync(session).isDirectory()) {
      return path.join(session, 'locus');
    }
  } catch {
    // No session folder: the cache folder.
  }
  if (env.XDG_CACHE_HOME) {
    return path.join(env.XDG_CACHE_HOME, 'locus');
  }
  if (home) {
    return path.join(home, '.cache', 'locus');
  }
  return path.join(os.tmpdir(), `locus-${uid}`);
}

/**
 * Reads the discovery file of the sidecar with `pid` (`file`, as `locus/mcpStatus` names it,
 * else its place in {@link discoveryDir}), waiting up to `timeoutMs` for it.
 */
export async function readDiscovery(pid: number, timeoutMs: number, env: NodeJS.ProcessEnv = process.env, file?: string): Promise<Discovery> {
  file ??= path.join(discoveryDir(env), `${pid}.json`);
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const record = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (typeof record.url === 'string' && typeof record.token === 'string') {
        return { pid, url: record.url, token: record.token };
      }
      last = 'it has no url or token';
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() >= deadline) {
      throw new Error(`no discovery file of locus lsp (pid ${pid}) at ${file} within ${timeoutMs} ms: ${last}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a tool call answered, as MCP gives it. */
export interface ToolAnswer {
  /** The text parts (the summary). */
  texts: string[];
  /** The envelope (docs/reference/envelope.md), `structuredContent`. */
  envelope: unknown;
  isError: boolean;
}

/** A tool as the sidecar lists it. */
export interface ListedTool {
  name: string;
  description?: string;
}

/** One MCP session with a sidecar, opened on first use and again after a failure. */
export class Forwarder {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;

  constructor(
    private readonly discovery: () => Promise<Discovery>,
    private readonly clientName = 'locus-vscode',
  ) {}

  private async connect(): Promise<Client> {
    if (this.client) {
      return this.client;
    }
    this.connecting ??= (async () => {
      const d = await this.discovery();
      // The envelope is passed on as the sidecar answered it, as to any MCP client: no
      // validation against the tools' output schemas here (their errors would be VS Code's only).
      const client = new Client(
        { name: this.clientName, version: '0.1.0' },
        { jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input as any, errorMessage: undefined }) } },
      );
      const transport = new StreamableHTTPClientTransport(new URL(d.url), {
        requestInit: { headers: { Authorization: `Bearer ${d.token}` } },
      });
      await client.connect(transport);
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** The sidecar's enabled tools. */
  async listTools(): Promise<ListedTool[]> {
    return this.retry(async (c) => (await c.listTools()).tools);
  }

  /** Calls `name` with `args`; `timeoutMs` bounds the wait (the tool's own timeout and some). */
  async call(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<ToolAnswer> {
    return this.retry(async (c) => {
      const r = await c.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, signal });
      const content = Array.isArray(r.content) ? r.content : [];
      return {
        texts: content.filter((p: any) => p?.type === 'text').map((p: any) => String(p.text)),
        envelope: r.structuredContent,
        isError: r.isError === true,
      };
    });
  }

  private async retry<T>(f: (c: Client) => Promise<T>): Promise<T> {
    const c = await this.connect();
    try {
      return await f(c);
    } catch (e) {
      // A sidecar that restarted (a new token or port) or dropped the session: once more,
      // on a new session. Errors of the call itself come back from the second try too.
      if (this.client === c) {
        this.client = undefined;
        c.close().catch(() => undefined);
      }
      return f(await this.connect());
    }
  }

  /** Ends the session. */
  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => undefined);
  }
}
