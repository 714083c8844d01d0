//! Recall of what the user asked, from the transcripts agents keep on disk.
//!
//! **Why.** Agents compact their context when it fills: the conversation is replaced by a
//! summary written by the model, and the user's own words — the original task, the exact
//! constraints, "what was my first question" — are paraphrased or lost. The transcripts
//! on disk still hold them. This crate reads the stores of Claude Code, Codex, Gemini CLI
//! and VS Code Copilot Chat (every format generation it knows, see [`Format`]) and gives
//! back, verbatim, only what the user wrote: harness-written records (meta records,
//! command wrappers, compaction summaries, tool results, system reminders, interruption
//! markers) are dropped.
//!
//! **The current dialog** is the most recently updated session, across all sources, whose
//! working directory or workspace folder lies in the [`Workspace`]; a session id picks any
//! session explicitly. Sessions of other workspaces are never listed.
//!
//! **Invariants.**
//! - Read-only: transcript files are opened for reading, nothing is ever written.
//! - Streaming: a line log is read line by line and never held whole; when it only grew,
//!   only the appended bytes are read. Whole-file JSON (Copilot gen 2, old Gemini) is read
//!   by streaming deserialization that keeps only the fields recall needs.
//! - Never fails on bad data: corrupt lines, unknown record types, truncated files and
//!   files being written are skipped with a [`Warning`] returned beside the data.
//! - No protocol types: the tool layer turns [`Answer`]s and [`RecallError`]s (which carry
//!   their envelope codes and hints) into envelopes.
//!
//! ```no_run
//! use locus_dialog::{Recall, Stores, Workspace};
//! let recall = Recall::new(Stores::from_env());
//! let workspace = Workspace::new(&["/home/me/project"]);
//! let first = recall.first_request(&workspace, None)?;
//! println!("{}", first.value.request.text);
//! # Ok::<(), locus_dialog::RecallError>(())
//! ```

#![deny(missing_docs)]

mod error;
mod format;
mod line;
mod model;
mod read;
mod recall;
mod stores;
mod text;
mod time;
mod warning;
mod workspace;

pub use error::RecallError;
pub use model::{Compaction, Format, Request, SessionInfo, Source};
pub use recall::{Answer, Recall, RequestAt, Requests};
pub use stores::Stores;
pub use time::Timestamp;
pub use warning::Warning;
pub use workspace::Workspace;
