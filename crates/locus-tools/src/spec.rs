//! What a tool says about itself: the one source of truth behind `tools/list`,
//! `mcp_list_tools`, `locus tools` and the README.

use std::time::Duration;

/// The timeout a tool gets unless it says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A tool's metadata. The input schema is not here: it is generated from the tool's
/// parameter type (see [`crate::Tool::Params`]), with each parameter's description and
/// example written on the type's fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolSpec {
    /// `thing_action`, snake_case; the `thing` prefix groups related tools.
    pub name: &'static str,
    /// A short human title.
    pub title: &'static str,
    /// Where the tool is listed.
    pub category: Category,
    /// One sentence: what the tool does.
    pub description: &'static str,
    /// When an agent should and should not pick it.
    pub when_to_use: WhenToUse,
    /// How long a call may run before it fails with `E_TIMEOUT`.
    pub timeout: Duration,
    /// Whether the tool is offered at all (a disabled tool is not listed and answers
    /// `E_UNSUPPORTED`).
    pub enabled: bool,
    /// A system tool reports on Locus itself: its envelope never carries an editorContext.
    pub system: bool,
    /// What a call does to the world (MCP's tool annotations, which agents use to decide
    /// what to ask the user before).
    pub effect: Effect,
}

/// What a tool's call does to the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Only reads; the same call again changes nothing (read-only, idempotent).
    Reads,
    /// Only reads, but each call takes what it read, so the next answers otherwise
    /// (`output_read`): read-only, not idempotent.
    Consumes,
    /// Starts, adds or moves something, in the program or the editor (a session, a
    /// breakpoint, a step, an evaluation that may run code): not read-only, not destructive.
    Changes,
    /// Removes, overwrites or restarts something the user had (a variable's value, a setting,
    /// a file's or a symbol's name, the program's run, breakpoints): destructive.
    Destroys,
}

impl Effect {
    /// MCP's `readOnlyHint`.
    pub fn read_only(self) -> bool {
        matches!(self, Effect::Reads | Effect::Consumes)
    }

    /// MCP's `destructiveHint` (meaningful only when not read-only).
    pub fn destructive(self) -> bool {
        self == Effect::Destroys
    }

    /// MCP's `idempotentHint`: calling again with the same arguments has no further effect.
    pub fn idempotent(self) -> bool {
        self == Effect::Reads
    }
}

/// Guidance for choosing a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WhenToUse {
    /// What the tool is for.
    pub use_for: &'static [&'static str],
    /// What it is not for (and another tool is).
    pub dont_use_for: &'static [&'static str],
    /// How it fits into a workflow.
    pub patterns: &'static [&'static str],
}

impl WhenToUse {
    /// `USE FOR: a, b; DON'T USE FOR: c; PATTERNS: d`.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        for (label, items) in [
            ("USE FOR", self.use_for),
            ("DON'T USE FOR", self.dont_use_for),
            ("PATTERNS", self.patterns),
        ] {
            if !items.is_empty() {
                parts.push(format!("{label}: {}", items.join(", ")));
            }
        }
        parts.join("; ")
    }
}

macro_rules! categories {
    ($($variant:ident = $name:literal, $doc:literal;)*) => {
        /// Where a tool is listed. New families of tools add a variant here.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Category { $(#[doc = $doc] $variant,)* }

        impl Category {
            /// Every category, in listing order.
            pub const ALL: &'static [Category] = &[$(Category::$variant,)*];

            /// The name tools are grouped under.
            pub fn name(self) -> &'static str {
                match self { $(Category::$variant => $name,)* }
            }

            /// One sentence about the group.
            pub fn description(self) -> &'static str {
                match self { $(Category::$variant => $doc,)* }
            }
        }
    };
}

categories! {
    Editor = "editor", "The user's live editor: active file, cursor, selection and the symbols around them.";
    Symbol = "symbol", "Document symbols and scope chains for any file on disk, no editor needed.";
    Dialog = "dialog", "Chat transcripts of agent sessions.";
    Debug = "debug", "Debug sessions over the Debug Adapter Protocol.";
    System = "system", "Locus itself: what is connected and which tools exist.";
    Test = "test", "Tools for Locus's own tests, enabled only by LOCUS_TEST_TOOLS=1.";
}

/// One parameter, as the input schema describes it (derived, never written by hand).
#[derive(Debug, Clone, PartialEq)]
pub struct ParamHint {
    /// The parameter's name.
    pub name: String,
    /// The expected type in words (`integer >= 1`).
    pub expected: String,
    /// Whether it must be given.
    pub required: bool,
    /// What it means (the field's doc comment).
    pub description: String,
    /// An example value.
    pub example: Option<serde_json::Value>,
}
