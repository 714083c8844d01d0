// Packages the platform-specific VSIX: the bundled extension (dist/) and the locus binary in
// bin/, for one VS Code target (default: this machine's, e.g. linux-x64; --target another, with
// LOCUS_VSCODE_BINARY pointing at that platform's build). The binary is $LOCUS_VSCODE_BINARY or
// target/release/locus; its debug info is stripped from the copy when `strip` is there.
// Writes target/vscode/locus-<version>-<target>.vsix (or --out FILE) and prints its path.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

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
const source = locusBinary();
const exe = target.startsWith('win32') ? 'locus.exe' : 'locus';
const binDir = path.join(extensionDir, 'bin');
fs.rmSync(binDir, { recursive: true, force: true });
fs.mkdirSync(binDir, { recursive: true });
const dest = path.join(binDir, exe);
fs.copyFileSync(source, dest);
fs.chmodSync(dest, 0o755);
try {
  execFileSync('strip', ['--strip-debug', dest], { stdio: 'ignore' });
} catch {
  console.error('note: strip failed or is not available (or not for this target); the binary is shipped as built');
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
