//! Locus's own ids for stack frames and variable references.
//!
//! Adapters reuse their ids across stops and use 0; Locus hands out its own, from counters
//! that only grow, so an id is never reused within a session. A resume forgets every mapping,
//! so a later lookup of an id handed out before it is [`Error::StaleReference`], and an id
//! never handed out is [`Error::UnknownReference`].

use std::collections::HashMap;

use crate::error::Error;

/// A stack frame, as Locus names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FrameId(pub u64);

/// A variables container (a scope, or a structured variable), as Locus names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarRef(pub u64);

/// What an adapter frame id means: the frame and the thread it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AdapterFrame {
    pub id: i64,
    pub thread: i64,
}

#[derive(Debug, Default)]
pub(crate) struct Ids {
    last_frame: u64,
    last_ref: u64,
    frames: HashMap<u64, AdapterFrame>,
    refs: HashMap<u64, i64>,
}

impl Ids {
    pub fn frame(&mut self, frame: AdapterFrame) -> FrameId {
        self.last_frame += 1;
        self.frames.insert(self.last_frame, frame);
        FrameId(self.last_frame)
    }

    /// `None` for the adapter's 0, which means "no children".
    pub fn reference(&mut self, adapter: i64) -> Option<VarRef> {
        if adapter <= 0 {
            return None;
        }
        self.last_ref += 1;
        self.refs.insert(self.last_ref, adapter);
        Some(VarRef(self.last_ref))
    }

    pub fn resolve_frame(&self, id: FrameId) -> Result<AdapterFrame, Error> {
        match self.frames.get(&id.0) {
            Some(f) => Ok(*f),
            None if id.0 >= 1 && id.0 <= self.last_frame => {
                Err(Error::StaleReference { kind: "frame", id: id.0 })
            }
            None => Err(Error::UnknownReference { kind: "frame", id: id.0 }),
        }
    }

    pub fn resolve_reference(&self, id: VarRef) -> Result<i64, Error> {
        match self.refs.get(&id.0) {
            Some(r) => Ok(*r),
            None if id.0 >= 1 && id.0 <= self.last_ref => {
                Err(Error::StaleReference { kind: "variables reference", id: id.0 })
            }
            None => Err(Error::UnknownReference { kind: "variables reference", id: id.0 }),
        }
    }

    /// Forgets every mapping: the program resumed.
    pub fn invalidate(&mut self) {
        self.frames.clear();
        self.refs.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_never_reused_and_go_stale_on_resume() {
        let mut ids = Ids::default();
        let f = ids.frame(AdapterFrame { id: 0, thread: 0 });
        let r = ids.reference(7).unwrap();
        assert_eq!(ids.reference(0), None);
        assert_eq!(ids.resolve_frame(f).unwrap(), AdapterFrame { id: 0, thread: 0 });
        assert_eq!(ids.resolve_reference(r).unwrap(), 7);
        ids.invalidate();
        assert_eq!(ids.resolve_frame(f).unwrap_err().code(), "E_STALE_REFERENCE");
        assert_eq!(ids.resolve_reference(r).unwrap_err().code(), "E_STALE_REFERENCE");
        assert_eq!(ids.resolve_reference(VarRef(99)).unwrap_err().code(), "E_NOT_FOUND");
        let f2 = ids.frame(AdapterFrame { id: 0, thread: 0 });
        assert!(f2 > f, "a new id, although the adapter's id is the same");
    }
}
