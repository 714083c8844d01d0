//! The editor state: what Locus knows of the editor it serves — the open documents (unsaved
//! text included), which editor has focus, the cursor and selections, and symbols pushed by
//! the editor's own language server.
//!
//! The LSP edge (`crate::lsp`) feeds it and the MCP edge (a later issue) reads it; both go
//! through [`Shared`], a cheaply cloned handle around one lock.
//!
//! **Invariants.**
//! - No protocol types and no JSON here: positions are [`locus_doc::Position`]s with an
//!   explicit [`PositionEncoding`], offsets are UTF-8 bytes of the mirror.
//! - Nothing here fails as a whole or panics on bad input: unknown documents are errors the
//!   caller reports, positions are clamped by the mirror, stale data is dropped, not used.
//! - Symbols pushed by the editor are used only while the document is at the version they
//!   were computed for; otherwise the syntax tree answers and the context says so.
//! - Every method is cheap: no IO except reading a file once at open, and no work in
//!   proportion to the document except its first outline (later ones are incremental, in
//!   `locus_scopes::Source`), one reparse for many edits when reparsing is deferred, and a
//!   full parse when a context is asked of a document that was put to sleep.
//! - The text is always exact, asleep or deferred or not: only trees are dropped or late.

mod shared;
mod symbols;

use std::collections::HashMap;
use std::fmt;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use locus_context::{EditorContext, Request, Symbols};
use locus_doc::{Document, Position, PositionEncoding, Range, TextEdit};
use locus_scopes::{Language, Outline, Registry, Source, Span};

pub use shared::Shared;
pub use symbols::{RawSymbol, nest as nest_symbols};

/// Documents beyond this much text (least recently touched first) sleep: their syntax trees,
/// about 30 times the size of their text, are dropped and rebuilt when asked for. 1,000 open
/// documents then cost their text plus the trees of the ~100 most recent ones.
const AWAKE_TEXT_BUDGET: usize = 4 << 20;
/// The most recently touched documents that stay awake whatever their size.
const MIN_AWAKE: usize = 8;

/// Edits whose reparse takes longer than this are applied to the text at once and parsed
/// later, in one go, when the tree is needed: a burst of edits to a document that parses
/// slowly (a large one, or one full of syntax errors) then costs one parse, not one per edit.
const EAGER_PARSE_BUDGET: Duration = Duration::from_millis(4);

/// Edits applied to the text but not parsed yet, and the span they cover: the text before
/// `prefix` and the last `suffix` bytes are unchanged since the parse.
#[derive(Debug)]
struct Deferred {
    doc: Document,
    prefix: usize,
    suffix: usize,
    old_len: usize,
}

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

/// What happened to a symbol push.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolsOutcome {
    /// The push matches the document's version and is in use.
    Used,
    /// The push is for a version the mirror has not reached yet; used when it does.
    Pending,
    /// The push is for an older version than the mirror's and was dropped.
    Stale {
        /// The document's version.
        current: i32,
    },
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

/// Where the active editor comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Focus {
    /// The editor never said: the last document touched stands in.
    Implicit,
    /// The editor said which document has focus (a key), or that none has.
    Explicit(Option<String>),
}

/// The saved text of a document, as a length and a hash (the text itself is not kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    len: usize,
    hash: u64,
}

impl Fingerprint {
    fn of_str(text: &str) -> Fingerprint {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        h.write(text.as_bytes());
        Fingerprint { len: text.len(), hash: h.finish() }
    }

    fn of_doc(doc: &Document) -> Fingerprint {
        // SipHash's `write` is streaming, so the rope's chunking does not change the hash.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for chunk in doc.rope().chunks() {
            h.write(chunk.as_bytes());
        }
        Fingerprint { len: doc.len_bytes(), hash: h.finish() }
    }
}

/// The cursor of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mark {
    /// Nothing known yet: the start of the document stands in.
    Unknown,
    /// Known, in bytes of the current text; selections primary first.
    At { offset: usize, selections: Vec<Span> },
    /// Given for a version the mirror has not reached yet.
    Pending { update: CursorUpdate, version: i32 },
}

