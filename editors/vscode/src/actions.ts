// The editor side of `locus/editorAction` (docs/reference/lsp.md): what Locus asks VS Code to do,
// done by VS Code's own machinery (its rename providers, its file rename with the TypeScript
// extension's import updates, its settings, its problems list). Locus never writes a file.

import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';

import { lspDiagnostic } from './convert';
import * as review from './review';

/** The actions this extension declares in `initializationOptions.editorActions`. */
export const EDITOR_ACTIONS = [
  'symbol.rename',
  'file.rename',
  'setting.get',
  'setting.set',
  'editor.open_file',
  'diagnostic.collect',
  'edit.propose',
  'edit.propose.close',
  'file.save',
];

const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
const REQUEST_FAILED = -32803;

function invalid(message: string): ResponseError<unknown> {
  return new ResponseError(INVALID_PARAMS, message);
}

function failed(message: string, data?: unknown): ResponseError<unknown> {
  return new ResponseError(REQUEST_FAILED, message, data);
}

function uriOf(params: Record<string, unknown>, key: string): vscode.Uri {
  const v = params[key];
  if (typeof v !== 'string' || v === '') {
    throw invalid(`${key} must be a URI string`);
  }
  try {
    return vscode.Uri.parse(v, true);
  } catch (e) {
    throw invalid(`${key} is not a URI: ${JSON.stringify(v)}`);
  }
}

function positionOf(v: unknown, key = 'position'): vscode.Position {
  const p = v as { line?: unknown; character?: unknown } | undefined;
  if (!p || !Number.isInteger(p.line) || !Number.isInteger(p.character) || (p.line as number) < 0 || (p.character as number) < 0) {
    throw invalid(`${key} must be {line, character}, 0-based whole numbers`);
  }
  return new vscode.Position(p.line as number, p.character as number);
}

/** Handles one `locus/editorAction` request: `{ok, data}`, or throws a ResponseError. */
export async function editorAction(action: unknown, params: unknown, log: (m: string) => void): Promise<{ ok: true; data: unknown }> {
  const p = (params ?? {}) as Record<string, unknown>;
  if (typeof p !== 'object' || Array.isArray(p)) {
    throw invalid('params must be an object');
  }
  switch (action) {
    case 'symbol.rename':
      return { ok: true, data: await symbolRename(p) };
    case 'file.rename':
      return { ok: true, data: await fileRename(p, log) };
    case 'setting.get':
      return { ok: true, data: settingGet(p) };
    case 'setting.set':
      return { ok: true, data: await settingSet(p) };
    case 'editor.open_file':
      return { ok: true, data: await editorOpenFile(p) };
    case 'diagnostic.collect':
      return { ok: true, data: diagnosticCollect(p) };
    case 'edit.propose': {
      if (typeof p.id !== 'string' || typeof p.newText !== 'string') {
        throw invalid('edit.propose takes {id, uri, newText, title} (strings)');
      }
      const title = typeof p.title === 'string' ? p.title : 'Proposed change';
      return { ok: true, data: await review.propose(p.id, uriOf(p, 'uri'), p.newText, title) };
    }
    case 'edit.propose.close':
      await review.decide(String(p.id), false);
      return { ok: true, data: {} };
    case 'file.save':
      return { ok: true, data: await fileSave(p) };
    default:
      throw new ResponseError(METHOD_NOT_FOUND, `VS Code's Locus extension has no editor action ${JSON.stringify(action)}`, {
        hint: `it does ${EDITOR_ACTIONS.join(', ')}`,
      });
  }
}

/** Saves the open document `uri` with VS Code's own save (its formatters and save
 * participants run): `{saved: false}` when it is not open or has no unsaved changes. */
async function fileSave(p: Record<string, unknown>): Promise<unknown> {
  const uri = uriOf(p, 'uri');
  // Compared by path: VS Code and Locus may spell the same file's URI differently.
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === uri.scheme && d.uri.fsPath === uri.fsPath);
  if (!doc || !doc.isDirty) {
    return { saved: false };
  }
  if (!(await doc.save())) {
    throw failed(`VS Code did not save ${uri.fsPath}`);
  }
  return { saved: true };
}

