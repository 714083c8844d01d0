// Agents' proposed edits reviewed in VS Code (the `edit.propose` and `edit.propose.close`
// editor actions, docs/reference/lsp.md): VS Code's diff editor shows the file beside the
// proposal, an untitled document the user may edit; "Accept" and "Reject" in the editor's title
// bar (`locus.acceptProposal`, `locus.rejectProposal`) decide it, and closing the proposal
// rejects it. Nothing is written: the accepted text goes back to the agent, which writes it.

import * as vscode from 'vscode';

/** What the user decided. */
export type Verdict = { accepted: true; text: string } | { accepted: false };

interface Proposal {
  document: vscode.TextDocument;
  resolve: (v: Verdict) => void;
}

/** The proposals shown and not decided, by id. */
const open = new Map<string, Proposal>();

/** The context key the title bar's Accept and Reject show by. */
const CONTEXT = 'locus.reviewingProposal';

/** Shows the proposal `newText` for the file `uri` and resolves once the user decided. */
export async function propose(id: string, uri: vscode.Uri, newText: string, title: string): Promise<Verdict> {
  if (open.has(id)) {
    await decide(id, false);
  }
  let language: string | undefined;
  try {
    language = (await vscode.workspace.openTextDocument(uri)).languageId;
  } catch {
    // A new file: no language to borrow.
  }
  const document = await vscode.workspace.openTextDocument({ content: newText, language });
  const verdict = new Promise<Verdict>((resolve) => open.set(id, { document, resolve }));
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  if (exists) {
    await vscode.commands.executeCommand('vscode.diff', uri, document.uri, title, { preview: false });
  } else {
    await vscode.window.showTextDocument(document, { preview: false });
  }
  updateContext();
  return verdict;
}

/** Decides the proposal `id`: its text as the user left it when accepted. */
export async function decide(id: string, accepted: boolean): Promise<void> {
  const p = open.get(id);
  if (!p) {
    return;
  }
  open.delete(id);
  const text = p.document.getText();
  await closeTabsOf(p.document.uri);
  p.resolve(accepted ? { accepted: true, text } : { accepted: false });
  updateContext();
}

/** Decides the proposal shown in the active editor (the title bar's buttons). */
export async function decideActive(accepted: boolean): Promise<void> {
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  for (const [id, p] of open) {
    if (p.document.uri.toString() === active) {
      await decide(id, accepted);
      return;
    }
  }
  void vscode.window.showWarningMessage('Locus: the active editor shows no proposed change');
}

/** Rejects the proposals whose document was closed. */
export function onClosed(document: vscode.TextDocument): void {
  for (const [id, p] of open) {
    if (p.document === document) {
      void decide(id, false);
    }
  }
}

/** Withdraws every proposal (the extension stops). */
export async function rejectAll(): Promise<void> {
  for (const id of [...open.keys()]) {
    await decide(id, false);
  }
}

export function updateContext(): void {
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const reviewing = [...open.values()].some((p) => p.document.uri.toString() === active);
  void vscode.commands.executeCommand('setContext', CONTEXT, reviewing);
}

/** Closes the tabs showing `uri` (the diff, or the proposal alone) without asking to save it:
 * the untitled proposal is reverted first. */
async function closeTabsOf(uri: vscode.Uri): Promise<void> {
  const shows = (input: unknown) =>
    (input instanceof vscode.TabInputTextDiff && input.modified.toString() === uri.toString()) ||
    (input instanceof vscode.TabInputText && input.uri.toString() === uri.toString());
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (shows(tab.input)) {
        // Reverting drops the untitled text, so closing asks nothing.
        await vscode.window.showTextDocument(uri, { viewColumn: group.viewColumn, preserveFocus: false });
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    }
  }
}