/// Symbols the editor pushed for one document.
#[derive(Debug, Clone)]
enum Pushed {
    None,
    /// Converted against the text of `generation`; valid only while the document is there.
    Ready {
        generation: u64,
        outline: Arc<Outline>,
    },
    /// For a version the mirror has not reached yet.
    Pending {
        version: i32,
        symbols: Vec<RawSymbol>,
        encoding: PositionEncoding,
    },
}

/// One open document.
struct DocState {
    uri: String,
    path: String,
    language_id: String,
    /// The parsed text. Behind `pending` while reparsing is deferred; plain text (no tree)
    /// while the document sleeps.
    source: Source,
    /// The document's language, for parsing it again when it wakes.
    language: Option<Language>,
    /// Whether the tree was dropped to save memory (see [`AWAKE_TEXT_BUDGET`]).
    asleep: bool,
    /// Edits not parsed yet (see [`Deferred`]).
    pending: Option<Deferred>,
    /// How long the last reparse took.
    parse_cost: Duration,
    /// Counts every applied change; unlike the editor's version it never repeats.
    generation: u64,
    saved: Option<Fingerprint>,
    dirty_cache: Option<(u64, bool)>,
    mark: Mark,
    pushed: Pushed,
    touched: u64,
}

impl DocState {
    /// The current text (ahead of the parsed one while reparsing is deferred).
    fn text(&self) -> &Document {
        match &self.pending {
            Some(p) => &p.doc,
            None => self.source.doc(),
        }
    }

    /// Applies one change: to the parsed source right away when reparsing is cheap, else to
    /// the text only, to be parsed in one go when someone needs the tree.
    fn apply(
        &mut self,
        change: &Change,
        encoding: PositionEncoding,
    ) -> Result<TextEdit, locus_doc::DocError> {
        if self.pending.is_none() && self.parse_cost <= EAGER_PARSE_BUDGET {
            let started = Instant::now();
            let edit = self.source.apply_change(change.range, &change.text, encoding)?;
            self.parse_cost = started.elapsed();
            return Ok(edit);
        }
        let source = &self.source;
        let pending = self.pending.get_or_insert_with(|| Deferred {
            doc: source.doc().clone(),
            prefix: usize::MAX,
            suffix: usize::MAX,
            old_len: source.doc().len_bytes(),
        });
        let edit = pending.doc.apply_change(change.range, &change.text, encoding)?;
        pending.prefix = pending.prefix.min(edit.start_byte);
        pending.suffix = pending.suffix.min(pending.doc.len_bytes() - edit.new_end_byte);
        Ok(edit)
    }

    /// Sets the version of the current text.
    fn set_version(&mut self, version: i32) {
        match &mut self.pending {
            Some(p) => p.doc.set_version(version),
            None => self.source.set_version(version),
        }
    }

    /// Drops the tree (and outline) to save memory; the text stays exact.
    fn sleep(&mut self) {
        if self.asleep {
            return;
        }
        let text = self.text().clone();
        self.pending = None;
        self.source = Source::new(text, None);
        self.asleep = true;
    }

    /// Parses a sleeping document again, and any deferred edits.
    fn wake(&mut self) {
        self.flush();
        if self.asleep {
            let started = Instant::now();
            self.source = Source::new(self.source.doc().clone(), self.language);
            self.parse_cost = started.elapsed();
            self.asleep = false;
        }
    }

    /// Parses deferred edits, as one edit spanning all of them.
    fn flush(&mut self) {
        let Some(p) = self.pending.take() else { return };
        let (old_len, new_len) = (p.old_len, p.doc.len_bytes());
        let (mut start, mut old_end, mut new_end) =
            (p.prefix, old_len.saturating_sub(p.suffix), new_len.saturating_sub(p.suffix));
        if start > old_end || start > new_end {
            (start, old_end, new_end) = (0, old_len, new_len);
        }
        let replacement = p.doc.slice(start, new_end);
        let started = Instant::now();
        self.source.replace_bytes(start, old_end, &replacement);
        self.source.set_version(p.doc.version());
        self.parse_cost = started.elapsed();
        debug_assert_eq!(self.source.doc().len_bytes(), new_len);
    }

    fn is_dirty(&mut self) -> bool {
        if let Some((generation, dirty)) = self.dirty_cache
            && generation == self.generation
        {
            return dirty;
        }
        let doc = self.text();
        let dirty = match self.saved {
            // Never saved (no file behind it): dirty once it has any text.
            None => doc.len_bytes() > 0,
            Some(saved) if saved.len != doc.len_bytes() => true,
            Some(saved) => Fingerprint::of_doc(doc) != saved,
        };
        self.dirty_cache = Some((self.generation, dirty));
        dirty
    }

