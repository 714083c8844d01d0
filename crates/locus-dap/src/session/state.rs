//! What a session knows, behind one lock: its phase, the last stop, threads, breakpoints with
//! their adapter ids and hit counts, references, output and child sessions.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use super::Session;
use super::data::{BreakOn, BreakpointInfo, CodeLocation, Phase, StopInfo, ThreadInfo};
use super::memo::Memo;
use crate::error::Error;
use crate::ids::Ids;
use crate::output::Output;
use crate::types;

#[derive(Debug, Clone)]
pub(super) struct Record {
    pub(super) info: BreakpointInfo,
    pub(super) adapter_id: Option<i64>,
}

pub(super) struct State {
    pub(super) phase: Phase,
    pub(super) initialized: bool,
    pub(super) capabilities: Value,
    pub(super) stop: Option<StopInfo>,
    pub(super) stops: u64,
    pub(super) threads: BTreeMap<i64, ThreadInfo>,
    pub(super) files: BTreeMap<PathBuf, Vec<Record>>,
    pub(super) functions: Vec<Record>,
    /// Where exceptions stop the program (sent as exception filters).
    pub(super) break_on: BreakOn,
    pub(super) last_breakpoint: u64,
    pub(super) exit_code: Option<i64>,
    pub(super) pid: Option<i64>,
    pub(super) launched: bool,
    pub(super) program: Option<String>,
    pub(super) ids: Ids,
    /// The adapter's answers at the current stop, with `ids`'s ids.
    pub(super) memo: Memo,
    pub(super) output: Output,
    /// Child sessions the adapter asked for with `startDebugging`, oldest first.
    pub(super) children: Vec<Arc<Session>>,
    /// The adapter's ids of the current stop's breakpoints that no breakpoint of Locus had
    /// yet: the stop came before the answer that gives them (js-debug's child sessions stop
    /// while their `setBreakpoints` is out). Attributed when the answer is read.
    pub(super) unattributed: Vec<i64>,
}

impl State {
    pub(super) fn records_mut(&mut self) -> impl Iterator<Item = &mut Record> {
        self.files.values_mut().flatten().chain(self.functions.iter_mut())
    }

    /// The program resumed: references die, threads run.
    pub(super) fn resumed(&mut self, thread: Option<i64>) {
        self.ids.invalidate();
        self.memo.clear();
        self.unattributed.clear();
        if !matches!(self.phase, Phase::Ended(_)) {
            self.phase = Phase::Running;
        }
        for (id, t) in &mut self.threads {
            if thread.is_none_or(|th| th == *id) {
                t.stopped = false;
            }
        }
        if thread.is_some() && self.threads.values().any(|t| t.stopped) {
            self.phase = Phase::Stopped;
        }
    }

    /// Counts a hit for every breakpoint at the stop's location (a breakpoint the adapter
    /// moved counts at the line it moved to, once that is known); `only_unanswered` keeps to
    /// breakpoints whose adapter id is not known yet. Answers Locus's ids.
    pub(super) fn hits_at(
        &mut self,
        top: Option<&CodeLocation>,
        only_unanswered: bool,
    ) -> Vec<u64> {
        let mut hit = Vec::new();
        if let Some(CodeLocation { path: Some(path), line, .. }) = top {
            for r in self.files.get_mut(path).into_iter().flatten() {
                if r.info.actual_line.unwrap_or(r.info.line) == *line
                    && !(only_unanswered && r.adapter_id.is_some())
                {
                    r.info.hit_count += 1;
                    hit.push(r.info.id);
                }
            }
        }
        hit
    }

    /// Gives the current stop of `thread` its place when the stop's own stack request failed,
    /// and a stop for a breakpoint that no id attributed its breakpoint there.
    pub(super) fn locate_stop(&mut self, thread: i64, top: &CodeLocation) {
        let Some(stop) = self.stop.as_ref() else { return };
        if stop.position.is_some() || stop.thread_id != Some(thread) {
            return;
        }
        let unattributed = stop.breakpoints.is_empty() && stop.reason.contains("breakpoint");
        let hit = if unattributed { self.hits_at(Some(top), false) } else { Vec::new() };
        if let Some(stop) = self.stop.as_mut() {
            stop.position = Some(top.clone());
            stop.breakpoints.extend(hit);
        }
    }

    /// Attributes the current stop to the breakpoints whose adapter ids just became known
    /// (see `unattributed`), each once.
    pub(super) fn attribute_late(&mut self) {
        if self.unattributed.is_empty() || self.phase != Phase::Stopped {
            return;
        }
        let pending = std::mem::take(&mut self.unattributed);
        let counted = self.stop.as_ref().map(|s| s.breakpoints.clone()).unwrap_or_default();
        let mut late = Vec::new();
        let mut still = Vec::new();
        for id in pending {
            let mut found = false;
            for r in self.records_mut() {
                if r.adapter_id == Some(id) {
                    found = true;
                    if !counted.contains(&r.info.id) && !late.contains(&r.info.id) {
                        r.info.hit_count += 1;
                        late.push(r.info.id);
                    }
                }
            }
            if !found {
                still.push(id);
            }
        }
        self.unattributed = still;
        if let Some(stop) = &mut self.stop {
            stop.breakpoints.extend(late);
        }
    }

    pub(super) fn ended(&self) -> Option<Error> {
        match &self.phase {
            Phase::Ended(e) => Some(e.clone()),
            _ => None,
        }
    }

    pub(super) fn end(&mut self, error: Error) {
        if self.ended().is_none() {
            self.phase = Phase::Ended(error);
            self.ids.invalidate();
            self.memo.clear();
        }
    }

    pub(super) fn exit_reason(&self) -> Error {
        Error::SessionEnded {
            reason: match self.exit_code {
                Some(code) => format!("the program exited with code {code}"),
                None => "the debug adapter ended the session".into(),
            },
            exit_code: self.exit_code,
        }
    }
}

pub(super) fn apply(record: &mut Record, bp: &types::Breakpoint) {
    if bp.id.is_some() {
        record.adapter_id = bp.id;
    }
    record.info.verified = bp.verified;
    record.info.message = bp.message.clone();
    if bp.line.is_some() {
        record.info.actual_line = bp.line;
    }
}
