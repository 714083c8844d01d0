//! One open document: its text, always exact, and its syntax tree, sometimes late or dropped.
//!
//! **Invariants.**
//! - [`DocState::text`] is the editor's text at its latest version, whatever the tree's state.
//! - The tree is current, or behind by deferred edits (`pending`: edits whose reparse was
//!   slow are applied to the text only and parsed in one go when a tree is needed), or
//!   dropped (`asleep`: the least recently touched documents beyond [`AWAKE_TEXT_BUDGET`]
//!   keep only their text). [`DocState::wake`] brings any of these back to current.
//! - `generation` counts every applied change and never repeats: cached answers (dirty) are
//!   tied to it, never to the editor's version, which an editor may reuse.
//! - The saved text is kept as a fingerprint (length and hash), never as text; the file on
//!   disk is read once, at open.

use std::collections::HashMap;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use locus_doc::{Document, PositionEncoding, TextEdit};
use locus_scopes::{Language, Registry, Runtime, Source};

use super::Change;
use super::cursor::Mark;
use super::symbols::Pushed;
use super::uri::path_of;

/// Documents beyond this much text (least recently touched first) sleep: their syntax trees,
/// about 30 times the size of their text, are dropped and rebuilt when asked for. 1,000 open
/// documents then cost their text plus the trees of the ~100 most recent ones.
pub(super) const AWAKE_TEXT_BUDGET: usize = 4 << 20;
/// The most recently touched documents that stay awake whatever their size.
const MIN_AWAKE: usize = 8;

/// Edits whose reparse takes longer than this are applied to the text at once and parsed
/// later, in one go, when the tree is needed: a burst of edits to a document that parses
/// slowly (a large one, or one full of syntax errors) then costs one parse, not one per edit.
const EAGER_PARSE_BUDGET: Duration = Duration::from_millis(4);

/// Edits applied to the text but not parsed yet, and the span they cover: the text before
/// `prefix` and the last `suffix` bytes are unchanged since the parse.
#[derive(Debug)]
pub(super) struct Deferred {
    doc: Document,
    prefix: usize,
    suffix: usize,
    old_len: usize,
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

/// One open document.
pub(super) struct DocState {
    pub(super) uri: String,
    pub(super) path: String,
    pub(super) language_id: String,
    /// The parsed text. Behind `pending` while reparsing is deferred; plain text (no tree)
    /// while the document sleeps.
    pub(super) source: Source,
    /// The document's language, for parsing it again when it wakes.
    language: Option<Language>,
    /// The runtime its static conditions are evaluated for (its workspace folder's Python).
    runtime: Runtime,
    /// Whether the document has no tree: not parsed yet since it was opened, or its tree
    /// dropped to save memory (see [`AWAKE_TEXT_BUDGET`]).
    pub(super) asleep: bool,
    /// Edits not parsed yet (see [`Deferred`]).
    pub(super) pending: Option<Deferred>,
    /// How long the last reparse took.
    pub(super) parse_cost: Duration,
    /// Counts every applied change; unlike the editor's version it never repeats.
    pub(super) generation: u64,
    /// The saved text's fingerprint; `None` when there is no file behind the document.
    saved: Option<Fingerprint>,
    /// Whether the text of generation `dirty_generation` differs from the saved one: computed
    /// once, by whoever asks first, outside the state's lock (see [`DirtyCheck`]).
    dirty: Arc<OnceLock<bool>>,
    dirty_generation: u64,
    /// Where the user's cursor is in this document.
    pub(super) mark: Mark,
    /// Symbols the editor pushed for this document.
    pub(super) pushed: Pushed,
    /// When the document was last touched (the state's clock): for focus and sleep.
    pub(super) touched: u64,
    /// Why the mirror may differ from the editor's text (a change it could not place), until
    /// the editor sends the whole text again.
    pub(super) unsynced: Option<String>,
    /// When a context of this document was last asked: its outline is updated in the
    /// background after edits for a while after that (see `prefetch.rs`).
    pub(super) context_read: Option<Instant>,
}

impl DocState {
    /// A document the editor opened. The language comes from `language_id`, else from the
    /// path; `isDirty` compares `text` with the file on disk (read once, here).
    pub(super) fn open(
        uri: &str,
        language_id: &str,
        version: i32,
        text: &str,
        touched: u64,
    ) -> DocState {
        let path = path_of(uri);
        let registry = Registry::builtin();
        let language = registry
            .by_id(language_id)
            .or_else(|| registry.for_path(Path::new(&path), text.lines().next()));
        // Parsed on first need (a context, an outline), not here: a document that is only being
        // opened does not hold up the editor's next messages, about it or about others.
        let source = Source::new(Document::new(text, version), None);
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
        DocState {
            uri: uri.to_string(),
            path,
            language_id,
            source,
            language,
            runtime: Runtime::default(),
            asleep: true,
            pending: None,
            parse_cost: Duration::ZERO,
            generation: 0,
            saved,
            dirty: Arc::default(),
            dirty_generation: 0,
            mark: Mark::Unknown,
            pushed: Pushed::default(),
            touched,
            unsynced: None,
            context_read: None,
        }
    }

    /// Records a save: the current text (or `text`, when the editor sends it) is the saved
    /// text now.
    pub(super) fn mark_saved(&mut self, text: Option<&str>) {
        self.saved = Some(match text {
            Some(t) => Fingerprint::of_str(t),
            None => Fingerprint::of_doc(self.text()),
        });
        self.dirty = Arc::default();
    }

