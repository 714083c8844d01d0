//! `test_sleep`, a tool for Locus's own tests of timeouts, cancellation and editorContext
//! snapshots; registered disabled unless `LOCUS_TEST_TOOLS=1`.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Category, Cx, DEFAULT_TIMEOUT, Effect, Tool, ToolError, ToolSpec, WhenToUse};

/// `test_sleep`: waits, then answers; for timeout, cancellation and snapshot tests.
pub struct TestSleep {
    /// Whether it is offered.
    pub enabled: bool,
}

/// Parameters of `test_sleep`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SleepParams {
    /// How long to wait, in milliseconds.
    #[schemars(example = 500, range(max = 600000))]
    pub ms: u64,
    /// Panics with this message after the wait instead of answering (for the test that a
    /// bug in a tool fails only its own call).
    #[serde(default)]
    #[schemars(example = &"a bug")]
    pub panic: Option<String>,
    /// A file this call appends its process id to (one line) when it starts, so a test can
    /// see that the call arrived, and where it ran.
    #[serde(default)]
    #[schemars(example = &"/tmp/arrived")]
    pub marker: Option<String>,
}

/// `test_sleep`'s data.
#[derive(Debug, Serialize)]
pub struct Slept {
    /// How long it waited.
    pub ms: u64,
}

impl Tool for TestSleep {
    type Params = SleepParams;
    type Output = Slept;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "test_sleep",
            title: "Sleep (tests only)",
            category: Category::Test,
            description: "Wait for a number of milliseconds, then succeed; exists for Locus's own tests",
            when_to_use: WhenToUse {
                use_for: &["testing timeouts, cancellation and editorContext snapshots"],
                dont_use_for: &["anything else"],
                patterns: &["enabled only with LOCUS_TEST_TOOLS=1"],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: self.enabled,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: SleepParams, _: Cx) -> Result<Slept, ToolError> {
        if let Some(marker) = &p.marker {
            use std::io::Write;
            let mut file =
                std::fs::OpenOptions::new().create(true).append(true).open(marker).map_err(
                    |e| {
                        ToolError::new(
                            crate::ErrorCode::Internal,
                            format!("cannot open the marker {marker}: {e}"),
                        )
                    },
                )?;
            writeln!(file, "{}", std::process::id()).map_err(|e| {
                ToolError::new(
                    crate::ErrorCode::Internal,
                    format!("cannot write the marker {marker}: {e}"),
                )
            })?;
        }
        // `sleep(0)` would still wait for the timer's next tick (about 1 ms).
        if p.ms > 0 {
            tokio::time::sleep(Duration::from_millis(p.ms)).await;
        }
        if let Some(message) = p.panic {
            panic!("{message}");
        }
        Ok(Slept { ms: p.ms })
    }

    fn summary(&self, d: &Slept, _: &Cx) -> String {
        format!("Slept {} ms", d.ms)
    }
}
