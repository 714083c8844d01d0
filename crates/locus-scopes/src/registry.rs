//! The language registry: which grammar and queries serve which language id, extension,
//! file name or shebang. The table is generated at build time from `grammars/*.toml`.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::builtin::{BUILTIN, LanguageEntry};
use crate::query::{INDEX_FILE, LanguageConfig, QueryError, has_query};

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
    /// The index queries (`index.scm`), where a language has one.
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

    /// Whether a language has a query of its own for the workspace index (`index.scm`).
    pub fn has_index_query(&self, lang: Language) -> bool {
        has_query(self.entries[lang.index].queries, INDEX_FILE)
    }

    /// The query the workspace index outlines a language's files with: its `index.scm` (the
    /// same vocabulary as `symbols.scm`, definitions only) where it has one, else the editor's
    /// own [`Registry::config`]. Compiled on first use and kept.
    pub fn index_config(&self, lang: Language) -> Result<Arc<LanguageConfig>, Arc<QueryError>> {
        let own = self.index_configs[lang.index].get_or_init(|| {
            let entry = &self.entries[lang.index];
            has_query(entry.queries, INDEX_FILE).then(|| {
                LanguageConfig::load_file(entry, INDEX_FILE).map(Arc::new).map_err(Arc::new)
            })
        });
        match own {
            Some(loaded) => loaded.clone(),
            None => self.config(lang),
        }
    }
}

impl Language {
    /// The language id (`"python"`).
    pub fn id(self) -> &'static str {
        Registry::builtin().entry(self).id
    }
}