    /// Evaluates the document's static conditions for `runtime` (applied when it is parsed).
    pub(super) fn set_runtime(&mut self, runtime: Runtime) {
        self.runtime = runtime;
        if !self.asleep {
            self.source.set_runtime(runtime);
        }
    }

    /// The document's language.
    pub(super) fn language(&self) -> Option<Language> {
        self.language
    }

    /// The current text (ahead of the parsed one while reparsing is deferred).
    pub(super) fn text(&self) -> &Document {
        match &self.pending {
            Some(p) => &p.doc,
            None => self.source.doc(),
        }
    }

    /// Applies one change: to the parsed source right away when reparsing is cheap, else to
    /// the text only, to be parsed in one go when someone needs the tree.
    pub(super) fn apply(
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
    pub(super) fn set_version(&mut self, version: i32) {
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
    pub(super) fn wake(&mut self) {
        self.flush();
        if self.asleep {
            let started = Instant::now();
            self.source = Source::new(self.source.doc().clone(), self.language);
            self.source.set_runtime(self.runtime);
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

    pub(super) fn is_dirty(&mut self) -> bool {
        self.dirty_check().get()
    }

    /// What answers whether the current text differs from the saved one, to be asked after
    /// the state's lock is released: comparing hashes the whole text (about a millisecond
    /// for a megabyte) when its length equals the saved one's.
    pub(super) fn dirty_check(&mut self) -> DirtyCheck {
        if self.dirty_generation != self.generation {
            self.dirty = Arc::default();
            self.dirty_generation = self.generation;
        }
        DirtyCheck { cell: self.dirty.clone(), doc: self.text().clone(), saved: self.saved }
    }
}

/// Whether one generation of a document's text differs from the saved text; computed once
/// per generation, shared by every reader of it.
pub(super) struct DirtyCheck {
    cell: Arc<OnceLock<bool>>,
    doc: Document,
    saved: Option<Fingerprint>,
}

impl DirtyCheck {
    pub(super) fn ready(&self) -> bool {
        self.cell.get().is_some()
    }

    pub(super) fn get(&self) -> bool {
        *self.cell.get_or_init(|| match self.saved {
            // Never saved (no file behind it): dirty once it has any text.
            None => self.doc.len_bytes() > 0,
            Some(saved) if saved.len != self.doc.len_bytes() => true,
            Some(saved) => Fingerprint::of_doc(&self.doc) != saved,
        })
    }
}

/// Puts the least recently touched documents to sleep (dropping their trees) once the
/// awake ones hold more than [`AWAKE_TEXT_BUDGET`] of text, keeping the
/// [`MIN_AWAKE`] most recent ones and `keep` awake whatever their size.
pub(super) fn keep_awake(docs: &mut HashMap<String, DocState>, keep: &str) {
    let mut awake: Vec<(u64, &String, usize)> = docs
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
        if let Some(doc) = docs.get_mut(&key) {
            doc.sleep();
        }
    }
}

/// The URI of the open document at `path` (for `locus.cursor`). The path is what an editor's
/// keymap could spell (Helix's `%{buffer_name}`: relative to its working directory, or `~/…`
/// under the home folder): `~` is the home folder; a relative path is looked up against the
/// editor's working directory (Helix's can change with `:cd`), Locus's own (editors start
/// servers in the workspace root), then each workspace folder; last, as the end of exactly one
/// open document's path. `.` and `..` are resolved by their names, for unsaved files that are
/// not on disk; symbolic links through the file system.
pub(super) fn find_path(
    docs: &HashMap<String, DocState>,
    folders: &[PathBuf],
    path: &Path,
) -> Option<String> {
    let by_path = |p: &Path| {
        let p = p.to_string_lossy();
        docs.values().find(|d| d.path == p).map(|d| d.uri.clone())
    };
    let path = expand_home(path);
    let mut candidates = Vec::new();
    if path.is_absolute() {
        candidates.push(path.clone());
    } else {
        candidates.extend(editor_dir().map(|d| d.join(&path)));
        if let Ok(cwd) = std::env::current_dir() {
            candidates.push(cwd.join(&path));
        }
        candidates.extend(folders.iter().map(|f| f.join(&path)));
    }
    for c in &candidates {
        if let Some(uri) = by_path(c).or_else(|| by_path(&normalize(c))) {
            return Some(uri);
        }
        if let Ok(canonical) = locus_platform::path::canonicalize(c)
            && let Some(uri) = by_path(&canonical)
        {
            return Some(uri);
        }
    }
    // A relative path that matches the end of exactly one open document's path.
    if !path.is_absolute() {
        let tail = normalize(&path);
        let mut hits =
            docs.values().filter(|d| Path::new(&d.path).ends_with(&tail)).map(|d| d.uri.clone());
        if let (Some(one), None) = (hits.next(), hits.next()) {
            return Some(one);
        }
    }
    None
}

/// `path` with a leading `~` component replaced by the home folder; other paths,
/// and every path when the home folder is unknown, unchanged.
fn expand_home(path: &Path) -> PathBuf {
    let mut components = path.components();
    let home = locus_platform::folders::home();
    match (components.next(), home) {
        (Some(std::path::Component::Normal(first)), Some(home)) if first == "~" => {
            home.join(components.as_path())
        }
        _ => path.to_path_buf(),
    }
}

/// The working directory of the editor that started Locus (its parent process), where the
/// system says (Linux, macOS).
fn editor_dir() -> Option<PathBuf> {
    locus_platform::process::working_dir(locus_platform::process::parent_id()?)
}

/// `path` with `.` components dropped and each `..` taking away the component before it,
/// by name only (a `..` with nothing before it stays).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}
