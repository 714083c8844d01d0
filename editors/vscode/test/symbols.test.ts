import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SymbolForwarder, type SymbolDocument } from '../src/symbols';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const r = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 5 } });
const GREETER = [{ name: 'Greeter', kind: 4, range: r(0), selectionRange: r(0) }];

interface Doc extends SymbolDocument {
  version: number;
  isClosed: boolean;
}

const doc = (name = 'greeter.py'): Doc => ({ uri: { toString: () => `file:///w/${name}` }, version: 1, isClosed: false, languageId: 'python' });

/** A forwarder whose provider answers what `answer` gives, and what it sent, asked and logged. */
function harness(answer: (d: Doc) => PromiseLike<unknown>) {
  const sent: any[] = [];
  const logs: string[] = [];
  let asked = 0;
  const client = {
    sendNotification: async (method: string, params: unknown) => {
      sent.push({ method, params });
    },
  };
  const forwarder = new SymbolForwarder<Doc>(
    {
      client: () => client,
      provide: (d) => {
        asked++;
        return answer(d);
      },
      log: (m) => logs.push(m),
    },
    { timeoutMs: 40, retriesMs: [20, 20] },
  );
  return { forwarder, sent, logs, asked: () => asked };
}

test('symbols are sent once per version, as LSP DocumentSymbols', async () => {
  const h = harness(async () => GREETER);
  const d = doc();
  h.forwarder.schedule(d, 0);
  await wait(20);
  h.forwarder.schedule(d, 0);
  await wait(20);
  assert.equal(h.asked(), 1);
  assert.deepEqual(h.sent, [
    {
      method: 'locus/didChangeSymbols',
      params: { textDocument: { uri: 'file:///w/greeter.py', version: 1 }, symbols: [{ name: 'Greeter', kind: 5, range: r(0), selectionRange: r(0), children: [] }] },
    },
  ]);
  d.version = 2;
  h.forwarder.schedule(d, 0);
  await wait(20);
  assert.equal(h.sent.length, 2);
  assert.equal(h.sent[1].params.textDocument.version, 2);
});

test('no symbols yet: said once, asked again until they come', async () => {
  let answers = 0;
  const h = harness(async () => (++answers < 3 ? [] : GREETER));
  h.forwarder.schedule(doc(), 0);
  await wait(120);
  assert.equal(h.asked(), 3);
  assert.equal(h.sent.length, 1);
  assert.equal(h.logs.filter((l) => l.includes("VS Code's providers gave none")).length, 1);
});

test('a late answer is sent if the document has not changed since', async () => {
  const h = harness(() => wait(80).then(() => GREETER));
  const d = doc();
  h.forwarder.schedule(d, 0);
  await wait(60);
  assert.equal(h.sent.length, 0);
  assert.ok(h.logs.some((l) => l.includes('no answer within 40 ms')), h.logs.join('\n'));
  await wait(60);
  assert.equal(h.sent.length, 1);

  const changed = doc('changed.py');
  h.forwarder.schedule(changed, 0);
  await wait(10);
  changed.version = 2;
  await wait(120);
  assert.equal(h.sent.length, 1, 'the answer for version 1 came after version 2: not sent');
});

test('a closed document, or a restarted server, gets its symbols again', async () => {
  const h = harness(async () => GREETER);
  const d = doc();
  h.forwarder.schedule(d, 0);
  await wait(20);
  h.forwarder.restarted();
  h.forwarder.schedule(d, 0);
  await wait(20);
  h.forwarder.closed(d);
  h.forwarder.schedule(d, 0);
  await wait(20);
  assert.equal(h.sent.length, 3);
  h.forwarder.schedule(d, 1000);
  h.forwarder.dispose();
});
