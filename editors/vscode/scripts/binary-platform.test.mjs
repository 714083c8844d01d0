// Unit tests of binary-platform.mjs, on headers built here (no binary is kept in the tree),
// and on the Linux build of this repository when it is there.
import assert from 'node:assert/strict';
import test from 'node:test';

import { targetsOf } from './binary-platform.mjs';

function elf(machine) {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b.writeUInt16LE(machine, 18);
  return b;
}

function pe(machine) {
  const b = Buffer.alloc(256);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.writeUInt32BE(0x50450000, 0x80);
  b.writeUInt16LE(machine, 0x84);
  return b;
}

function macho(cpu) {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}

function universal(cpus) {
  const b = Buffer.alloc(8 + 20 * cpus.length);
  b.writeUInt32BE(0xcafebabe, 0);
  b.writeUInt32BE(cpus.length, 4);
  cpus.forEach((cpu, i) => b.writeUInt32BE(cpu, 8 + 20 * i));
  return b;
}

test('each header names its target', () => {
  assert.deepEqual(targetsOf(elf(0x3e)), ['linux-x64', 'alpine-x64']);
  assert.deepEqual(targetsOf(elf(0xb7)), ['linux-arm64', 'alpine-arm64']);
  assert.deepEqual(targetsOf(pe(0x8664)), ['win32-x64']);
  assert.deepEqual(targetsOf(pe(0xaa64)), ['win32-arm64']);
  assert.deepEqual(targetsOf(macho(0x01000007)), ['darwin-x64']);
  assert.deepEqual(targetsOf(macho(0x0100000c)), ['darwin-arm64']);
  assert.deepEqual(targetsOf(universal([0x01000007, 0x0100000c])), ['darwin-x64', 'darwin-arm64']);
});

test('anything else runs nowhere', () => {
  assert.deepEqual(targetsOf(Buffer.from('#!/bin/sh\necho locus\n')), []);
  assert.deepEqual(targetsOf(elf(0x03)), []);
  assert.deepEqual(targetsOf(Buffer.alloc(0)), []);
});
