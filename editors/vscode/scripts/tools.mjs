// Checks (--check) or rewrites (--write) package.json's `contributes.languageModelTools` and
// the `onLanguageModelTool:` activation events from `locus tools --format vscode`, so the
// declared tools are always the catalogue's. `npm run package` fails when they drift.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { extensionDir, locusBinary } from './locus-bin.mjs';

const mode = process.argv[2];
if (mode !== '--check' && mode !== '--write') {
  console.error('usage: node scripts/tools.mjs --check|--write');
  process.exit(2);
}
const bin = locusBinary({ allowDebug: true });
const env = { ...process.env };
delete env.LOCUS_TEST_TOOLS;
const tools = JSON.parse(execFileSync(bin, ['tools', '--format', 'vscode'], { env, encoding: 'utf8' }));
const file = path.join(extensionDir, 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = ['onStartupFinished', ...tools.map((t) => `onLanguageModelTool:${t.name}`)];
const same = isDeepStrictEqual(pkg.contributes.languageModelTools, tools) && isDeepStrictEqual(pkg.activationEvents, events);
if (mode === '--check') {
  if (!same) {
    console.error(`error: package.json's languageModelTools drifted from \`${bin} tools --format vscode\`; run \`npm run tools:update\``);
    process.exit(1);
  }
  console.log(`package.json declares the ${tools.length} tools of ${bin}`);
} else {
  pkg.contributes.languageModelTools = tools;
  pkg.activationEvents = events;
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
  console.log(`package.json: ${tools.length} tools of ${bin}`);
}
