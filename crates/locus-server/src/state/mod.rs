//! The editor state: what Locus knows of the editor it serves — the open documents (unsaved
//! text included), which editor has focus, the cursor and selections, and symbols pushed by
//! the editor's own language server.
//!
//! The LSP edge (`crate::lsp`) feeds it and the MCP edge (`crate::mcp`, through its `Host`)
//! reads it; both go through [`Shared`], a cheaply cloned handle around one lock.
//!
//! [`EditorState`] is the facade; each concern has a file with its own invariants:
//! - `document.rs`: one open document — the mirror, deferred reparsing, sleep and wake,
//!   whether it is dirty;
//! - `cursor.rs`: where the user is — focus, and each document's cursor and selections;
//! - `symbols.rs`: symbols pushed by the editor, and when they may answer;
//! - `prefetch.rs`: outlines of documents whose context was asked recently, updated in the
//!   background after edits, off the editor's thread (one waiting update per document);
//! - `uri.rs`: document keys and paths from URIs; `shared.rs`: the lock.
//!
//! **Invariants.**
//! - No protocol types and no JSON here: positions are [`locus_doc::Position`]s with an
//!   explicit [`PositionEncoding`], offsets are UTF-8 bytes of the mirror.
//! - Nothing here fails as a whole or panics on bad input: unknown documents are errors the
//!   caller reports, positions are clamped by the mirror, stale data is dropped, not used.
//! - Symbols pushed by the editor are adopted only for the version they were computed for,
//!   then answer for the document (shifted through later edits) until the next adopted push;
//!   the syntax tree answers for documents without one, and the context says which.
//! - Every method is cheap: no IO except reading a file once at open, and no work in
//!   proportion to the document except its first outline (later ones are incremental, in
//!   `locus_scopes::Source`), one reparse for many edits when reparsing is deferred, and a
//!   full parse when a context is asked of a document that was put to sleep.
//! - The text is always exact, asleep or deferred or not: only trees are dropped or late.
//!   When the editor sends a change the mirror cannot place (a line past the end, an inverted
//!   range), the document says so in its context's warning until the editor sends the whole
//!   text again: the mirror is never silently different from the editor.

mod cursor;
mod document;
mod prefetch;
mod runtime;
mod shared;
mod symbols;
mod uri;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use locus_context::{EditorContext, Request, Symbols};
use locus_doc::{Document, Position, PositionEncoding, Range};
use locus_scopes::Span;

use cursor::{Focus, Mark};
use document::DocState;
pub use runtime::discover as python_runtime;
pub use shared::Shared;
pub use symbols::{RawSymbol, SymbolsOutcome, nest as nest_symbols};
use uri::key_of;
pub use uri::path_of;

/// One content change, as the editor sent it: a range in some encoding (or the whole text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The replaced range; `None` replaces the whole text.
    pub range: Option<Range>,
    /// The new text.
    pub text: String,
}

/// Why the state could not do what was asked. The state is unchanged when one is returned,
/// except where a variant says otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateError {
    /// No open document has this URI.
    UnknownDocument(String),
    /// No open document has this path (for `locus.cursor`).
    UnknownPath(PathBuf),
    /// Some changes of an edit were refused (their ranges were inverted); the others applied.
    BadChanges {
        /// The document.
        uri: String,
        /// Why each refused change was refused.
        reasons: Vec<String>,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::UnknownDocument(uri) => write!(f, "no open document has the URI `{uri}`"),
            StateError::UnknownPath(path) => {
                write!(f, "no open document has the path `{}`", path.display())
            }
            StateError::BadChanges { uri, reasons } => {
                write!(f, "{} change(s) to `{uri}` refused: {}", reasons.len(), reasons.join("; "))
            }
        }
    }
}

impl std::error::Error for StateError {}

/// What happened to an edit, for the edge to log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeOutcome {
    /// The version before the edit.
    pub previous_version: i32,
    /// Whether the editor's version went backwards (or stayed): applied anyway, and logged.
    pub version_regressed: bool,
}

/// Which document a context is asked for, and where.
#[derive(Debug, Clone, Copy)]
pub struct ContextQuery<'a> {
    /// The document; the active editor's when `None`.
    pub uri: Option<&'a str>,
    /// The position; the document's cursor when `None`.
    pub position: Option<Position>,
    /// The encoding of `position`.
    pub encoding: PositionEncoding,
}

