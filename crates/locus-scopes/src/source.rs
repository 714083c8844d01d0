//! A document together with its syntax tree and its outline, kept in step edit by edit.

use std::sync::{Arc, Mutex, OnceLock};

use locus_doc::{DocError, Document, PositionEncoding, Range, TextEdit};
use tree_sitter::{InputEdit, Parser, Point, Tree};

use crate::outline::{self, Outline, Span, Symbol};
use crate::query::{LanguageConfig, QueryError};
use crate::registry::{Language, Registry};
use crate::runtime::Runtime;

/// A mirrored document and what Locus knows of its structure.
///
/// The tree is reparsed incrementally after every edit; the outline is computed on first
/// request for each version and kept until the next edit.
pub struct Source {
    doc: Document,
    language: Option<Language>,
    config: Option<Arc<LanguageConfig>>,
    error: Option<Arc<QueryError>>,
    /// Made on the first edit (snapshots, which are mostly only read, start without one).
    parser: Option<Parser>,
    tree: Option<Tree>,
    /// The runtime static conditions are evaluated for.
    runtime: Runtime,
    /// This version's outline, shared by every snapshot of this version: whichever of them
    /// asks first computes it, and the others wait for that one computation.
    version: Arc<Version>,
}

/// One version's outlines (the editor's, and the workspace index's: the language's index
/// query over the same tree), each computed on first request, and how to compute them.
///
/// **Invariants.**
/// - A version holds its own text, tree and language: any holder can compute its outline,
///   on any thread, without the [`Source`] it came from (so a reader may compute it outside
///   the lock that guards the source, while the source moves on to later edits).
/// - Each cell's `base` refers to an outline of that cell already computed (held alone, not
///   its version: an earlier version's text and tree are not kept alive for it, however long
///   the cell goes unasked, as the index's may between syncs), or to a version whose outline
///   is being computed, or to none: edits after a version nobody computed are folded into
///   that version's own base, so computing the outline of the latest version costs one
///   update, however many edits came since the last computed one.
struct Version {
    doc: Document,
    tree: Option<Tree>,
    config: Option<Arc<LanguageConfig>>,
    /// For the index's query ([`Registry::index_config`], compiled on the index's first use).
    language: Option<Language>,
    /// The runtime the editor's outline evaluates static conditions for.
    runtime: Runtime,
    /// The editor's outline (the language's `symbols.scm`).
    editor: Cell,
    /// The workspace index's outline (`index_outline_of_source`), kept as the editor's is: an
    /// edit after a computed one costs an update around the change, not a whole extraction.
    index: Cell,
}

/// One outline of a version, computed once, and where it comes from.
struct Cell {
    outline: OnceLock<Arc<Outline>>,
    base: Mutex<Base>,
}

/// Which of a version's outlines.
#[derive(Clone, Copy)]
enum Which {
    /// The editor's, by the language's own query.
    Editor,
    /// The workspace index's, by [`Registry::index_config`].
    Index,
}

impl Cell {
    fn new(base: Base) -> Cell {
        Cell { outline: OnceLock::new(), base: Mutex::new(base) }
    }

