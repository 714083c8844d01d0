// Symbol forwarding: VS Code's own document symbols, asked for when a document opens, is shown
// or settles after an edit, and pushed to `locus lsp` as locus/didChangeSymbols with the
// document's version. Written against shapes, not the `vscode` module, so that it is
// unit-tested without VS Code (test/symbols.test.ts); extension.ts gives it VS Code's command.

import { bounded, lspSymbols } from './convert';

/** How long a symbol provider may take before Locus falls back to tree-sitter for that version. */
export const SYMBOLS_TIMEOUT_MS = 5000;
/** Quiet after an edit before VS Code's symbols are asked for again. */
export const SYMBOLS_SETTLE_MS = 300;
/** When to ask again for the symbols of a document VS Code had none for (yet). */
export const SYMBOLS_RETRIES_MS = [1000, 2000, 4000, 8000, 15000, 30000];

/** What is used of `vscode.TextDocument`. */
export interface SymbolDocument {
  readonly uri: { toString(): string };
  readonly version: number;
  readonly isClosed: boolean;
  readonly languageId: string;
}

/** What is used of the language client: the running one's notifications. */
export interface SymbolClient {
  sendNotification(method: string, params: unknown): Promise<void>;
}

/** What the forwarder needs from the extension. */
export interface SymbolPeers<D extends SymbolDocument> {
  /** The running language client, if there is one. */
  client(): SymbolClient | undefined;
  /** VS Code's document symbols of `doc` (`vscode.executeDocumentSymbolProvider`). */
  provide(doc: D): PromiseLike<unknown>;
  log(message: string): void;
}

/** The waits; the constants above unless a test shortens them. */
export interface SymbolTimes {
  timeoutMs: number;
  retriesMs: readonly number[];
}

/** Forwards each document's symbols once per version, with the per-document state that takes. */
export class SymbolForwarder<D extends SymbolDocument> {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The version whose symbols were sent, per document. */
  private readonly sent = new Map<string, number>();
  /** Documents VS Code has given no symbols for (said once in the log). */
  private readonly none = new Set<string>();
  /** The version whose symbols are being asked for, per document. */
  private readonly inFlight = new Map<string, number>();
  /** When the symbols were last asked for (performance.now()), per document. */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly peers: SymbolPeers<D>,
    private readonly times: SymbolTimes = { timeoutMs: SYMBOLS_TIMEOUT_MS, retriesMs: SYMBOLS_RETRIES_MS },
  ) {}

  /** A document whose symbols VS Code has not given yet is asked again at a cursor move (at most every 2 s). */
  ifMissing(doc: D): void {
    const key = doc.uri.toString();
    if (this.sent.get(key) === doc.version || this.timers.has(key) || this.inFlight.get(key) === doc.version) return;
    if (performance.now() - (this.asked.get(key) ?? -Infinity) < 2000) return;
    this.schedule(doc, 0, this.times.retriesMs.length);
  }

  /** Asks for the symbols of `doc` after `delay` ms, replacing a request already waiting. */
  schedule(doc: D, delay: number, attempt = 0): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.send(doc, attempt);
      }, delay),
    );
  }

  /** Forgets a closed document (a request already waiting still finds it closed). */
  closed(doc: D): void {
    const key = doc.uri.toString();
    this.sent.delete(key);
    this.none.delete(key);
    this.asked.delete(key);
    this.inFlight.delete(key);
  }

  /** Forgets what was sent: a new `locus lsp` has none of it. */
  restarted(): void {
    this.sent.clear();
  }

  /** Drops the requests still waiting. */
  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
  }

  /**
   * Asks VS Code's providers for the document's symbols and pushes them with their version.
   * The wait is bounded: past the timeout it is logged and tree-sitter answers, but a late
   * answer (a TypeScript project that loads slowly) is still pushed when it comes, if the
   * document has not changed since; a provider that hangs never answers, and is not asked again
   * for that version.
   */
  private async send(doc: D, attempt: number): Promise<void> {
    const client = this.peers.client();
    if (!client || doc.isClosed) return;
    const key = doc.uri.toString();
    const version = doc.version;
    if (this.sent.get(key) === version || this.inFlight.get(key) === version) return;
    this.asked.set(key, performance.now());
    this.inFlight.set(key, version);
    const asked = Promise.resolve(this.peers.provide(doc));
    const r = await bounded(() => asked, this.times.timeoutMs);
    if (r.timedOut) {
      this.peers.log(`document symbols of ${key}: no answer within ${this.times.timeoutMs} ms; tree-sitter answers until it comes`);
      asked.then(
        (value) => {
          if (this.inFlight.get(key) === version) this.inFlight.delete(key);
          this.got(doc, version, value, attempt);
        },
        () => this.inFlight.get(key) === version && this.inFlight.delete(key),
      );
      return;
    }
    if (this.inFlight.get(key) === version) this.inFlight.delete(key);
    if (r.error !== undefined) {
      this.peers.log(`document symbols of ${key}: a provider failed: ${(r.error as Error)?.message ?? r.error}; tree-sitter answers for it`);
      return;
    }
    this.got(doc, version, r.value, attempt);
  }

  private got(doc: D, version: number, symbols: unknown, attempt: number): void {
    const key = doc.uri.toString();
    if (doc.isClosed || doc.version !== version || this.sent.get(key) === version) return; // a newer version is on its way
    if (!Array.isArray(symbols) || symbols.length === 0) {
      // No provider (yet), or no symbols (which tree-sitter says as well): language extensions
      // activate and load their projects after the document opens, slowly on a busy machine.
      // Ask again, further apart each time, and at cursor moves (ifMissing);
      // tree-sitter answers meanwhile.
      if (!this.none.has(key)) {
        // VS Code swallows a provider's exception and answers nothing: say so once.
        this.none.add(key);
        this.peers.log(`document symbols of ${key}: VS Code's providers gave none (none registered for ${doc.languageId}, not ready yet, or they failed); tree-sitter answers until they do`);
      }
      if (attempt < this.times.retriesMs.length) {
        this.schedule(doc, this.times.retriesMs[attempt], attempt + 1);
      }
      return;
    }
    const running = this.peers.client();
    if (!running) return;
    this.sent.set(key, version);
    void running
      .sendNotification('locus/didChangeSymbols', { textDocument: { uri: key, version }, symbols: lspSymbols(symbols as any[]) })
      .catch((e) => this.peers.log(`didChangeSymbols: ${e}`));
  }
}
