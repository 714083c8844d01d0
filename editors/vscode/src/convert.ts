// Conversions from VS Code's API objects to LSP JSON, written against their shapes (not the
// `vscode` module) so that they are unit-tested without VS Code.

/** A position as VS Code and LSP both have it (0-based, UTF-16). */
export interface Pos {
  line: number;
  character: number;
}
export interface Rng {
  start: Pos;
  end: Pos;
}

/** `vscode.DocumentSymbol`'s shape. */
export interface VsDocumentSymbol {
  name: string;
  detail?: string;
  kind: number;
  tags?: readonly number[];
  range: Rng;
  selectionRange: Rng;
  children?: VsDocumentSymbol[];
}

/** `vscode.SymbolInformation`'s shape (older providers answer these). */
export interface VsSymbolInformation {
  name: string;
  containerName?: string;
  kind: number;
  tags?: readonly number[];
  location: { range: Rng };
}

const pos = (p: Pos): Pos => ({ line: p.line, character: p.character });
const rng = (r: Rng): Rng => ({ start: pos(r.start), end: pos(r.end) });

/**
 * LSP DocumentSymbols of what `vscode.executeDocumentSymbolProvider` answered: VS Code's
 * SymbolKind is LSP's minus one; SymbolInformation (flat) becomes symbols without children.
 */
export function lspSymbols(symbols: ReadonlyArray<VsDocumentSymbol | VsSymbolInformation>): unknown[] {
  return symbols.map((s: any) => {
    // VS Code's command answers objects that are both (SymbolInformation with range,
    // selectionRange and children): the tree wins.
    if (!('selectionRange' in s) || !s.selectionRange) {
      return { name: s.name, kind: s.kind + 1, range: rng(s.location.range), selectionRange: rng(s.location.range), ...(s.tags?.length ? { tags: [...s.tags] } : {}) };
    }
    const out: Record<string, unknown> = {
      name: s.name,
      kind: s.kind + 1,
      range: rng(s.range),
      selectionRange: rng(s.selectionRange),
    };
    if (s.detail) out.detail = s.detail;
    if (s.tags?.length) out.tags = [...s.tags];
    out.children = lspSymbols(s.children ?? []);
    return out;
  });
}

/** `vscode.Diagnostic`'s shape. */
export interface VsDiagnostic {
  range: Rng;
  message: string;
  severity: number;
  source?: string;
  code?: string | number | { value: string | number; target: { toString(): string } };
  tags?: readonly number[];
  relatedInformation?: ReadonlyArray<{ location: { uri: { toString(): string }; range: Rng }; message: string }>;
}

/** An LSP Diagnostic of VS Code's (severity: VS Code's Error = 0 is LSP's 1). */
export function lspDiagnostic(d: VsDiagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = { range: rng(d.range), severity: d.severity + 1, message: d.message };
  if (d.source) out.source = d.source;
  if (d.code !== undefined) {
    if (typeof d.code === 'object') {
      out.code = d.code.value;
      out.codeDescription = { href: d.code.target.toString() };
    } else {
      out.code = d.code;
    }
  }
  if (d.tags?.length) out.tags = [...d.tags];
  if (d.relatedInformation?.length) {
    out.relatedInformation = d.relatedInformation.map((r) => ({
      location: { uri: r.location.uri.toString(), range: rng(r.location.range) },
      message: r.message,
    }));
  }
  return out;
}

/**
 * Runs `f` for at most `ms`: its value, or `{timedOut: true}`. Whatever `f` throws is
 * returned as `{error}`: a provider of another extension must not stop Locus's updates.
 */
export async function bounded<T>(f: () => PromiseLike<T>, ms: number): Promise<{ value?: T; error?: unknown; timedOut?: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([
      Promise.resolve().then(f).then((value) => ({ value }), (error) => ({ error })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A throttle with a trailing call: `fire()` runs `f` at once when it last ran at least `ms` ago,
 * else once at `ms` after that run (later `fire()`s before then are folded into it). The cursor
 * reaches Locus with no delay on a single move, and at most every `ms` while it moves.
 */
export class Throttle {
  private last = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly f: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  fire(): void {
    if (this.timer) return;
    const wait = this.last + this.ms - this.now();
    if (wait <= 0) {
      this.run();
    } else {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.run();
      }, wait);
    }
  }

  private run(): void {
    this.last = this.now();
    this.f();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