    /// The cursor and primary selection in bytes of the current text.
    fn cursor(&self) -> (usize, Option<Span>) {
        let doc = self.text();
        match &self.mark {
            Mark::Unknown => (0, None),
            Mark::At { offset, selections } => (
                doc.floor_char_boundary(*offset),
                selections.first().copied().filter(|s| s.start != s.end),
            ),
            // The editor is ahead of the mirror: the best guess is the position against the
            // text we have, clamped.
            Mark::Pending { update, .. } => resolve(doc, update),
        }
    }

    fn apply_mark(&mut self, update: CursorUpdate) {
        let doc = self.text();
        match update.version {
            Some(v) if v > doc.version() => self.mark = Mark::Pending { version: v, update },
            _ => {
                let (offset, selection) = resolve(doc, &update);
                let mut selections: Vec<Span> =
                    update.selections.iter().map(|r| span_of(doc, *r, update.encoding)).collect();
                if selections.is_empty() {
                    selections.extend(selection);
                }
                self.mark = Mark::At { offset, selections };
            }
        }
    }
}

fn span_of(doc: &Document, r: Range, encoding: PositionEncoding) -> Span {
    let (a, b) = (doc.offset_at(r.start, encoding), doc.offset_at(r.end, encoding));
    Span { start: a.min(b), end: a.max(b) }
}

fn resolve(doc: &Document, update: &CursorUpdate) -> (usize, Option<Span>) {
    let offset = doc.offset_at(update.position, update.encoding);
    let selection = update
        .selections
        .first()
        .map(|r| span_of(doc, *r, update.encoding))
        .filter(|s| s.start != s.end);
    (offset, selection)
}