async function symbolRename(p: Record<string, unknown>): Promise<unknown> {
  const uri = uriOf(p, 'uri');
  const position = positionOf(p.position);
  if (typeof p.newName !== 'string' || p.newName.trim() === '') {
    throw invalid('newName must be a non-empty string');
  }
  await vscode.workspace.openTextDocument(uri);
  let edit: vscode.WorkspaceEdit | undefined;
  try {
    edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', uri, position, p.newName);
  } catch (e) {
    // The provider's own refusal, e.g. "You cannot rename this element".
    throw failed(`VS Code's rename failed: ${(e as Error).message ?? e}`);
  }
  if (!edit || edit.size === 0) {
    throw failed('no rename provider answered for this position (is the language extension active?)', {
      code: 'E_NOT_FOUND',
      hint: 'put the position on the symbol\'s name; a language extension with rename support must be installed',
    });
  }
  const files = edit.entries().map(([uri, e]) => ({ uri: uri.toString(), edits: e.length }));
  const edits = files.reduce((n, f) => n + f.edits, 0);
  // isRefactoring: VS Code saves the files it opened for the edit, as for F2 (files.refactoring.autoSave).
  const applied = await (vscode.workspace.applyEdit as (e: vscode.WorkspaceEdit, m?: unknown) => Thenable<boolean>)(edit, { isRefactoring: true });
  if (!applied) {
    throw failed('VS Code did not apply the rename (nothing was changed)', { files });
  }
  return { applied: true, newName: p.newName, files, edits };
}

const IMPORT_SETTINGS = ['typescript.updateImportsOnFileMove.enabled', 'javascript.updateImportsOnFileMove.enabled'];

/** The level a setting's effective value comes from, so that holding it there wins. */
function effectiveTarget(section: string): { target: vscode.ConfigurationTarget; old: unknown } {
  const [head, ...rest] = section.split('.');
  const inspected = vscode.workspace.getConfiguration(head).inspect(rest.join('.'));
  if (inspected?.workspaceFolderValue !== undefined) {
    return { target: vscode.ConfigurationTarget.WorkspaceFolder, old: inspected.workspaceFolderValue };
  }
  if (inspected?.workspaceValue !== undefined) {
    return { target: vscode.ConfigurationTarget.Workspace, old: inspected.workspaceValue };
  }
  return { target: vscode.ConfigurationTarget.Global, old: inspected?.globalValue };
}

async function fileRename(p: Record<string, unknown>, log: (m: string) => void): Promise<unknown> {
  const oldUri = uriOf(p, 'oldUri');
  const newUri = uriOf(p, 'newUri');
  const updateImports = p.updateImports !== false;
  try {
    await vscode.workspace.fs.stat(oldUri);
  } catch {
    throw invalid(`${oldUri.fsPath} does not exist`);
  }
  let exists = false;
  try {
    await vscode.workspace.fs.stat(newUri);
    exists = true;
  } catch {
    // The new name is free.
  }
  if (exists) {
    throw invalid(`${newUri.fsPath} exists already; nothing was renamed`);
  }
  // Hold the TS/JS import updates at `always` for the operation (the TypeScript extension
  // asks the user otherwise), at the level where the effective value comes from.
  const held: { section: string; target: vscode.ConfigurationTarget; old: unknown }[] = [];
  if (updateImports) {
    for (const section of IMPORT_SETTINGS) {
      const { target, old } = effectiveTarget(section);
      const [head, ...rest] = section.split('.');
      const key = rest.join('.');
      if (old !== 'always') {
        await vscode.workspace.getConfiguration(head).update(key, 'always', target);
        held.push({ section, target, old });
      }
    }
  }
  const changed = new Set<string>();
  const dirtyBefore = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()));
  let lastChange = 0;
  const listener = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.contentChanges.length > 0 && e.document.uri.toString() !== newUri.toString()) {
      changed.add(e.document.uri.toString());
      lastChange = Date.now();
    }
  });
  try {
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(oldUri, newUri, { overwrite: false });
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied) {
      throw failed(`VS Code did not rename ${oldUri.fsPath} (nothing was changed)`);
    }
    let importsUpdated = false;
    if (updateImports && /\.[cm]?[jt]sx?$/.test(oldUri.path)) {
      // The TypeScript extension updates imports after the rename event, on its own time:
      // wait for its edits (bounded), then for them to settle.
      const start = Date.now();
      while (Date.now() - start < 5000) {
        if (lastChange > 0 && Date.now() - lastChange > 400) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      importsUpdated = changed.size > 0;
      // Save what the import update changed, as VS Code saves its refactorings: only files
      // that had no unsaved changes of the user's before.
      for (const doc of vscode.workspace.textDocuments) {
        const key = doc.uri.toString();
        if (changed.has(key) && doc.isDirty && !dirtyBefore.has(key)) {
          await doc.save();
        }
      }
    }
    return { renamed: true, oldUri: oldUri.toString(), newUri: newUri.toString(), importsUpdated, changedFiles: [...changed] };
  } finally {
    listener.dispose();
    for (const h of held) {
      const [head, ...rest] = h.section.split('.');
      try {
        await vscode.workspace.getConfiguration(head).update(rest.join('.'), h.old, h.target);
      } catch (e) {
        log(`file.rename: could not restore ${h.section}: ${(e as Error).message}`);
      }
    }
  }
}

