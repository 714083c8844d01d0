// The README's agent snippets (section "VS Code") are the ones the status bar menu copies.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { agentSnippets, shellQuote } from '../src/snippets';

const repo = path.resolve(__dirname, '../../../..');

/** The fenced blocks of the README's VS Code section that set up an agent. */
export function readmeAgentSnippets(readme: string): string[] {
  const start = readme.indexOf('### VS Code');
  const end = readme.indexOf('\n## ', start);
  assert.ok(start >= 0 && end > start, 'the README has a "### VS Code" section');
  const section = readme.slice(start, end);
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2].trimEnd() }));
  return blocks.filter((b) => b.lang === 'json' || /^(claude|codex) mcp add/.test(b.text)).map((b) => b.text);
}

test('the README shows exactly the snippets of the menu', () => {
  const readme = readmeAgentSnippets(fs.readFileSync(path.join(repo, 'README.md'), 'utf8'));
  const menu = new Set(agentSnippets('/path/to/locus').map((s) => s.text));
  assert.deepEqual(new Set(readme), menu);
});

test('the snippets name the absolute binary, quoted for the shell where needed', () => {
  const s = agentSnippets('/home/me/My Extensions/locus');
  assert.equal(s[0].text, `claude mcp add locus -- '/home/me/My Extensions/locus' mcp`);
  assert.equal(JSON.parse(s[1].text).servers.locus.command, '/home/me/My Extensions/locus');
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});