/// A cursor and selections given in the editor's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CursorUpdate {
    /// The version of the text the positions refer to, when the editor says.
    pub version: Option<i32>,
    /// The cursor (the active end of the primary selection).
    pub position: Position,
    /// Selections, primary first; empty when the editor sent none.
    pub selections: Vec<Range>,
    /// The encoding of the positions.
    pub encoding: PositionEncoding,
}

/// A light, owned copy of the state for readers that must not hold the lock.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The URI of the active editor's document, if one has focus and is open.
    pub active: Option<String>,
    /// The open documents, most recently touched first.
    pub documents: Vec<DocumentSnapshot>,
    /// The workspace folders.
    pub folders: Vec<PathBuf>,
}

/// One open document in a [`Snapshot`]. The text is shared with the mirror (O(1) to copy).
#[derive(Debug, Clone)]
pub struct DocumentSnapshot {
    /// The URI the editor uses.
    pub uri: String,
    /// The file path (the URI itself for documents that are not files).
    pub path: String,
    /// The language id.
    pub language_id: String,
    /// The text at this moment, and its version.
    pub doc: Document,
    /// Whether the text differs from what was last saved.
    pub is_dirty: bool,
    /// The cursor, as a byte offset.
    pub cursor: usize,
    /// The primary selection in bytes, if not empty.
    pub selection: Option<Span>,
}

/// One open document for the symbol index ([`EditorState::outlines`]).
#[derive(Debug)]
pub struct DocumentOutline {
    /// The file path (the URI itself for documents that are not files).
    pub path: String,
    /// The language id.
    pub language_id: String,
    /// The text at this moment (shared with the mirror).
    pub doc: Document,
    /// A snapshot of its parsed source, when its syntax tree is current: its outline is
    /// computed (incrementally after an edit) only when read, away from the state's lock.
    pub source: Option<locus_scopes::Source>,
}

/// A context taken from the state, to be built once its lock is released
/// ([`EditorState::context_pending`]).
pub struct PendingContext {
    source: locus_scopes::Source,
    path: String,
    uri: String,
    language_id: String,
    dirty: document::DirtyCheck,
    cursor: usize,
    selection: Option<Span>,
    pushed: Option<std::sync::Arc<locus_scopes::Outline>>,
    unsynced: Option<String>,
    focused: Option<bool>,
}

impl PendingContext {
    /// Whether building costs little: the outline of this version is computed (or not
    /// needed) and so is whether the text differs from the saved one.
    pub fn ready(&self) -> bool {
        (self.pushed.is_some() || !self.source.has_symbols() || self.source.outline_ready())
            && self.dirty.ready()
    }

    /// Builds the context: the outline of its version is computed here if nobody has yet
    /// (and concurrent builders of the same version wait for that one computation).
    pub fn build(self) -> EditorContext {
        let symbols = match &self.pushed {
            Some(outline) => Symbols::Editor(outline),
            None => Symbols::Syntax,
        };
        let request = Request {
            path: &self.path,
            language_id: Some(&self.language_id),
            is_dirty: self.dirty.get(),
            cursor: self.cursor,
            selection: self.selection,
            symbols,
        };
        let mut context = locus_context::build(&self.source, &request);
        if let Some(why) = self.unsynced {
            let warning = &mut context.symbols.warning;
            *warning = Some(match warning.take() {
                Some(other) => format!("{other}; {why}"),
                None => why,
            });
        }
        context.file.uri = Some(self.uri);
        context.focused = self.focused;
        context
    }
}

/// The whole editor state. Use it through [`Shared`].
pub struct EditorState {
    docs: HashMap<String, DocState>,
    focus: Focus,
    folders: Vec<PathBuf>,
    clock: u64,
    /// Whether the editor sends `locus/didChangeCursor` (then edits shift the cursor rather
    /// than place it, and requests do not move it).
    cursor_plugin: bool,
    /// Wall-clock time of the user's last action, in ms since the epoch (see `last_touch_ms`).
    last_touch_ms: u64,
    /// Outlines updated in the background after edits.
    prefetch: prefetch::Prefetch,
    /// Each folder's Python runtime, found once (`runtime.rs`).
    runtimes: HashMap<PathBuf, locus_scopes::Runtime>,
}

