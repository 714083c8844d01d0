//! Which tools a server offers (`--tools`): families (a tool's [`Category`]) and tool names,
//! each added, or removed with a leading `-`. With nothing added, every tool is offered but
//! those removed: `editor,symbol` offers two families, `-debug_restart` all but one tool.

use std::fmt;

use crate::spec::Category;

/// A parsed `--tools` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSelection {
    /// As the user wrote it, for messages.
    text: String,
    added: Vec<Pick>,
    removed: Vec<Pick>,
}

/// One item of a selection.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pick {
    Family(Category),
    Tool(String),
}

impl Pick {
    fn matches(&self, name: &str, family: Option<Category>) -> bool {
        match self {
            Pick::Family(f) => family == Some(*f),
            Pick::Tool(t) => t == name,
        }
    }
}

impl ToolSelection {
    /// Parses `text`: items separated by commas or spaces, each a family name or one of
    /// `tools` (the names a catalogue knows), with `-` to remove it. A name neither family nor
    /// tool, or a selection that leaves no tool, is an error saying what is known.
    pub fn parse(text: &str, tools: &[(&str, Category)]) -> Result<ToolSelection, String> {
        let mut selection =
            ToolSelection { text: text.trim().to_string(), added: Vec::new(), removed: Vec::new() };
        for item in text.split([',', ' ', '\t', '\n']).map(str::trim).filter(|i| !i.is_empty()) {
            let (removes, name) = match item.strip_prefix('-') {
                Some(rest) => (true, rest.trim()),
                None => (false, item.strip_prefix('+').unwrap_or(item).trim()),
            };
            let pick = match Category::ALL.iter().find(|c| c.name() == name) {
                Some(family) => Pick::Family(*family),
                None if tools.iter().any(|(t, _)| *t == name) => Pick::Tool(name.to_string()),
                None => return Err(unknown(name)),
            };
            match removes {
                true => selection.removed.push(pick),
                false => selection.added.push(pick),
            }
        }
        if !tools.iter().any(|(name, family)| selection.admits(name, Some(*family))) {
            return Err(format!("`{}` leaves no tool to offer", selection.text));
        }
        Ok(selection)
    }

    /// Whether the tool `name` (of `family`, when known) is offered. A tool this side does
    /// not know (a newer sidecar's) is offered when named, or when nothing was added and it
    /// was not removed.
    pub fn admits(&self, name: &str, family: Option<Category>) -> bool {
        let added = self.added.is_empty() || self.added.iter().any(|p| p.matches(name, family));
        added && !self.removed.iter().any(|p| p.matches(name, family))
    }
}

impl fmt::Display for ToolSelection {
    /// The selection as written, for messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn unknown(name: &str) -> String {
    let families: Vec<&str> =
        Category::ALL.iter().filter(|c| **c != Category::Test).map(|c| c.name()).collect();
    format!(
        "`{name}` is neither a family of tools ({}) nor a tool's name (`locus tools` lists them)",
        families.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOOLS: &[(&str, Category)] = &[
        ("editor_get_context", Category::Editor),
        ("symbol_outline", Category::Symbol),
        ("symbol_search", Category::Symbol),
        ("debug_start", Category::Debug),
        ("debug_restart", Category::Debug),
    ];

    fn offered(text: &str) -> Vec<&'static str> {
        let selection = ToolSelection::parse(text, TOOLS).unwrap();
        TOOLS.iter().filter(|(n, c)| selection.admits(n, Some(*c))).map(|(n, _)| *n).collect()
    }

    #[test]
    fn families_and_names_add_and_a_minus_removes() {
        assert_eq!(
            offered("editor, symbol"),
            ["editor_get_context", "symbol_outline", "symbol_search"]
        );
        assert_eq!(offered("symbol -symbol_search"), ["symbol_outline"]);
        assert_eq!(offered("editor,debug_start"), ["editor_get_context", "debug_start"]);
        assert_eq!(offered("+editor"), ["editor_get_context"]);
    }

    #[test]
    fn removing_alone_keeps_every_other_tool() {
        assert_eq!(
            offered("-debug_restart"),
            ["editor_get_context", "symbol_outline", "symbol_search", "debug_start"]
        );
        assert_eq!(offered("-debug,-symbol"), ["editor_get_context"]);
        assert_eq!(offered(""), TOOLS.iter().map(|(n, _)| *n).collect::<Vec<_>>());
    }

    #[test]
    fn unknown_names_and_empty_selections_are_refused_with_what_is_known() {
        let e = ToolSelection::parse("editor,debugger", TOOLS).unwrap_err();
        assert!(
            e.contains("`debugger` is neither")
                && e.contains("editor, symbol, dialog, debug, system"),
            "{e}"
        );
        let e = ToolSelection::parse("-editor,-symbol,-debug", TOOLS).unwrap_err();
        assert!(e.contains("leaves no tool"), "{e}");
    }

    #[test]
    fn a_tool_unknown_here_is_offered_only_when_named_or_nothing_was_added() {
        let added = ToolSelection::parse("editor", TOOLS).unwrap();
        assert!(!added.admits("editor_new_tool", None));
        let removed = ToolSelection::parse("-debug_restart", TOOLS).unwrap();
        assert!(removed.admits("editor_new_tool", None));
    }
}
