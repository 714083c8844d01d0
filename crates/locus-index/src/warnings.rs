//! What the index could not do (a setting it ignored, a cache it could not use, a file it
//! could not outline): reported to its owner through the API, never printed. The latest are
//! kept for [`crate::Status::warnings`], and each goes to the owner's sink as it happens.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

/// How many warnings [`Reporter::kept`] holds; older ones are dropped.
const KEPT: usize = 32;

type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// Where the index's warnings go. Cloning shares it.
#[derive(Clone, Default)]
pub struct Reporter {
    sink: Arc<Mutex<Option<Sink>>>,
    kept: Arc<Mutex<VecDeque<String>>>,
}

impl std::fmt::Debug for Reporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reporter").field("kept", &self.kept()).finish_non_exhaustive()
    }
}

impl Reporter {
    /// Sends every warning to `sink` from now on, and the ones kept so far at once (those a
    /// [`crate::Config::standard`] made before its owner could set a sink).
    pub fn set_sink(&self, sink: impl Fn(&str) + Send + Sync + 'static) {
        let sink: Sink = Arc::new(sink);
        for message in self.kept() {
            sink(&message);
        }
        *self.sink.lock().unwrap_or_else(PoisonError::into_inner) = Some(sink);
    }

    /// Reports `message`: kept, and sent to the sink if there is one.
    pub(crate) fn warn(&self, message: String) {
        let sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some(sink) = sink {
            sink(&message);
        }
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back(message);
    }

    /// The latest warnings, oldest first.
    pub fn kept(&self) -> Vec<String> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sink_set_late_gets_what_was_kept_then_what_follows() {
        let r = Reporter::default();
        r.warn("early".into());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        r.set_sink(move |m| s.lock().unwrap().push(m.to_string()));
        r.warn("late".into());
        assert_eq!(*seen.lock().unwrap(), ["early", "late"]);
        assert_eq!(r.kept(), ["early", "late"]);
    }

    #[test]
    fn only_the_latest_are_kept() {
        let r = Reporter::default();
        for i in 0..KEPT + 5 {
            r.warn(format!("{i}"));
        }
        let kept = r.kept();
        assert_eq!(kept.len(), KEPT);
        assert_eq!(kept[0], "5");
    }
}