    fn base(&self) -> std::sync::MutexGuard<'_, Base> {
        self.base.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Where a version's outline comes from.
#[derive(Clone)]
enum Base {
    /// Extracted from scratch.
    Scratch,
    /// `from`'s outline moved across `edits`, in order, and updated over `dirty` (in this
    /// version's offsets): every byte whose syntax may differ from `from`'s. `from_error`:
    /// `from`'s tree has an error (the update then trusts no edit to be unseen).
    From { from: Prior, edits: Vec<Shift>, dirty: Span, from_error: bool },
    /// Taken by the thread computing the outline (which may have been abandoned by a panic:
    /// then the next asker extracts from scratch).
    Taken,
}

/// The outline an update starts from.
#[derive(Clone)]
enum Prior {
    /// Computed: the outline alone (all the update needs of its version).
    Computed(Arc<Outline>),
    /// Being computed (or abandoned by a panic) by another asker: its version, to wait for it
    /// (or compute it).
    Pending(Arc<Version>),
}

impl Prior {
    /// The outline of `which`, waiting for it (or computing it) if need be.
    fn outline(self, which: Which) -> Arc<Outline> {
        match self {
            Prior::Computed(outline) => outline,
            Prior::Pending(version) => {
                let outline = version.outline(which);
                // Nobody else holds the earlier version (the usual case): drop it, so that the
                // outline below is ours alone, to take rather than copy.
                drop(Arc::try_unwrap(version));
                outline
            }
        }
    }
}

/// One edit's move of offsets: `start..old_end` became `start..new_end`.
#[derive(Clone, Copy)]
struct Shift {
    start: usize,
    old_end: usize,
    new_end: usize,
}

impl Shift {
    fn moved(self, p: usize) -> usize {
        if p < self.start {
            p
        } else if p >= self.old_end {
            p - self.old_end + self.new_end
        } else {
            self.new_end
        }
    }
}

impl Version {
    fn new(
        source: &Source,
        tree: Option<&Tree>,
        config: Option<&Arc<LanguageConfig>>,
        (editor, index): (Base, Base),
    ) -> Arc<Version> {
        Arc::new(Version {
            doc: source.doc.clone(),
            tree: tree.cloned(),
            config: config.cloned(),
            language: source.language,
            runtime: source.runtime,
            editor: Cell::new(editor),
            index: Cell::new(index),
        })
    }

    fn cell(&self, which: Which) -> &Cell {
        match which {
            Which::Editor => &self.editor,
            Which::Index => &self.index,
        }
    }

    /// The query of a cell: `None` when the language has none that loads.
    fn config(&self, which: Which) -> Option<Arc<LanguageConfig>> {
        match which {
            Which::Editor => self.config.clone(),
            Which::Index => {
                self.config.as_ref()?;
                Registry::builtin().index_config(self.language?).ok()
            }
        }
    }

    /// An outline, computed once (concurrent askers wait for the one computation).
    fn outline(&self, which: Which) -> Arc<Outline> {
        self.cell(which).outline.get_or_init(|| Arc::new(self.compute(which))).clone()
    }

    fn compute(&self, which: Which) -> Outline {
        let (Some(config), Some(tree)) = (self.config(which), &self.tree) else {
            return Outline::default();
        };
        let base = std::mem::replace(&mut *self.cell(which).base(), Base::Taken);
        let Base::From { from, edits, dirty, from_error } = base else {
            return outline::extract(&config, &self.runtime, tree, &self.doc);
        };
        let previous = from.outline(which);
        // Nobody else holds the earlier outline (the usual case): take it rather than copy it.
        let mut previous = Arc::try_unwrap(previous).unwrap_or_else(|shared| (*shared).clone());
        // The bytes the edits themselves wrote, in this version's offsets (`dirty` is these and
        // all that changed syntax around them).
        let mut edited = Span { start: dirty.start, end: dirty.start };
        for (i, e) in edits.iter().enumerate() {
            previous.shift(e.start, e.old_end, e.new_end);
            let (start, end) = match i {
                0 => (e.start, e.new_end),
                _ => (e.moved(edited.start).min(e.start), e.moved(edited.end).max(e.new_end)),
            };
            edited = Span { start, end };
        }
        let changed = outline::Changed { dirty, edited, from_error };
        outline::update(&config, &self.runtime, tree, &self.doc, previous, changed)
    }

