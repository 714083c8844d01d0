// Which VS Code target a binary is built for, read from its header: ELF (Linux), Mach-O
// (macOS, a universal binary counting for both of its architectures) or PE (Windows), and the
// machine it names. `npm run package -- --target T` refuses a binary of another target, which
// would install and then fail to start.

import * as fs from 'node:fs';

const ELF_MACHINES = { 0x3e: 'x64', 0xb7: 'arm64', 0x28: 'armhf' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64' };

/** The targets (`linux-x64`, `darwin-arm64`, …) the binary `bytes` (its first KiB at least) runs on. */
export function targetsOf(bytes) {
  const b = Buffer.from(bytes);
  if (b.length >= 20 && b.readUInt32BE(0) === 0x7f454c46) {
    const arch = ELF_MACHINES[b.readUInt16LE(18)];
    // musl or glibc cannot be told from the header: Alpine's targets take the same binaries.
    return arch ? [`linux-${arch}`, `alpine-${arch}`] : [];
  }
  if (b.length >= 8 && b.readUInt32LE(0) === 0xfeedfacf) {
    const arch = MACHO_CPUS[b.readUInt32LE(4)];
    return arch ? [`darwin-${arch}`] : [];
  }
  if (b.length >= 8 && b.readUInt32BE(0) === 0xcafebabe) {
    const count = b.readUInt32BE(4);
    const out = [];
    for (let i = 0; i < count && 8 + 20 * (i + 1) <= b.length; i++) {
      const arch = MACHO_CPUS[b.readUInt32BE(8 + 20 * i)];
      if (arch) out.push(`darwin-${arch}`);
    }
    return out;
  }
  if (b.length >= 64 && b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    if (pe + 6 <= b.length && b.readUInt32BE(pe) === 0x50450000) {
      const arch = PE_MACHINES[b.readUInt16LE(pe + 4)];
      return arch ? [`win32-${arch}`] : [];
    }
  }
  return [];
}

/** The targets the binary at `file` runs on (its first 4 KiB read). */
export function targetsOfFile(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return targetsOf(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
}

/** Rust's target triple for a VS Code target: where `cargo build --target` puts its binary. */
export const RUST_TRIPLES = {
  'linux-x64': 'x86_64-unknown-linux-gnu',
  'linux-arm64': 'aarch64-unknown-linux-gnu',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-gnu',
};
