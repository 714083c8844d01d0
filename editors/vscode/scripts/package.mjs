// Packages the platform-specific VSIX: the bundled extension (dist/) and the locus binary in
// bin/, for one VS Code target (default: this machine's, e.g. linux-x64; --target another).
// The binary is $LOCUS_VSCODE_BINARY, else target/<Rust triple>/release/locus for another
// target, else target/release/locus; one built for another platform is refused (exit 2). Its
// debug info is stripped from the copy when `strip` is there and reads its format.
// Writes target/vscode/locus-<version>-<target>.vsix (or --out FILE) and prints its path.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { RUST_TRIPLES, targetsOfFile } from './binary-platform.mjs';
import { extensionDir, locusBinary, repo } from './locus-bin.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch] ?? process.arch;
const platform = { win32: 'win32', darwin: 'darwin', linux: 'linux' }[process.platform] ?? process.platform;
const target = opt('--target') ?? `${platform}-${arch}`;
const known = ['win32-x64', 'win32-arm64', 'linux-x64', 'linux-arm64', 'linux-armhf', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64'];
if (!known.includes(target)) {
  console.error(`error: --target ${target} is not one of VS Code's targets: ${known.join(', ')}`);
  process.exit(2);
}
const pkg = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
const out = path.resolve(opt('--out') ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(repo, 'target'), 'vscode', `locus-${pkg.version}-${target}.vsix`));
const host = `${platform}-${arch}`;
const source = locusBinary({ rustTriple: target === host ? undefined : RUST_TRIPLES[target] });
// A binary of another platform would install, then fail to start: refused.
const runsOn = targetsOfFile(source);
if (!runsOn.includes(target)) {
  console.error(`error: ${source} is a binary for ${runsOn.join(' or ') || 'no VS Code target'}, not ${target}; build it for ${target} (cargo build --release -p locus-server --target ${RUST_TRIPLES[target] ?? '…'}) or point LOCUS_VSCODE_BINARY at one`);
  process.exit(2);
}
const exe = target.startsWith('win32') ? 'locus.exe' : 'locus';
const binDir = path.join(extensionDir, 'bin');
fs.rmSync(binDir, { recursive: true, force: true });
fs.mkdirSync(binDir, { recursive: true });
const dest = path.join(binDir, exe);
fs.copyFileSync(source, dest);
fs.chmodSync(dest, 0o755);
// The host's strip reads the host's format only.
try {
  if (!runsOn.includes(host)) throw new Error('another format');
  execFileSync('strip', ['--strip-debug', dest], { stdio: 'ignore' });
} catch {
  console.error('note: strip failed, is not available or is not for this target; the binary is shipped as built');
}
if (!fs.existsSync(path.join(extensionDir, 'dist', 'extension.js'))) {
  console.error('error: dist/extension.js is missing; run `npm run bundle` first (`npm run package` does)');
  process.exit(1);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
const vsce = path.join(extensionDir, 'node_modules', '@vscode', 'vsce', 'vsce');
try {
  execFileSync(process.execPath, [vsce, 'package', '--target', target, '--out', out, '--skip-license', '--no-dependencies', '--allow-missing-repository'], {
    cwd: extensionDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
} finally {
  // The copy is in the VSIX now; a binary of tens of MB is not left in the source tree.
  fs.rmSync(binDir, { recursive: true, force: true });
}
console.log(`${out} (${target}, locus from ${source})`);