/// Where an offset goes when `edit` is applied: before the edit it stays, after it shifts,
/// inside the replaced text it moves to the end of the new text (where a typing cursor is).
fn shift(offset: usize, edit: &TextEdit) -> usize {
    if offset < edit.start_byte {
        offset
    } else if offset > edit.old_end_byte {
        offset - edit.old_end_byte + edit.new_end_byte
    } else {
        edit.new_end_byte
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
        let path = path_of(uri);
        let registry = Registry::builtin();
        let language = registry
            .by_id(language_id)
            .or_else(|| registry.for_path(Path::new(&path), text.lines().next()));
        let started = Instant::now();
        let source = Source::new(Document::new(text, version), language);
        let parse_cost = started.elapsed();
        let saved = if uri.starts_with("file:") {
            match std::fs::read(&path) {
                Ok(bytes) if bytes == text.as_bytes() => Some(Fingerprint::of_str(text)),
                Ok(bytes) => Some(Fingerprint::of_str(&String::from_utf8_lossy(&bytes))),
                Err(_) => None,
            }
        } else {
            None
        };
        let language_id = if language_id.is_empty() {
            language.map(|l| l.id().to_string()).unwrap_or_else(|| "plaintext".to_string())
        } else {
            language_id.to_string()
        };
        let touched = self.tick();
        let doc = DocState {
            uri: uri.to_string(),
            path,
            language_id,
            source,
            language,
            asleep: false,
            pending: None,
            parse_cost,
            generation: 0,
            saved,
            dirty_cache: None,
            mark: Mark::Unknown,
            pushed: Pushed::None,
            touched,
        };
        let existed = self.docs.insert(key.clone(), doc).is_some();
        self.keep_awake(&key);
        existed
    }

    /// Puts the least recently touched documents to sleep (dropping their trees) once the
    /// awake ones hold more than [`AWAKE_TEXT_BUDGET`] of text, keeping the
    /// [`MIN_AWAKE`] most recent ones and `keep` awake whatever their size.
    fn keep_awake(&mut self, keep: &str) {
        let mut awake: Vec<(u64, &String, usize)> = self
            .docs
            .iter()
            .filter(|(_, d)| !d.asleep)
            .map(|(k, d)| (d.touched, k, d.text().len_bytes()))
            .collect();
        let total: usize = awake.iter().map(|a| a.2).sum();
        if awake.len() <= MIN_AWAKE || total <= AWAKE_TEXT_BUDGET {
            return;
        }
        awake.sort_by_key(|a| std::cmp::Reverse(a.0));
        let mut bytes = 0;
        let mut sleepers = Vec::new();
        for (i, (_, key, len)) in awake.into_iter().enumerate() {
            bytes += len;
            if i >= MIN_AWAKE && bytes > AWAKE_TEXT_BUDGET && key.as_str() != keep {
                sleepers.push(key.clone());
            }
        }
        for key in sleepers {
            if let Some(doc) = self.docs.get_mut(&key) {
                doc.sleep();
            }
        }
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
        let plugin = self.cursor_plugin;
        let Some(doc) = self.docs.get_mut(&key) else {
            return Err(StateError::UnknownDocument(uri.to_string()));
        };
        let previous_version = doc.text().version();
        let mut reasons = Vec::new();
        for change in changes {
            match doc.apply(change, encoding) {
                Ok(edit) => {
                    doc.generation += 1;
                    doc.mark = match std::mem::replace(&mut doc.mark, Mark::Unknown) {
                        Mark::At { offset, mut selections } if plugin => {
                            for s in &mut selections {
                                *s =
                                    Span { start: shift(s.start, &edit), end: shift(s.end, &edit) };
                            }
                            Mark::At { offset: shift(offset, &edit), selections }
                        }
                        pending @ Mark::Pending { .. } => pending,
                        // Without a plugin the last edit stands in for the cursor.
                        _ if !plugin => {
                            Mark::At { offset: edit.new_end_byte, selections: Vec::new() }
                        }
                        other => other,
                    };
                }
                Err(e) => reasons.push(e.to_string()),
            }
        }
        let new_version = version.unwrap_or(previous_version);
        doc.set_version(new_version);
        doc.touched = touched;
        // Pending cursor or symbols become usable once the mirror reaches their version.
        if let Mark::Pending { version: v, update } = &doc.mark
            && *v <= new_version
        {
            let update = CursorUpdate { version: None, ..update.clone() };
            doc.apply_mark(update);
        }
        match std::mem::replace(&mut doc.pushed, Pushed::None) {
            Pushed::Pending { version: v, symbols, encoding: e } if v == new_version => {
                let outline = symbols::to_outline(doc.text(), &symbols, e);
                doc.pushed =
                    Pushed::Ready { generation: doc.generation, outline: Arc::new(outline) };
            }
            keep @ Pushed::Pending { version: v, .. } if v > new_version => doc.pushed = keep,
            // Ready symbols belong to an older text now; drop them (and their memory).
            _ => {}
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
        doc.saved = Some(match text {
            Some(t) => Fingerprint::of_str(t),
            None => Fingerprint::of_doc(doc.text()),
        });
        doc.dirty_cache = None;
        Ok(())
    }

    /// Sets the cursor and selections the editor reported for a document.
    pub fn set_cursor(&mut self, uri: &str, update: CursorUpdate) -> Result<(), StateError> {
        let key = key_of(uri);
        let touched = self.tick();
        let Some(doc) = self.docs.get_mut(&key) else {
            return Err(StateError::UnknownDocument(uri.to_string()));
        };
        doc.apply_mark(update);
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
        let uri =
            self.find_path(path).ok_or_else(|| StateError::UnknownPath(path.to_path_buf()))?;
        self.set_cursor(&uri, update)?;
        Ok(uri)
    }

    fn find_path(&self, path: &Path) -> Option<String> {
        let by_path = |p: &Path| {
            let p = p.to_string_lossy();
            self.docs.values().find(|d| d.path == p).map(|d| d.uri.clone())
        };
        let mut candidates = Vec::new();
        if path.is_absolute() {
            candidates.push(path.to_path_buf());
        } else {
            if let Ok(cwd) = std::env::current_dir() {
                candidates.push(cwd.join(path));
            }
            candidates.extend(self.folders.iter().map(|f| f.join(path)));
        }
        for c in &candidates {
            if let Some(uri) = by_path(c) {
                return Some(uri);
            }
            if let Ok(canonical) = std::fs::canonicalize(c)
                && let Some(uri) = by_path(&canonical)
            {
                return Some(uri);
            }
        }
        // A relative path that matches the end of exactly one open document's path.
        if !path.is_absolute() {
            let mut hits = self
                .docs
                .values()
                .filter(|d| Path::new(&d.path).ends_with(path))
                .map(|d| d.uri.clone());
            if let (Some(one), None) = (hits.next(), hits.next()) {
                return Some(one);
            }
        }
        None
    }

    /// Says which document has focus (`None`: no editor has focus). The document need not be
    /// open yet: editors often announce focus before they open the document.
    pub fn set_active(&mut self, uri: Option<&str>) {
        self.focus = Focus::Explicit(uri.map(key_of));
        if let Some(uri) = uri {
            let touched = self.tick();
            if let Some(doc) = self.docs.get_mut(&key_of(uri)) {
                doc.touched = touched;
            }
        }
    }

    /// The key of the document of the active editor, if one has focus and is open.
    fn active_key(&self) -> Option<String> {
        match &self.focus {
            Focus::Explicit(Some(key)) => self.docs.contains_key(key).then(|| key.clone()),
            Focus::Explicit(None) => None,
            Focus::Implicit => {
                self.docs.iter().max_by_key(|(_, d)| d.touched).map(|(k, _)| k.clone())
            }
        }
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
        let current = doc.text().version();
        if version < current {
            return Ok(SymbolsOutcome::Stale { current });
        }
        if version > current {
            doc.pushed = Pushed::Pending { version, symbols, encoding };
            return Ok(SymbolsOutcome::Pending);
        }
        let outline = symbols::to_outline(doc.text(), &symbols, encoding);
        doc.pushed = Pushed::Ready { generation: doc.generation, outline: Arc::new(outline) };
        Ok(SymbolsOutcome::Used)
    }

    /// The editorContext asked for: `Ok(None)` when no document is given and no editor has
    /// focus; an error for a document that is not open.
    pub fn context(
        &mut self,
        query: ContextQuery<'_>,
    ) -> Result<Option<EditorContext>, StateError> {
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
        let doc = self.docs.get_mut(&key).expect("checked above");
        let (cursor, selection) = match query.position {
            Some(p) => (doc.text().offset_at(p, query.encoding), None),
            None => doc.cursor(),
        };
        let is_dirty = doc.is_dirty();
        let pushed = match &doc.pushed {
            Pushed::Ready { generation, outline } if *generation == doc.generation => {
                Some(outline.clone())
            }
            _ => None,
        };
        let request = |symbols| Request {
            path: &doc.path,
            language_id: Some(&doc.language_id),
            is_dirty,
            cursor,
            selection,
            symbols,
        };
        let symbols = match &pushed {
            Some(outline) => Symbols::Editor(outline),
            None => Symbols::Syntax,
        };
        Ok(Some(locus_context::build(&doc.source, &request(symbols))))
    }

    /// Parses a document's deferred edits now (they are parsed anyway before any context).
    pub fn reparse(&mut self, uri: &str) -> Result<(), StateError> {
        let key = key_of(uri);
        match self.docs.get_mut(&key) {
            Some(doc) => {
                let was_asleep = doc.asleep;
                doc.wake();
                if was_asleep {
                    self.keep_awake(&key);
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

    /// A light copy of everything, for readers that must not hold the lock.
    pub fn snapshot(&mut self) -> Snapshot {
        let active = self.active_uri();
        let mut docs: Vec<&mut DocState> = self.docs.values_mut().collect();
        docs.sort_by_key(|d| std::cmp::Reverse(d.touched));
        let documents = docs
            .into_iter()
            .map(|d| {
                let (cursor, selection) = d.cursor();
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

/// The key documents are stored under: for `file:` URIs the decoded path, so that two
/// spellings of one file (`%3A` or `:`) meet; the URI itself otherwise.
fn key_of(uri: &str) -> String {
    if uri.starts_with("file:") { path_of(uri) } else { uri.to_string() }
}

/// The path of a `file:` URI (percent-decoded); other URIs are their own path.
pub fn path_of(uri: &str) -> String {
    let Some(rest) = uri.strip_prefix("file:") else {
        return uri.to_string();
    };
    // file:///abs, file://host/abs (host ignored), file:/abs
    let rest = match rest.strip_prefix("//") {
        Some(after) => match after.find('/') {
            Some(i) => &after[i..],
            None => "/",
        },
        None => rest,
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    percent_decode(rest)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