impl Default for EditorState {
    fn default() -> Self {
        EditorState::new()
    }
}

impl EditorState {
    /// An empty state: no documents, no focus known.
    pub fn new() -> EditorState {
        EditorState {
            docs: HashMap::new(),
            focus: Focus::Implicit,
            folders: Vec::new(),
            clock: 0,
            cursor_plugin: false,
            last_touch_ms: 0,
            prefetch: prefetch::Prefetch::default(),
            runtimes: HashMap::new(),
        }
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Says whether the editor reports its cursor itself (`locus/didChangeCursor`).
    pub fn set_cursor_plugin(&mut self, on: bool) {
        self.cursor_plugin = on;
    }

    /// Whether the editor reports its cursor itself.
    pub fn cursor_plugin(&self) -> bool {
        self.cursor_plugin
    }

    /// Replaces the workspace folders.
    pub fn set_folders(&mut self, folders: Vec<PathBuf>) {
        self.folders = folders;
    }

    /// Adds and removes workspace folders.
    pub fn change_folders(&mut self, added: Vec<PathBuf>, removed: &[PathBuf]) {
        self.folders.retain(|f| !removed.contains(f));
        for f in added {
            if !self.folders.contains(&f) {
                self.folders.push(f);
            }
        }
    }

    /// How many documents are open.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether no document is open.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Opens (or reopens) a document. The language comes from `language_id`, else from the
    /// path. `isDirty` compares `text` with the file on disk. Returns whether it was open already.
    pub fn open(&mut self, uri: &str, language_id: &str, version: i32, text: &str) -> bool {
        let key = key_of(uri);
        let touched = self.tick();
        self.touch_now();
        let mut doc = DocState::open(uri, language_id, version, text, touched);
        if doc.language().is_some_and(|l| l.id() == "python") {
            let file = uri.starts_with("file:").then(|| PathBuf::from(&doc.path));
            if let Some(runtime) = self.runtime_for(file.as_deref()) {
                doc.set_runtime(runtime);
            }
        }
        let existed = self.docs.insert(key.clone(), doc).is_some();
        document::keep_awake(&mut self.docs, &key);
        existed
    }

    /// The Python runtime a file at `path` is analysed for: its workspace folder's.
    pub fn python_runtime(&mut self, path: &Path) -> locus_scopes::Runtime {
        self.runtime_for(Some(path)).unwrap_or_default()
    }

    /// The Python runtime of the workspace folder holding `file` (of the file's own folder
    /// when no workspace folder does; of the first workspace folder for a document with no
    /// file), found once per folder. `None` with no folder at all.
    fn runtime_for(&mut self, file: Option<&Path>) -> Option<locus_scopes::Runtime> {
        let folder = match file {
            Some(path) => self
                .folders
                .iter()
                .filter(|f| path.starts_with(f))
                .max_by_key(|f| f.as_os_str().len())
                .cloned()
                .or_else(|| path.parent().map(Path::to_path_buf)),
            None => self.folders.first().cloned(),
        }?;
        Some(*self.runtimes.entry(folder).or_insert_with_key(|folder| runtime::discover(folder)))
    }

    /// Closes a document and frees what it held; returns the size of its text.
    pub fn close(&mut self, uri: &str) -> Result<usize, StateError> {
        let key = key_of(uri);
        match self.docs.remove(&key) {
            Some(doc) => Ok(doc.text().len_bytes()),
            None => Err(StateError::UnknownDocument(uri.to_string())),
        }
    }

    /// Applies the changes of one edit, in order, and sets the version.
    pub fn change(
        &mut self,
        uri: &str,
        version: Option<i32>,
        changes: &[Change],
        encoding: PositionEncoding,
    ) -> Result<ChangeOutcome, StateError> {
        let key = key_of(uri);
        let touched = self.tick();
        self.touch_now();
        let plugin = self.cursor_plugin;
        let Some(doc) = self.docs.get_mut(&key) else {
            return Err(StateError::UnknownDocument(uri.to_string()));
        };
        let previous_version = doc.text().version();
        let mut reasons = Vec::new();
        for change in changes {
            // LSP lets a position run past its line's end (it means the end); a line past the
            // document, or an inverted range, means the editor's text is not the mirror's.
            match change.range {
                None => doc.unsynced = None,
                Some(range) => {
                    if let Some(why) = misplaced(doc.text(), range) {
                        doc.unsynced = Some(format!(
                            "the mirror of this document may differ from the editor's text since version {}: {why}; it is exact again when the editor sends the whole text (reopen the document)",
                            version.unwrap_or(previous_version)
                        ));
                    }
                }
            }
            match doc.apply(change, encoding) {
                Ok(edit) => {
                    doc.generation += 1;
                    doc.pushed.after_edit(&edit);
                    doc.mark = std::mem::replace(&mut doc.mark, Mark::Unknown).after_edit(
                        &edit,
                        doc.text(),
                        plugin,
                    );
                }
                Err(e) => reasons.push(e.to_string()),
            }
        }
        let new_version = version.unwrap_or(previous_version);
        doc.set_version(new_version);
        doc.touched = touched;
        // A waiting cursor or push becomes usable once the mirror reaches its version.
        let mark = std::mem::replace(&mut doc.mark, Mark::Unknown);
        doc.mark = mark.caught_up(doc.text(), new_version);
        let text = doc.text().clone();
        doc.pushed.after_change(&text, new_version);
        // The outline of a document whose context was asked recently is updated now, in the
        // background, so that the next context rarely waits for it (not for documents only
        // the symbol index reads: see prefetch.rs).
        let read_recently = doc.context_read.is_some_and(|t| t.elapsed() <= prefetch::RECENT);
        if read_recently && !doc.asleep && doc.pending.is_none() && doc.source.outline_started() {
            let dirty = doc.dirty_check();
            self.prefetch.outline(&key, doc.source.snapshot(), dirty);
        }
        if !reasons.is_empty() {
            return Err(StateError::BadChanges { uri: uri.to_string(), reasons });
        }
        Ok(ChangeOutcome {
            previous_version,
            version_regressed: version.is_some_and(|v| v <= previous_version),
        })
    }

    /// Records a save: the mirror (or `text`, when the editor sends it) is the saved text now.
    pub fn saved(&mut self, uri: &str, text: Option<&str>) -> Result<(), StateError> {
        let key = key_of(uri);
        let Some(doc) = self.docs.get_mut(&key) else {
            return Err(StateError::UnknownDocument(uri.to_string()));
        };
        doc.mark_saved(text);
        Ok(())
    }

    /// Sets the cursor and selections the editor reported for a document.
    pub fn set_cursor(&mut self, uri: &str, update: CursorUpdate) -> Result<(), StateError> {
        let key = key_of(uri);
        let touched = self.tick();
        self.touch_now();
        let Some(doc) = self.docs.get_mut(&key) else {
            return Err(StateError::UnknownDocument(uri.to_string()));
        };
        doc.mark = Mark::place(doc.text(), update);
        doc.touched = touched;
        Ok(())
    }

    /// A position-bearing request (hover, completion, …) from an editor without a cursor
    /// plugin: it stands in for the cursor, and `selection` (a code action's range) for the
    /// selection. Ignored when the editor reports its cursor itself.
    pub fn request_at(
        &mut self,
        uri: &str,
        position: Position,
        selection: Option<Range>,
        encoding: PositionEncoding,
    ) -> Result<(), StateError> {
        if self.cursor_plugin {
            return if self.docs.contains_key(&key_of(uri)) {
                Ok(())
            } else {
                Err(StateError::UnknownDocument(uri.to_string()))
            };
        }
        let update = CursorUpdate {
            version: None,
            position,
            selections: selection.into_iter().collect(),
            encoding,
        };
        self.set_cursor(uri, update)
    }

    /// The cursor reported by path (`workspace/executeCommand locus.cursor`): a relative path
    /// is looked up against the working directory, then each workspace folder, then as the
    /// end of an open document's path.
    pub fn set_cursor_by_path(
        &mut self,
        path: &Path,
        update: CursorUpdate,
    ) -> Result<String, StateError> {
        let uri = document::find_path(&self.docs, &self.folders, path)
            .ok_or_else(|| StateError::UnknownPath(path.to_path_buf()))?;
        self.set_cursor(&uri, update)?;
        Ok(uri)
    }

    /// Says which text editor the user was last in, and whether their focus is still there
    /// (docs/reference/lsp.md: focus moving to a terminal or the agent's pane keeps the editor,
    /// with `focused: false`). `None` only when no text editor is left open. The document need not
    /// be open yet: editors often announce focus before they open the document.
    pub fn set_active(&mut self, uri: Option<&str>, focused: bool) {
        self.focus = Focus::Explicit { key: uri.map(key_of), focused: focused && uri.is_some() };
        if let Some(uri) = uri {
            let touched = self.tick();
            if let Some(doc) = self.docs.get_mut(&key_of(uri)) {
                doc.touched = touched;
            }
        }
    }

    /// Says only that the user's focus left the editor or came back, keeping the last text
    /// editor (an editor that reports focus without naming a document).
    pub fn set_focused(&mut self, focused: bool) {
        match &mut self.focus {
            Focus::Explicit { key: Some(_), focused: f } => *f = focused,
            Focus::Explicit { key: None, .. } => {}
            Focus::Implicit => {
                let key = self.active_key();
                self.focus = Focus::Explicit { key, focused };
            }
        }
    }

    /// The key of the document of the active editor (the last text editor the user was in),
    /// if it is open.
    fn active_key(&self) -> Option<String> {
        match &self.focus {
            Focus::Explicit { key: Some(key), .. } => {
                self.docs.contains_key(key).then(|| key.clone())
            }
            Focus::Explicit { key: None, .. } => None,
            Focus::Implicit => {
                self.docs.iter().max_by_key(|(_, d)| d.touched).map(|(k, _)| k.clone())
            }
        }
    }

    /// Whether the user's focus is in the active editor: `None` when the editor never said.
    pub fn focused(&self) -> Option<bool> {
        match self.focus {
            Focus::Explicit { focused, .. } => Some(focused),
            Focus::Implicit => None,
        }
    }

    /// When the user last acted in the editor (an edit, a cursor move or selection, a
    /// position-bearing request, opening a document), in milliseconds since the Unix epoch;
    /// 0 before anything. Focus events and symbol pushes do not count: with two editors on one
    /// folder, agents follow the one the user touched last, not the one focused last.
    pub fn last_touch_ms(&self) -> u64 {
        self.last_touch_ms
    }

    fn touch_now(&mut self) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        self.last_touch_ms = self.last_touch_ms.max(now);
    }

