// Drives VS Code (code-server) in Debian's chromium through playwright-core, for
// tests/e2e/test_vscode.py: one JSON command per line on stdin, one JSON answer per line on
// stdout ({ok: true, ...} or {ok: false, error}). Every wait is bounded.
//
//   node vscode_driver.mjs PLAYWRIGHT_CORE_DIR CHROMIUM
import { createRequire } from 'node:module';
import * as readline from 'node:readline';

const [playwrightDir, chromium] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { chromium: browserType } = require(playwrightDir);

const WAIT = 30000;
let browser;
let page;

const commands = {
  async open({ url }) {
    browser = await browserType.launch({
      executablePath: chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
    // When each key reached the page (epoch ms), for the latency measurement.
    await page.addInitScript(() => {
      window.__locusKeys = [];
      window.addEventListener('keydown', () => window.__locusKeys.push(performance.timeOrigin + performance.now()), true);
    });
    await page.goto(url, { timeout: WAIT });
    await page.locator('.monaco-workbench').waitFor({ timeout: WAIT });
    return {};
  },
  async waitText({ selector, text, timeout }) {
    await page.locator(selector, { hasText: text }).first().waitFor({ timeout: timeout ?? WAIT });
    return {};
  },
  async texts({ selector }) {
    return { texts: await page.locator(selector).allInnerTexts() };
  },
  async quickOpen({ name }) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: WAIT });
    await input.fill(name);
    // The list filters as it goes: wait until the first row is the file, then take it.
    const row = page.locator('.quick-input-list .monaco-list-row').first();
    await row.filter({ hasText: name }).waitFor({ timeout: WAIT });
    await row.click();
    await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: WAIT });
    await page.locator('.editor-instance .view-lines').first().waitFor({ timeout: WAIT });
    return {};
  },
  async command({ title }) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: WAIT });
    await input.fill(`>${title}`);
    // Enter runs the focused row: wait until that one is the command, not merely listed (the
    // list filters and moves its focus as it renders).
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first().waitFor({ timeout: WAIT });
    await page.keyboard.press('Enter');
    return {};
  },
  async clickLine({ text }) {
    // Clicks just after `text` on the first line of the active editor that shows it.
    const at = await page.evaluate((text) => {
      for (const line of document.querySelectorAll('.editor-group-container.active .view-line')) {
        const content = line.textContent.replace(/\u00a0/g, ' ');
        const i = content.indexOf(text);
        if (i < 0) continue;
        const target = i + text.length - 1;
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        let pos = 0;
        let node;
        while ((node = walker.nextNode())) {
          const len = node.textContent.length;
          if (pos + len > target) {
            const range = document.createRange();
            range.setStart(node, target - pos);
            range.setEnd(node, target - pos + 1);
            const b = range.getBoundingClientRect();
            return { x: b.right - 1, y: b.top + b.height / 2 };
          }
          pos += len;
        }
      }
      return null;
    }, text);
    if (!at) throw new Error(`no line of the active editor shows ${JSON.stringify(text)}`);
    await page.mouse.click(at.x, at.y);
    return {};
  },
  async press({ keys }) {
    for (const k of keys) await page.keyboard.press(k);
    return { keyAt: await page.evaluate(() => window.__locusKeys.at(-1) ?? null) };
  },
  async type({ text }) {
    await page.keyboard.type(text, { delay: 10 });
    return {};
  },
  async clickStatus({ text }) {
    await page.locator('.statusbar-item', { hasText: text }).first().click({ timeout: WAIT });
    return {};
  },
  async pickQuick({ text }) {
    await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().click({ timeout: WAIT });
    return {};
  },
  async screenshot({ path, selector }) {
    if (selector) {
      await page.locator(selector).first().screenshot({ path, timeout: WAIT });
    } else {
      await page.screenshot({ path });
    }
    return { path };
  },
  async clipboard() {
    return { text: await page.evaluate(() => navigator.clipboard.readText()) };
  },
  async close() {
    await browser?.close();
    return {};
  },
};

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  let answer;
  try {
    const msg = JSON.parse(line);
    const f = commands[msg.cmd];
    if (!f) throw new Error(`unknown command ${msg.cmd}`);
    answer = { ok: true, ...(await f(msg)) };
  } catch (e) {
    answer = { ok: false, error: String(e?.stack ?? e) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
  if (answer.ok && JSON.parse(line).cmd === 'close') break;
}
process.exit(0);
