// The locus binary the build uses: $LOCUS_VSCODE_BINARY, else target/release/locus of the
// repository (the one the VSIX ships), else target/debug/locus for the tools check only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const extensionDir = path.resolve(here, '..');
export const repo = path.resolve(extensionDir, '../..');

export function locusBinary({ allowDebug = false } = {}) {
  const exe = process.platform === 'win32' ? 'locus.exe' : 'locus';
  const target = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(repo, 'target');
  const candidates = process.env.LOCUS_VSCODE_BINARY
    ? [path.resolve(process.env.LOCUS_VSCODE_BINARY)]
    : [path.join(target, 'release', exe), ...(allowDebug ? [path.join(target, 'debug', exe)] : [])];
  for (const c of candidates) {
    if (fs.existsSync(c)) return c;
  }
  console.error(
    `error: no locus binary at ${candidates.join(' or ')}; build it (cargo build --release -p locus-server) or point LOCUS_VSCODE_BINARY at one`,
  );
  process.exit(1);
}