    /// The URI of the active editor's document, if one has focus and is open.
    pub fn active_uri(&self) -> Option<String> {
        self.active_key().map(|k| self.docs[&k].uri.clone())
    }

    /// Stores symbols pushed by the editor for `version` of a document.
    pub fn set_symbols(
        &mut self,
        uri: &str,
        version: i32,
        symbols: Vec<RawSymbol>,
        encoding: PositionEncoding,
    ) -> Result<SymbolsOutcome, StateError> {
        let key = key_of(uri);
        let Some(doc) = self.docs.get_mut(&key) else {
            return Err(StateError::UnknownDocument(uri.to_string()));
        };
        let text = doc.text().clone();
        Ok(doc.pushed.push(&text, version, symbols, encoding))
    }

    /// The editorContext asked for: `Ok(None)` when no document is given and no editor has
    /// focus; an error for a document that is not open. Everything is computed here, under
    /// the caller's lock, so only tests use it: readers that share the state use
    /// [`EditorState::context_pending`] and build the context after releasing it.
    #[cfg(test)]
    pub fn context(
        &mut self,
        query: ContextQuery<'_>,
    ) -> Result<Option<EditorContext>, StateError> {
        Ok(self.context_pending(query)?.map(PendingContext::build))
    }

    /// What [`EditorState::context`] answers, taken now (cheap: the text, the tree and the
    /// outline are shared, not copied) and built later by [`PendingContext::build`], after
    /// the lock is released: the work in proportion to the document (updating the outline
    /// after an edit, comparing the text with the saved file) is done there, once per
    /// version whoever asks.
    pub fn context_pending(
        &mut self,
        query: ContextQuery<'_>,
    ) -> Result<Option<PendingContext>, StateError> {
        let key = match query.uri {
            Some(uri) => {
                self.reparse(uri)?;
                key_of(uri)
            }
            None => match self.active_key() {
                Some(key) => {
                    self.reparse(&self.docs[&key].uri.clone())?;
                    key
                }
                None => return Ok(None),
            },
        };
        // Focus is the active editor's: a context asked of another document says nothing of it.
        let focused = if Some(&key) == self.active_key().as_ref() { self.focused() } else { None };
        let doc = self.docs.get_mut(&key).expect("checked above");
        doc.context_read = Some(std::time::Instant::now());
        let (cursor, selection) = match query.position {
            Some(p) => (doc.text().offset_at(p, query.encoding), None),
            None => doc.mark.resolve(doc.text()),
        };
        Ok(Some(PendingContext {
            source: doc.source.snapshot(),
            path: doc.path.clone(),
            uri: doc.uri.clone(),
            language_id: doc.language_id.clone(),
            dirty: doc.dirty_check(),
            cursor,
            selection,
            pushed: doc.pushed.current(),
            unsynced: doc.unsynced.clone(),
            focused,
        }))
    }

