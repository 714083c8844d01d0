//! A document together with its syntax tree and its outline, kept in step edit by edit.

use std::sync::{Arc, Mutex, OnceLock};

use locus_doc::{DocError, Document, PositionEncoding, Range, TextEdit};
use tree_sitter::{InputEdit, Parser, Point, Tree};

use crate::outline::{self, Outline, Span, Symbol};
use crate::query::{LanguageConfig, QueryError};
use crate::registry::{Language, Registry};

/// A mirrored document and what Locus knows of its structure.
///
/// The tree is reparsed incrementally after every edit; the outline is computed on first
/// request for each version and kept until the next edit.
pub struct Source {
    doc: Document,
    language: Option<Language>,
    config: Option<Arc<LanguageConfig>>,
    error: Option<Arc<QueryError>>,
    parser: Option<Parser>,
    tree: Option<Tree>,
    outline: OnceLock<Arc<Outline>>,
    /// The last computed outline, moved to the current text's offsets, and the span whose
    /// syntax changed since: what [`Source::outline`] updates instead of starting over.
    stale: Mutex<Option<(Outline, Span)>>,
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
        Source {
            doc,
            language,
            config,
            error,
            parser,
            tree,
            outline: OnceLock::new(),
            stale: Mutex::new(None),
        }
    }

    /// An independent copy of this version, for reading on another thread: the text and
    /// the tree are shared (both are reference-counted, so this is O(1)) and the outline
    /// computed so far comes along. Edits to the copy reparse with a parser of its own.
    pub fn snapshot(&self) -> Source {
        let parser = self.tree.as_ref().and(self.config.as_ref()).and_then(|config| {
            let mut parser = Parser::new();
            parser.set_language(config.grammar()).ok().map(|()| parser)
        });
        Source {
            doc: self.doc.clone(),
            language: self.language,
            config: self.config.clone(),
            error: self.error.clone(),
            parser,
            tree: self.tree.clone(),
            outline: self.outline.clone(),
            stale: Mutex::new(self.stale.lock().unwrap_or_else(|e| e.into_inner()).clone()),
        }
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
        let previous = std::mem::take(&mut self.outline).into_inner();
        let stale = self.stale.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        let (Some(tree), Some(parser)) = (self.tree.as_mut(), self.parser.as_mut()) else { return };
        tree.edit(&input_edit(edit));
        let old = tree.clone();
        let Some(new) = parse(parser, &self.doc, Some(&old)) else {
            self.tree = None;
            return;
        };
        // What changed: the edited bytes, every range whose syntax differs, and what was
        // already stale before this edit (moved across it).
        let (start, old_end, new_end) = (edit.start_byte, edit.old_end_byte, edit.new_end_byte);
        let moved = |p: usize| {
            if p < start {
                p
            } else if p >= old_end {
                p - old_end + new_end
            } else {
                new_end
            }
        };
        let mut dirty = Span { start, end: new_end };
        for r in old.changed_ranges(&new) {
            dirty = Span { start: dirty.start.min(r.start_byte), end: dirty.end.max(r.end_byte) };
        }
        let base = match (previous, stale) {
            // Readers may still hold the old outline; copy it only then.
            (Some(outline), _) => {
                Some((Arc::try_unwrap(outline).unwrap_or_else(|shared| (*shared).clone()), None))
            }
            (None, Some((outline, span))) => Some((outline, Some(span))),
            (None, None) => None,
        };
        if let Some((mut outline, old_dirty)) = base {
            outline::shift(&mut outline.symbols, start, old_end, new_end);
            if let Some(d) = old_dirty {
                dirty = Span {
                    start: dirty.start.min(moved(d.start)),
                    end: dirty.end.max(moved(d.end)),
                };
            }
            *self.stale.get_mut().unwrap_or_else(|e| e.into_inner()) = Some((outline, dirty));
        }
        self.tree = Some(new);
    }

    /// The document's symbols for the current version (computed once per version).
    /// After an edit it updates the previous outline around the change rather than
    /// starting over, so its cost follows the size of the change, not of the document.
    pub fn outline(&self) -> Arc<Outline> {
        self.outline
            .get_or_init(|| match (&self.config, &self.tree) {
                (Some(config), Some(tree)) => {
                    let stale = self.stale.lock().unwrap_or_else(|e| e.into_inner()).take();
                    Arc::new(match stale {
                        Some((outline, dirty)) => {
                            outline::update(config, tree, &self.doc, outline, dirty)
                        }
                        None => outline::extract(config, tree, &self.doc),
                    })
                }
                _ => Arc::new(Outline::default()),
            })
            .clone()
    }

    /// The outline extracted from scratch from the current tree, ignoring every cache: what
    /// [`Source::outline`] must always equal. For tests and diagnostics.
    pub fn outline_from_scratch(&self) -> Outline {
        match (&self.config, &self.tree) {
            (Some(config), Some(tree)) => outline::extract(config, tree, &self.doc),
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

fn parse(parser: &mut Parser, doc: &Document, old: Option<&Tree>) -> Option<Tree> {
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
