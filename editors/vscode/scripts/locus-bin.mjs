// The locus binary the build uses: $LOCUS_VSCODE_BINARY, else (for a VSIX of a Rust target
// triple) target/<triple>/release/locus, else target/release/locus of the repository (the one
// the VSIX ships), else target/debug/locus for the tools check only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const extensionDir = path.resolve(here, '..');
export const repo = path.resolve(extensionDir, '../..');

export function locusBinary({ allowDebug = false, rustTriple } = {}) {
  const target = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(repo, 'target');
  const windows = rustTriple ? rustTriple.includes('-windows-') : process.platform === 'win32';
  const exe = windows ? 'locus.exe' : 'locus';
  const candidates = process.env.LOCUS_VSCODE_BINARY
    ? [path.resolve(process.env.LOCUS_VSCODE_BINARY)]
    : rustTriple
      ? [path.join(target, rustTriple, 'release', exe), path.join(target, 'release', exe)]
      : [path.join(target, 'release', exe), ...(allowDebug ? [path.join(target, 'debug', exe)] : [])];
  for (const c of candidates) {
    if (fs.existsSync(c)) return c;
  }
  const build = rustTriple ? `cargo build --release -p locus-server --target ${rustTriple}` : 'cargo build --release -p locus-server';
  console.error(`error: no locus binary at ${candidates.join(' or ')}; build it (${build}) or point LOCUS_VSCODE_BINARY at one`);
  process.exit(1);
}