    /// Parses a document's deferred edits now (they are parsed anyway before any context).
    pub fn reparse(&mut self, uri: &str) -> Result<(), StateError> {
        let key = key_of(uri);
        match self.docs.get_mut(&key) {
            Some(doc) => {
                let was_asleep = doc.asleep;
                doc.wake();
                if was_asleep {
                    document::keep_awake(&mut self.docs, &key);
                }
                Ok(())
            }
            None => Err(StateError::UnknownDocument(uri.to_string())),
        }
    }

    /// The text and version of a document (for tests and debugging).
    pub fn text(&self, uri: &str) -> Option<(i32, String)> {
        self.docs.get(&key_of(uri)).map(|d| (d.text().version(), d.text().text()))
    }

    /// Each open document's path, language id and text, with a snapshot of its parsed source
    /// when its tree is current (awake, no deferred edits). Nothing is parsed or outlined here
    /// (the caller holds the state's lock): the snapshot shares the text, the tree and the
    /// outline computed so far, and whoever reads its outline later computes it as a context
    /// would (after an edit, only the changed region), outside the lock. For the workspace
    /// symbol index.
    pub fn outlines(&self) -> Vec<DocumentOutline> {
        self.docs
            .values()
            .map(|d| DocumentOutline {
                path: d.path.clone(),
                language_id: d.language_id.clone(),
                doc: d.text().clone(),
                source: (!d.asleep && d.pending.is_none() && d.source.has_symbols())
                    .then(|| d.source.snapshot()),
            })
            .collect()
    }

