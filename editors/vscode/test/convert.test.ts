import assert from 'node:assert/strict';
import { test } from 'node:test';

import { bounded, lspDiagnostic, lspSymbols, Throttle } from '../src/convert';

const r = (a: number, b: number, c: number, d: number) => ({ start: { line: a, character: b }, end: { line: c, character: d } });

test('VS Code symbols become LSP DocumentSymbols (kind + 1, children kept)', () => {
  const out = lspSymbols([
    { name: 'Greeter', kind: 4, range: r(0, 0, 9, 1), selectionRange: r(0, 6, 0, 13), children: [{ name: 'greet', detail: '()', kind: 5, range: r(1, 2, 3, 3), selectionRange: r(1, 2, 1, 7) }] },
  ]);
  assert.deepEqual(out, [
    { name: 'Greeter', kind: 5, range: r(0, 0, 9, 1), selectionRange: r(0, 6, 0, 13), children: [{ name: 'greet', detail: '()', kind: 6, range: r(1, 2, 3, 3), selectionRange: r(1, 2, 1, 7), children: [] }] },
  ]);
});

test('SymbolInformation (flat) becomes symbols without children', () => {
  assert.deepEqual(lspSymbols([{ name: 'x', kind: 12, location: { range: r(2, 0, 2, 5) } }]), [{ name: 'x', kind: 13, range: r(2, 0, 2, 5), selectionRange: r(2, 0, 2, 5) }]);
});

test('diagnostics: severity + 1, code with its link', () => {
  const d = lspDiagnostic({ range: r(0, 0, 0, 1), message: 'bad', severity: 0, source: 'ts', code: { value: 2304, target: { toString: () => 'https://x' } } });
  assert.deepEqual(d, { range: r(0, 0, 0, 1), severity: 1, message: 'bad', source: 'ts', code: 2304, codeDescription: { href: 'https://x' } });
});

test('a provider that hangs or throws is bounded and caught', async () => {
  assert.deepEqual(await bounded(async () => 5, 100), { value: 5 });
  assert.deepEqual(await bounded(() => new Promise(() => undefined), 30), { timedOut: true });
  const e = await bounded(() => {
    throw new Error('boom');
  }, 100);
  assert.equal((e.error as Error).message, 'boom');
  const rejected = await bounded(() => Promise.reject(new Error('no')), 100);
  assert.equal((rejected.error as Error).message, 'no');
});

test('the cursor throttle sends the first move at once and folds a burst into one trailing call', async () => {
  let t = 0;
  const calls: number[] = [];
  const th = new Throttle(30, () => calls.push(t), () => t);
  th.fire();
  assert.deepEqual(calls, [0]);
  t = 10;
  th.fire();
  th.fire();
  assert.deepEqual(calls, [0]);
  await new Promise((res) => setTimeout(res, 60));
  assert.equal(calls.length, 2);
  th.dispose();
});

test('VS Code answers symbols that are both SymbolInformation and DocumentSymbol: the tree is kept', () => {
  const merged = { name: 'C', kind: 4, location: { range: r(0, 0, 5, 1) }, range: r(0, 0, 5, 1), selectionRange: r(0, 6, 0, 7), children: [{ name: 'm', kind: 5, location: { range: r(1, 2, 2, 3) }, range: r(1, 2, 2, 3), selectionRange: r(1, 2, 1, 3), children: [] }] };
  const out = lspSymbols([merged]) as any[];
  assert.equal(out[0].children[0].name, 'm');
  assert.equal(out[0].children[0].kind, 6);
});
