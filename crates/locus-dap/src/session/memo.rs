//! What the adapter answered at the current stop, kept until the program resumes: the stopped
//! thread's whole stack (asked for by the `stopped` event's handler), each frame's scopes and
//! each container's variables. Asking again at the same stop costs no round trip: a tool that
//! lists the variables the stop's context just read answers from here.
//!
//! **Invariant:** everything here carries Locus's ids of this stop, and is dropped with them
//! ([`super::state::State::resumed`], `end`); values are dropped too when something may have
//! changed them without a resume ([`super::Session::forget_values`], `setVariable`).

use std::collections::HashMap;

use super::data::{Frame, ScopeInfo, VariableInfo};
use crate::ids::{FrameId, VarRef};

#[derive(Debug, Default)]
pub(super) struct Memo {
    /// The whole stack of a thread, top first.
    pub(super) stacks: HashMap<i64, Vec<Frame>>,
    pub(super) scopes: HashMap<FrameId, Vec<ScopeInfo>>,
    pub(super) variables: HashMap<VarRef, Vec<VariableInfo>>,
}

impl Memo {
    /// The stack of `thread`, its first `levels` frames (all when `None`), if kept.
    pub(super) fn stack(&self, thread: i64, levels: Option<u32>) -> Option<Vec<Frame>> {
        let frames = self.stacks.get(&thread)?;
        let n = levels.map_or(frames.len(), |l| (l as usize).min(frames.len()));
        Some(frames[..n].to_vec())
    }

    /// Scopes and variables may have changed (an evaluation, a variable set); the stacks stay.
    pub(super) fn forget_values(&mut self) {
        self.scopes.clear();
        self.variables.clear();
    }

    /// The program resumed or the session ended.
    pub(super) fn clear(&mut self) {
        self.stacks.clear();
        self.forget_values();
    }
}