    /// Where the next version's outline of a cell comes from, after `shift`: this version's,
    /// when it is computed or being computed; else the base this version's would have come
    /// from, `shift` folded in (or none).
    fn next_base(self: &Arc<Version>, which: Which, shift: Shift, dirty: Span) -> Base {
        let cell = self.cell(which);
        let from_error = self.tree.as_ref().is_some_and(|t| t.root_node().has_error());
        if let Some(outline) = cell.outline.get() {
            return Base::From {
                from: Prior::Computed(outline.clone()),
                edits: vec![shift],
                dirty,
                from_error,
            };
        }
        let held = cell.base().clone();
        match held {
            Base::Scratch => Base::Scratch,
            Base::Taken => {
                // Being computed: the version, to wait for it. (Computed meanwhile, the outline
                // alone.)
                let from = match cell.outline.get() {
                    Some(outline) => Prior::Computed(outline.clone()),
                    None => Prior::Pending(self.clone()),
                };
                Base::From { from, edits: vec![shift], dirty, from_error }
            }
            Base::From { from, mut edits, dirty: d, from_error } => {
                edits.push(shift);
                let d = Span { start: shift.moved(d.start), end: shift.moved(d.end) };
                let dirty = Span { start: dirty.start.min(d.start), end: dirty.end.max(d.end) };
                Base::From { from, edits, dirty, from_error }
            }
        }
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("language", &self.language.map(Language::id))
            .field("version", &self.doc.version())
            .finish()
    }
}

impl Source {
    /// Parses `doc` as `language`; with no language (plain text) there is no tree and no outline.
    /// A language whose queries fail to load behaves like plain text; [`Source::error`] says why.
    pub fn new(doc: Document, language: Option<Language>) -> Source {
        let registry = Registry::builtin();
        // The first document of a language in this process also compiles its queries (about
        // 100 ms for TypeScript): that runs on a second thread while the text parses, which
        // needs only the grammar.
        let (tree, parser, loaded) = std::thread::scope(|scope| {
            let compiling = language
                .filter(|&l| !registry.is_loaded(l))
                .map(|l| scope.spawn(move || registry.config(l)));
            let mut parser = Parser::new();
            let grammar = language.map(|l| (registry.entry(l).grammar)());
            // A grammar the linked tree-sitter cannot load leaves the document as plain text.
            let tree = match grammar {
                Some(g) if parser.set_language(&g).is_ok() => parse(&mut parser, &doc, None),
                _ => None,
            };
            let loaded = match compiling {
                Some(handle) => handle.join().ok(),
                None => language.map(|l| registry.config(l)),
            };
            let parser = tree.is_some().then_some(parser);
            (tree, parser, loaded)
        });
        let (config, error) = match loaded {
            Some(Ok(c)) => (Some(c), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        // A language whose queries do not load is plain text: no tree either.
        let (tree, parser) = if config.is_some() { (tree, parser) } else { (None, None) };
        let version = Arc::new(Version {
            doc: doc.clone(),
            tree: tree.clone(),
            config: config.clone(),
            language,
            runtime: Runtime::default(),
            editor: Cell::new(Base::Scratch),
            index: Cell::new(Base::Scratch),
        });
        Source { doc, language, config, error, parser, tree, runtime: Runtime::default(), version }
    }

    /// An independent copy of this version, for reading on another thread: the text, the
    /// tree and the outline (computed, or to be computed once for both) are shared (this is
    /// O(1)). Edits to the copy reparse with a parser of its own.
    pub fn snapshot(&self) -> Source {
        Source {
            doc: self.doc.clone(),
            language: self.language,
            config: self.config.clone(),
            error: self.error.clone(),
            parser: None,
            tree: self.tree.clone(),
            runtime: self.runtime,
            version: self.version.clone(),
        }
    }

    /// Evaluates static conditions (`if sys.version_info >= (3, 12):`) for `runtime` from now
    /// on ([`Runtime::default`] until then); a change recomputes the outline from scratch.
    pub fn set_runtime(&mut self, runtime: Runtime) {
        if runtime != self.runtime {
            self.runtime = runtime;
            let tree = self.tree.clone();
            self.version = Version::new(
                self,
                tree.as_ref(),
                self.config.as_ref(),
                (Base::Scratch, Base::Scratch),
            );
        }
    }

    /// The runtime static conditions are evaluated for.
    pub fn runtime(&self) -> Runtime {
        self.runtime
    }

    /// Whether this version's outline is computed already (asking for it costs nothing).
    pub fn outline_ready(&self) -> bool {
        self.version.editor.outline.get().is_some()
    }

    /// Whether an outline was computed for this version or an earlier one, so that asking
    /// for this version's updates it rather than extracting it from scratch.
    pub fn outline_started(&self) -> bool {
        self.outline_ready() || !matches!(*self.version.editor.base(), Base::Scratch)
    }

    /// The document text.
    pub fn doc(&self) -> &Document {
        &self.doc
    }

    /// The language, if the document has one with a grammar.
    pub fn language(&self) -> Option<Language> {
        self.language
    }

    /// Whether symbols can be had for this document (a grammar and working queries).
    pub fn has_symbols(&self) -> bool {
        self.tree.is_some()
    }

    /// Why the language's queries could not be loaded, if they could not.
    pub fn error(&self) -> Option<&QueryError> {
        self.error.as_deref()
    }

    /// The syntax tree.
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// Applies one LSP content change and reparses incrementally.
    pub fn apply_change(
        &mut self,
        range: Option<Range>,
        text: &str,
        encoding: PositionEncoding,
    ) -> Result<TextEdit, DocError> {
        let edit = self.doc.apply_change(range, text, encoding)?;
        self.after_edit(&edit);
        Ok(edit)
    }

    /// Replaces bytes `start..end` with `text` and reparses incrementally.
    pub fn replace_bytes(&mut self, start: usize, end: usize, text: &str) -> TextEdit {
        let edit = self.doc.replace_bytes(start, end, text);
        self.after_edit(&edit);
        edit
    }

    /// Sets the document version.
    pub fn set_version(&mut self, version: i32) {
        self.doc.set_version(version);
    }

    fn after_edit(&mut self, edit: &TextEdit) {
        let previous = self.version.clone();
        // Until the tree is parsed again, this version has no outline (it is plain text).
        self.version = Version::new(self, None, None, (Base::Scratch, Base::Scratch));
        let Some(tree) = self.tree.as_mut() else { return };
        if self.parser.is_none() {
            self.parser = self.config.as_ref().and_then(|config| {
                let mut parser = Parser::new();
                parser.set_language(config.grammar()).ok().map(|()| parser)
            });
        }
        let Some(parser) = self.parser.as_mut() else {
            self.tree = None;
            return;
        };
        tree.edit(&input_edit(edit));
        let old = tree.clone();
        let Some(new) = parse(parser, &self.doc, Some(&old)) else {
            self.tree = None;
            return;
        };
        // What changed: the edited bytes, every range whose syntax differs, and what was
        // already stale before this edit (moved across it).
        let shift = Shift {
            start: edit.start_byte,
            old_end: edit.old_end_byte,
            new_end: edit.new_end_byte,
        };
        let mut dirty = Span { start: shift.start, end: shift.new_end };
        for r in old.changed_ranges(&new) {
            dirty = Span { start: dirty.start.min(r.start_byte), end: dirty.end.max(r.end_byte) };
        }
        // Nothing is copied or moved here (the editor's thread): whoever asks for an
        // outline does that work, once.
        let bases = (
            previous.next_base(Which::Editor, shift, dirty),
            previous.next_base(Which::Index, shift, dirty),
        );
        self.version = Version::new(self, Some(&new), self.config.as_ref(), bases);
        self.tree = Some(new);
    }

    /// The document's symbols for the current version (computed once per version, and
    /// shared with this version's snapshots). After an edit it updates the last computed
    /// outline around the change rather than starting over, so its cost follows the size of
    /// the change, not of the document.
    pub fn outline(&self) -> Arc<Outline> {
        self.version.outline(Which::Editor)
    }

    /// The workspace index's outline of the current version: the language's index query
    /// ([`Registry::index_config`]) over this tree. Like [`Source::outline`], computed once per
    /// version and shared with this version's snapshots, and after an edit updated from the
    /// last computed one around the change. Empty for plain text.
    pub fn index_outline(&self) -> Arc<Outline> {
        self.version.outline(Which::Index)
    }

    /// The index query's outline extracted from scratch from the current tree, ignoring every
    /// cache: what [`Source::index_outline`] must always equal. For tests and diagnostics.
    pub fn index_outline_from_scratch(&self) -> Outline {
        match (self.version.config(Which::Index), &self.tree) {
            (Some(config), Some(tree)) => outline::extract(&config, &self.runtime, tree, &self.doc),
            _ => Outline::default(),
        }
    }

    /// The outline extracted from scratch from the current tree, ignoring every cache: what
    /// [`Source::outline`] must always equal. For tests and diagnostics.
    pub fn outline_from_scratch(&self) -> Outline {
        match (&self.config, &self.tree) {
            (Some(config), Some(tree)) => outline::extract(config, &self.runtime, tree, &self.doc),
            _ => Outline::default(),
        }
    }

    /// The symbols containing byte `offset`, outermost first, cloned without their children.
    pub fn scopes_at(&self, offset: usize) -> Vec<Symbol> {
        let outline = self.outline();
        outline
            .chain_at(offset)
            .into_iter()
            .map(|s| Symbol { children: Vec::new(), ..s.clone() })
            .collect()
    }
}

/// Parses `doc`, read chunk by chunk from its rope (no copy of the text), reusing `old`.
pub(crate) fn parse(parser: &mut Parser, doc: &Document, old: Option<&Tree>) -> Option<Tree> {
    let rope = doc.rope();
    let len = rope.len_bytes();
    parser.parse_with_options(
        &mut |byte: usize, _: Point| -> &[u8] {
            if byte >= len {
                return &[];
            }
            let (chunk, chunk_start, _, _) = rope.chunk_at_byte(byte);
            &chunk.as_bytes()[byte - chunk_start..]
        },
        old,
        None,
    )
}

fn input_edit(e: &TextEdit) -> InputEdit {
    let p = |p: locus_doc::Point| Point { row: p.row, column: p.column };
    InputEdit {
        start_byte: e.start_byte,
        old_end_byte: e.old_end_byte,
        new_end_byte: e.new_end_byte,
        start_position: p(e.start_point),
        old_end_position: p(e.old_end_point),
        new_end_position: p(e.new_end_point),
    }
}

#[cfg(test)]
mod tests {
    use locus_doc::Document;

    use super::Source;
    use crate::registry::Registry;

    const TS: &str =
        "class A {\n  m() {\n    const y = 1;\n  }\n}\nfunction f() {\n  return 2;\n}\n";

    /// Snapshots share their version's outline: each, computed on another thread while the
    /// source moves on (edits folded into a version nobody computed, or waiting for one being
    /// computed), equals the outline extracted afresh from its own tree; so does the source's.
    #[test]
    fn snapshots_computed_elsewhere_while_edits_go_on_equal_fresh_outlines() {
        let language = Registry::builtin().by_id("typescript");
        let mut source = Source::new(Document::new(TS, 0), language);
        let _ = source.outline();
        let (send, receive) = std::sync::mpsc::channel::<Source>();
        let reader = std::thread::spawn(move || {
            let mut checked = 0;
            for snapshot in receive {
                assert_eq!(*snapshot.outline(), snapshot.outline_from_scratch());
                checked += 1;
            }
            checked
        });
        let inserts = ["x", "\n  g() { const z = 2; }\n", "function h() {}\n", "}", "{"];
        for i in 0..200 {
            let at = (i * 7) % source.doc().len_bytes();
            let at = source.doc().floor_char_boundary(at);
            source.replace_bytes(at, at, inserts[i % inserts.len()]);
            if i % 3 == 0 {
                send.send(source.snapshot()).unwrap();
            }
            if i % 5 == 0 {
                assert_eq!(*source.outline(), source.outline_from_scratch());
            }
        }
        drop(send);
        assert_eq!(reader.join().unwrap(), 67);
        assert_eq!(*source.outline(), source.outline_from_scratch());
    }
}
