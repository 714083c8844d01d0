//! The language registry: which grammar and queries serve which language id, extension,
//! file name or shebang. The table is generated at build time from `grammars/*.toml`.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::builtin::{BUILTIN, LanguageEntry};
use crate::query::{LanguageConfig, QueryError, SYMBOLS_FILE, read_query};

/// A language of the registry; its grammar and queries load on first use.
#[derive(Debug, Clone, Copy)]
pub struct Language {
    index: usize,
}

/// The set of languages Locus knows.
#[derive(Debug)]
pub struct Registry {
    entries: &'static [LanguageEntry],
    configs: Vec<OnceLock<Loaded>>,
    /// The index's own queries (`symbols.scm` less its `index.skip` patterns), where a
    /// language marks any.
    index_configs: Vec<OnceLock<Option<Loaded>>>,
}

/// A compiled query, or why it did not compile.
type Loaded = Result<Arc<LanguageConfig>, Arc<QueryError>>;

impl Registry {
    /// The registry built into the binary.
    pub fn builtin() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(|| Registry {
            entries: BUILTIN,
            configs: BUILTIN.iter().map(|_| OnceLock::new()).collect(),
            index_configs: BUILTIN.iter().map(|_| OnceLock::new()).collect(),
        })
    }

    /// Every registered language, in id order.
    pub fn languages(&self) -> impl Iterator<Item = Language> + '_ {
        (0..self.entries.len()).map(|index| Language { index })
    }

    /// The language with this id or alias (case-insensitive).
    pub fn by_id(&self, id: &str) -> Option<Language> {
        self.entries
            .iter()
            .position(|e| {
                e.id.eq_ignore_ascii_case(id)
                    || e.aliases.iter().any(|a| a.eq_ignore_ascii_case(id))
            })
            .map(|index| Language { index })
    }

    /// The language of a file: by whole name, then extension, then the shebang in `first_line`.
    pub fn for_path(&self, path: &Path, first_line: Option<&str>) -> Option<Language> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(i) = self.entries.iter().position(|e| e.file_names.contains(&name)) {
            return Some(Language { index: i });
        }
        if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
            let ext = ext.to_ascii_lowercase();
            if let Some(i) = self.entries.iter().position(|e| e.extensions.contains(&ext.as_str()))
            {
                return Some(Language { index: i });
            }
        }
        let interp = first_line?
            .strip_prefix("#!")?
            .split_whitespace()
            .flat_map(|w| w.rsplit('/').next())
            .find(|w| *w != "env" && !w.starts_with('-'))?;
        let interp = interp.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        self.entries
            .iter()
            .position(|e| {
                e.shebangs
                    .iter()
                    .any(|s| s.trim_end_matches(|c: char| c.is_ascii_digit()) == interp)
            })
            .map(|index| Language { index })
    }

    /// The registry entry of a language.
    pub fn entry(&self, lang: Language) -> &'static LanguageEntry {
        &self.entries[lang.index]
    }

    /// Whether a language's queries are compiled already (or failed to).
    pub fn is_loaded(&self, lang: Language) -> bool {
        self.configs[lang.index].get().is_some()
    }

    /// The compiled grammar and queries of a language, compiled on first use and kept.
    /// A broken query disables that language only; the error names the language and file.
    pub fn config(&self, lang: Language) -> Result<Arc<LanguageConfig>, Arc<QueryError>> {
        self.configs[lang.index]
            .get_or_init(|| {
                LanguageConfig::load(&self.entries[lang.index]).map(Arc::new).map_err(Arc::new)
            })
            .clone()
    }

    /// Whether the workspace index outlines a language with a query of its own: its
    /// `symbols.scm` marks patterns `index.skip` or `index.merge` (see [`Registry::index_config`]).
    /// Compiles that query on first use.
    pub fn has_index_query(&self, lang: Language) -> bool {
        self.index_own(lang).is_some()
    }

    /// The query the workspace index outlines a language's files with: its `symbols.scm` less
    /// the patterns marked `index.skip`, with `index.merge` for `merge` (the same vocabulary
    /// and engine, definitions only), where it marks any; else the editor's own
    /// [`Registry::config`]. Compiled on the index's first use and kept, never on the editor's
    /// path.
    pub fn index_config(&self, lang: Language) -> Result<Arc<LanguageConfig>, Arc<QueryError>> {
        match self.index_own(lang) {
            Some(loaded) => loaded.clone(),
            None => self.config(lang),
        }
    }

    /// The index's own query of a language, compiled on first use: `None` when its
    /// `symbols.scm` has no `index.*` property (the editor's query serves).
    fn index_own(&self, lang: Language) -> &Option<Loaded> {
        self.index_configs[lang.index].get_or_init(|| {
            LanguageConfig::load_index(&self.entries[lang.index])
                .transpose()
                .map(|loaded| loaded.map(Arc::new).map_err(Arc::new))
        })
    }

    /// Feeds `state` with what decides the symbols the workspace index finds in a file: every
    /// language's registry entry (which files are its), its grammar's shape (ABI, version,
    /// node kinds, fields, parse states) and the text of the query the index derives its own
    /// from (`symbols.scm` with its `index.*` marks, inheritance resolved, from
    /// [`crate::QUERY_DIR_ENV`] when set). For a cache of symbols, which is stale when this
    /// changes. Compiles nothing.
    pub fn hash_index_inputs<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        for e in self.entries {
            (e.id, e.aliases, e.extensions, e.file_names, e.shebangs, e.queries).hash(state);
            e.index_skim.hash(state);
            let g = (e.grammar)();
            let version = g.metadata().map(|m| (m.major_version, m.minor_version, m.patch_version));
            (g.abi_version(), version, g.node_kind_count(), g.field_count()).hash(state);
            g.parse_state_count().hash(state);
            read_query(e.queries, SYMBOLS_FILE).hash(state);
        }
    }
}

impl Language {
    /// The language id (`"python"`).
    pub fn id(self) -> &'static str {
        Registry::builtin().entry(self).id
    }
}