    /// A light copy of everything, for readers that must not hold the lock.
    pub fn snapshot(&mut self) -> Snapshot {
        let active = self.active_uri();
        let mut docs: Vec<&mut DocState> = self.docs.values_mut().collect();
        docs.sort_by_key(|d| std::cmp::Reverse(d.touched));
        let documents = docs
            .into_iter()
            .map(|d| {
                let (cursor, selection) = d.mark.resolve(d.text());
                DocumentSnapshot {
                    uri: d.uri.clone(),
                    path: d.path.clone(),
                    language_id: d.language_id.clone(),
                    doc: d.text().clone(),
                    is_dirty: d.is_dirty(),
                    cursor,
                    selection,
                }
            })
            .collect();
        Snapshot { active, documents, folders: self.folders.clone() }
    }
}

/// Why a change's range cannot be placed in `doc` as the editor meant it: a line past the
/// end (the start of the line after the last is the end, as LSP allows), or an inverted
/// range. A character past its line's end is that line's end, as LSP says: not misplaced.
fn misplaced(doc: &Document, range: Range) -> Option<String> {
    if range.end < range.start {
        return Some(format!(
            "a change had an inverted range ({}:{} to {}:{})",
            range.start.line + 1,
            range.start.character + 1,
            range.end.line + 1,
            range.end.character + 1
        ));
    }
    let lines = doc.line_count();
    let past = |p: Position| {
        let line = p.line as usize;
        line > lines || (line == lines && p.character > 0)
    };
    [range.start, range.end].into_iter().find(|p| past(*p)).map(|p| {
        format!("a change reached line {} of a document of {lines} lines", p.line as usize + 1)
    })
}

#[cfg(test)]
mod tests;
