//! The tools themselves, one module per family. A new family (dialog_*, debug_*) adds a
//! module and registers its tools in [`standard`].

pub mod action;
pub mod debug;
pub mod dialog;
mod editor;
mod paths;
mod search;
mod symbol;
mod system;
mod test_sleep;

pub use dialog::{DialogGetFirstRequest, DialogGetRequest, DialogGetRequests, DialogListSessions};
pub use editor::{EditorGetContext, NoParams};
pub use search::SymbolSearch;
pub use symbol::{SymbolOutline, SymbolScopeAt};
pub use system::{BridgeStatus, McpListTools};
pub use test_sleep::TestSleep;

use crate::Catalogue;

/// Which optional tools to include.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Registers the tools Locus's own tests use (`test_sleep`), enabled.
    pub test_tools: bool,
}

impl Options {
    /// The options the environment asks for: `LOCUS_TEST_TOOLS=1` enables the test tools.
    pub fn from_env() -> Options {
        Options { test_tools: std::env::var("LOCUS_TEST_TOOLS").is_ok_and(|v| v == "1") }
    }
}

/// Every tool Locus ships.
pub fn standard(options: Options) -> Catalogue {
    let mut c = Catalogue::new();
    c.register(EditorGetContext)
        .register(SymbolOutline)
        .register(SymbolScopeAt)
        .register(SymbolSearch)
        .register(BridgeStatus)
        .register(McpListTools)
        .register(TestSleep { enabled: options.test_tools });
    action::register(&mut c);
    dialog::register(&mut c, dialog::recall_from_env());
    debug::register(&mut c, debug::Lookup::default());
    c
}
