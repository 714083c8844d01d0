//! The user's reference for the tools and the error codes, rendered from the catalogue as
//! Markdown. `docs/reference/tools.md` and `docs/reference/error-codes.md` are these
//! renderings; `tests/reference.rs` fails when they drift from the code.

use std::fmt::Write as _;

use serde_json::Value;

use crate::{Catalogue, Category, Effect, ErrorCode};

/// The header every generated file starts with.
fn generated(test: &str) -> String {
    format!(
        "<!-- Generated from the tool catalogue by `{test}`; edit the code, then run\n     \
         `UPDATE_EXPECT=1 cargo test -p locus-tools --test reference`. -->\n\n"
    )
}

/// Every enabled tool of `catalogue`, grouped by category: what it does, when to use it,
/// its parameters and its timeout.
pub fn tools_markdown(catalogue: &Catalogue) -> String {
    let mut out = generated("crates/locus-tools/tests/reference.rs");
    out.push_str("# Tools\n\n");
    out.push_str(
        "Every tool answers with the envelope described in [envelope.md](envelope.md); the \
         errors any tool can give are in [error-codes.md](error-codes.md). Lines and columns \
         are 1-based. `locus tools` prints the same catalogue as JSON, with each input \
         schema.\n\n",
    );
    for category in Category::ALL {
        let entries: Vec<_> =
            catalogue.enabled().filter(|e| e.spec().category == *category).collect();
        if entries.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {}\n\n{}\n", category.name(), category.description());
        for entry in entries {
            let s = entry.spec();
            let _ = writeln!(out, "### `{}` — {}\n\n{}\n", s.name, s.title, s.description);
            let w = &s.when_to_use;
            for (label, items) in
                [("Use for", w.use_for), ("Not for", w.dont_use_for), ("Patterns", w.patterns)]
            {
                if !items.is_empty() {
                    let _ = writeln!(out, "- **{label}:** {}", items.join("; "));
                }
            }
            let mut traits = vec![format!("timeout {} s", s.timeout.as_secs_f64())];
            traits.push(
                match s.effect {
                    Effect::Reads => "read-only",
                    Effect::Consumes => "read-only, each read consumed",
                    Effect::Changes => "changes the program or the editor",
                    Effect::Destroys => "destructive: removes, overwrites or restarts",
                }
                .into(),
            );
            if s.system {
                traits.push("system tool: never carries an editorContext".into());
            }
            let _ = writeln!(out, "- **Runs:** {}\n", traits.join(", "));
            if entry.params().is_empty() {
                out.push_str("No parameters.\n\n");
                continue;
            }
            out.push_str("| parameter | type | required | meaning | example |\n");
            out.push_str("| --- | --- | --- | --- | --- |\n");
            for p in entry.params() {
                let example = p.example.as_ref().map(compact).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} |",
                    p.name,
                    cell(&p.expected),
                    if p.required { "yes" } else { "no" },
                    cell(&p.description),
                    if example.is_empty() {
                        String::new()
                    } else {
                        format!("`{}`", cell(&example))
                    },
                );
            }
            out.push('\n');
        }
    }
    out
}

/// The stable error codes with their default hints.
pub fn error_codes_markdown() -> String {
    let mut out = generated("crates/locus-tools/tests/reference.rs");
    out.push_str("# Error codes\n\n");
    out.push_str(
        "A failed call answers `ok: false` with `error: {code, message, hint, details}`. The \
         code is one of these and never changes; the hint is the default one, which a tool \
         replaces when it knows something more specific. The debug-session codes \
         (`E_NO_SESSION`, `E_NOT_STOPPED`, `E_SESSION_ENDED`, `E_STALE_REFERENCE`, \
         `E_ADAPTER_NOT_FOUND`) come from the debug tools (`debug_*`, `breakpoint_*`, \
         `stack_list`, `variable_list`, `expression_evaluate`, …).\n\n",
    );
    out.push_str("| code | default hint |\n| --- | --- |\n");
    for code in ErrorCode::ALL {
        let _ = writeln!(out, "| `{}` | {} |", code.as_str(), cell(code.hint()));
    }
    out
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Text safe inside a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