function scopeOf(p: Record<string, unknown>, fallback: 'user' | 'workspace' | undefined): 'user' | 'workspace' | undefined {
  const s = p.scope ?? fallback;
  if (s === undefined) return undefined;
  if (s !== 'user' && s !== 'workspace') {
    throw invalid(`scope must be "user" or "workspace", not ${JSON.stringify(s)}`);
  }
  return s;
}

function keyOf(p: Record<string, unknown>): string {
  if (typeof p.key !== 'string' || !/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(p.key)) {
    throw invalid('key must be a setting\'s dotted name, e.g. "editor.tabSize"');
  }
  return p.key;
}

function settingGet(p: Record<string, unknown>): unknown {
  const key = keyOf(p);
  const scope = scopeOf(p, undefined);
  const inspected = vscode.workspace.getConfiguration().inspect(key);
  const known = inspected !== undefined && (inspected.defaultValue !== undefined || inspected.globalValue !== undefined || inspected.workspaceValue !== undefined);
  const value = scope === 'user' ? inspected?.globalValue : scope === 'workspace' ? inspected?.workspaceValue : vscode.workspace.getConfiguration().get(key);
  return {
    key,
    scope: scope ?? 'effective',
    value: value ?? null,
    user: inspected?.globalValue ?? null,
    workspace: inspected?.workspaceValue ?? null,
    default: inspected?.defaultValue ?? null,
    known,
  };
}

async function settingSet(p: Record<string, unknown>): Promise<unknown> {
  const key = keyOf(p);
  const scope = scopeOf(p, 'workspace')!;
  if (!('value' in p)) {
    throw invalid('value is required (null removes the setting from that scope)');
  }
  if (scope === 'workspace' && !vscode.workspace.workspaceFolders?.length) {
    throw invalid('no folder is open, so there are no workspace settings; use scope "user"');
  }
  const target = scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  const before = vscode.workspace.getConfiguration().inspect(key);
  const previous = (scope === 'user' ? before?.globalValue : before?.workspaceValue) ?? null;
  try {
    await vscode.workspace.getConfiguration().update(key, p.value === null ? undefined : p.value, target);
  } catch (e) {
    throw failed(`VS Code refused to set ${key}: ${(e as Error).message}`);
  }
  const after = vscode.workspace.getConfiguration().inspect(key);
  return { key, scope, previous, value: (scope === 'user' ? after?.globalValue : after?.workspaceValue) ?? null };
}

async function editorOpenFile(p: Record<string, unknown>): Promise<unknown> {
  const uri = uriOf(p, 'uri');
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch (e) {
    throw invalid(`cannot open ${uri.toString()}: ${(e as Error).message}`);
  }
  let selection: vscode.Range | undefined;
  if (p.line !== undefined && p.line !== null) {
    const line = p.line as number;
    const character = (p.character ?? 0) as number;
    if (!Number.isInteger(line) || line < 0 || !Number.isInteger(character) || character < 0) {
      throw invalid('line and character must be 0-based whole numbers');
    }
    const at = doc.validatePosition(new vscode.Position(line, character));
    selection = new vscode.Range(at, at);
  }
  const editor = await vscode.window.showTextDocument(doc, { preview: false, selection });
  if (selection) {
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  const at = editor.selection.active;
  return { uri: doc.uri.toString(), line: at.line, character: at.character, lineCount: doc.lineCount };
}

function diagnosticCollect(p: Record<string, unknown>): unknown {
  if (p.uri !== undefined && p.uri !== null) {
    const uri = uriOf(p, 'uri');
    return [{ uri: uri.toString(), diagnostics: vscode.languages.getDiagnostics(uri).map(lspDiagnostic) }];
  }
  return vscode.languages
    .getDiagnostics()
    .filter(([, ds]) => ds.length > 0)
    .map(([uri, ds]) => ({ uri: uri.toString(), diagnostics: ds.map(lspDiagnostic) }));
}
