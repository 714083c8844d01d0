//! The answer budget: every envelope fits in a size that agents pass whole to their model.
//!
//! Tools whose answers grow with the input fit themselves first, in a form that keeps the
//! answer useful (an outline folds its deep levels, a list pages). What still does not fit is
//! cut here, at the one place envelopes are made: long strings keep their head, long lists
//! their first items, and `meta.cut` says what was cut, how much there was, and how to get
//! the rest. Nothing is cut silently.

use serde::Serialize;
use serde_json::Value;

use crate::envelope::{Cut, CutPlace, Envelope, ErrorCode, ToolError};

/// The default budget, in bytes of compact JSON: below what Claude Code passes to its model
/// whole (it stores larger answers in a file and shows a 2 KB preview).
pub const DEFAULT_ANSWER_BUDGET: usize = 32 * 1024;

/// The budget of Codex (`clientInfo.name` `codex-mcp-client`): with a model it has no
/// metadata for, it shows its model about 12,000 characters of a tool answer, the head and the
/// tail around a marker, and stores nothing aside.
pub const CODEX_ANSWER_BUDGET: usize = 11 * 1024;

/// The budget for the MCP client named `client` in its `initialize` (`clientInfo.name`): what
/// that agent passes whole to its model. Claude Code (`claude-code`) passes about 39 KB and
/// Gemini CLI (`gemini-cli-mcp-client`) 40,000 characters of a text block; both take the
/// default, as does any client not known here.
pub fn for_client(client: &str) -> usize {
    match client {
        "codex-mcp-client" => CODEX_ANSWER_BUDGET,
        _ => DEFAULT_ANSWER_BUDGET,
    }
}

/// The smallest budget accepted: an error envelope with its hint must fit.
pub const MIN_ANSWER_BUDGET: usize = 4 * 1024;

/// The `_meta` key of `tools/call` that sets the budget of one call (bytes); `locus mcp
/// --answer-budget` forwards its value with it to the sidecar.
pub const BUDGET_META: &str = "locus/answerBudget";

/// Strings are first cut to this many characters, then lists shortened, then strings cut
/// down to [`LAST_STRING_CAP`].
const FIRST_STRING_CAP: usize = 2_000;
const LAST_STRING_CAP: usize = 200;

/// Room kept for `meta.cut` itself.
const CUT_RESERVE: usize = 1_200;

/// At most this many places are listed in `meta.cut.places`; `more` counts the rest.
const LISTED_PLACES: usize = 8;

/// What the envelope around a tool's `data` takes: its members, `meta`, and room for the
/// edge's own note of a cut.
const ENVELOPE_ROOM: usize = 1_500;

/// The bytes a tool's `data` may take of `budget`, with this editorContext beside it: what a
/// tool that fits itself aims at.
pub fn room<C: Serialize>(budget: usize, editor_context: &C) -> usize {
    budget.saturating_sub(json_len(editor_context) + ENVELOPE_ROOM)
}

/// Drops items from the end of a list until what holds it takes at most `room` bytes, keeping
/// one item at least: how a tool ends a page where its budget does. `whole` is the bytes of
/// what holds the list now, the list included. Answers whether anything was dropped.
pub fn end_page<T: Serialize>(items: &mut Vec<T>, whole: usize, room: usize) -> bool {
    let mut size = whole;
    let before = items.len();
    while size > room && items.len() > 1 {
        let last = items.pop().expect("more than one");
        // The item and the comma before it.
        size -= json_len(&last) + 1;
    }
    items.len() < before
}

/// Whether the budget is one Locus can keep; the error names the bounds.
pub fn check(budget: usize) -> Result<usize, String> {
    if budget < MIN_ANSWER_BUDGET {
        return Err(format!(
            "an answer budget of {budget} bytes is too small: at least {MIN_ANSWER_BUDGET}"
        ));
    }
    Ok(budget)
}

/// The size of `value` as compact JSON, in bytes.
pub fn json_len<T: Serialize + ?Sized>(value: &T) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    serde_json::to_writer(&mut counter, value).map_or(usize::MAX, |()| counter.0)
}

/// What [`fit`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fitted {
    /// The answer fitted as it was, or nothing could be cut (a failure).
    Whole,
    /// `data` was cut; `meta.cut` says where.
    Cut,
    /// Even cut down it did not fit: the envelope is now an `E_TOO_LARGE` failure.
    Refused,
}

/// Fits `envelope` into `budget` bytes: cuts `data` when it is too large and states the cut
/// in `meta.cut`. When even the cut answer cannot fit, the envelope becomes an
/// `E_TOO_LARGE` failure saying how large it was.
pub fn fit(envelope: &mut Envelope, budget: usize) -> Fitted {
    let full = json_len(envelope);
    if full <= budget {
        return Fitted::Whole;
    }
    let Some(data) = envelope.data.take() else {
        // Failures are small; an editorContext is capped where it is made. Nothing to cut.
        return Fitted::Whole;
    };
    let rest = full - json_len(&data);
    let room = budget.saturating_sub(rest + CUT_RESERVE);
    let hint = "Narrow the call with its parameters (the tool's input schema says how), or \
                raise the budget (`--answer-budget` of `locus mcp`)";
    match shrink(&data, room) {
        Some((cut_data, places)) => {
            let listed = places.iter().take(LISTED_PLACES).cloned().collect();
            envelope.meta.cut = Some(Cut {
                budget_bytes: budget,
                full_bytes: full,
                places: listed,
                more: places.len().saturating_sub(LISTED_PLACES),
                hint: hint.to_string(),
            });
            envelope.data = Some(cut_data);
            Fitted::Cut
        }
        None => {
            let error = ToolError::new(
                ErrorCode::TooLarge,
                format!("the answer is {full} bytes, over the answer budget of {budget} bytes even cut down"),
            )
            .with_hint(hint)
            .with_details(serde_json::json!({"fullBytes": full, "budgetBytes": budget}));
            let meta = envelope.meta.clone();
            let (editor, debug) = (envelope.editor_context.take(), envelope.debug_context.take());
            *envelope = Envelope::failure(error, meta);
            envelope.editor_context = editor;
            envelope.debug_context = debug;
            Fitted::Refused
        }
    }
}

/// `data` cut to `room` bytes, with the places cut; `None` when it cannot be.
fn shrink(data: &Value, room: usize) -> Option<(Value, Vec<CutPlace>)> {
    let longest_list = longest(data, |v| v.as_array().map(Vec::len));
    let attempt = |strings: usize, items: usize| {
        let mut places = Vec::new();
        let cut = cut(data, strings, items, "/data", &mut places);
        (json_len(&cut) <= room).then_some((cut, places))
    };
    // Strings first, down to FIRST_STRING_CAP: a long text keeps its head.
    let longest_string = longest(data, |v| v.as_str().map(|s| s.chars().count()));
    if longest_string > FIRST_STRING_CAP
        && let Some(cap) = largest_fitting(FIRST_STRING_CAP, longest_string, |cap| {
            attempt(cap, usize::MAX).is_some()
        })
    {
        return attempt(cap, usize::MAX);
    }
    // Then lists, keeping their first items.
    for strings in [FIRST_STRING_CAP, LAST_STRING_CAP] {
        if let Some(items) =
            largest_fitting(1, longest_list.max(1), |items| attempt(strings, items).is_some())
        {
            return attempt(strings, items);
        }
    }
    None
}

/// The largest `n` in `low..=high` for which `fits(n)`, when `fits` is monotone.
fn largest_fitting(low: usize, high: usize, fits: impl Fn(usize) -> bool) -> Option<usize> {
    if !fits(low) {
        return None;
    }
    let (mut good, mut bad) = (low, high + 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if fits(mid) { good = mid } else { bad = mid }
    }
    Some(good)
}

/// The largest measure any value in `v` has.
fn longest(v: &Value, measure: impl Fn(&Value) -> Option<usize> + Copy) -> usize {
    let own = measure(v).unwrap_or(0);
    let inner = match v {
        Value::Array(items) => items.iter().map(|i| longest(i, measure)).max().unwrap_or(0),
        Value::Object(map) => map.values().map(|i| longest(i, measure)).max().unwrap_or(0),
        _ => 0,
    };
    own.max(inner)
}

/// `v` with strings cut to `strings` characters and lists to `items` items.
fn cut(v: &Value, strings: usize, items: usize, at: &str, places: &mut Vec<CutPlace>) -> Value {
    match v {
        Value::String(s) => {
            let total = s.chars().count();
            if total <= strings {
                return v.clone();
            }
            places.push(CutPlace { at: at.to_string(), kept: strings, total, unit: "characters" });
            let head: String = s.chars().take(strings).collect();
            Value::String(format!("{head}… [cut: {strings} of {total} characters]"))
        }
        Value::Array(list) => {
            if list.len() > items {
                places.push(CutPlace {
                    at: at.to_string(),
                    kept: items,
                    total: list.len(),
                    unit: "items",
                });
            }
            let kept = list.iter().take(items).enumerate();
            Value::Array(
                kept.map(|(i, item)| cut(item, strings, items, &format!("{at}/{i}"), places))
                    .collect(),
            )
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, item)| {
                    let pointer = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                    (k.clone(), cut(item, strings, items, &pointer, places))
                })
                .collect(),
        ),
        _ => v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::envelope::Meta;

    fn envelope(data: Value) -> Envelope {
        let meta = Meta::new("r".into(), "t".into(), "x".into(), 0.5);
        Envelope::success(data, meta)
    }

    #[test]
    fn an_answer_within_the_budget_is_untouched() {
        let mut e = envelope(json!({"a": "b".repeat(1000)}));
        let before = e.clone();
        fit(&mut e, MIN_ANSWER_BUDGET);
        assert_eq!(e, before);
    }

    #[test]
    fn a_long_string_keeps_its_head_and_says_its_length() {
        let mut e = envelope(json!({"text": "x".repeat(100_000), "n": 1}));
        fit(&mut e, 8 * 1024);
        assert!(json_len(&e) <= 8 * 1024, "{}", json_len(&e));
        let text = e.data.as_ref().unwrap()["text"].as_str().unwrap();
        assert!(text.ends_with("of 100000 characters]"), "{}", &text[text.len() - 60..]);
        let cut = e.meta.cut.as_ref().unwrap();
        assert_eq!(cut.places[0].at, "/data/text");
        assert_eq!(cut.places[0].total, 100_000);
        assert_eq!(cut.places[0].unit, "characters");
        assert!(cut.full_bytes > 100_000);
    }

    #[test]
    fn a_long_list_keeps_its_first_items() {
        let items: Vec<Value> = (0..5_000).map(|i| json!({"name": format!("s{i}")})).collect();
        let mut e = envelope(json!({"symbols": items}));
        fit(&mut e, 8 * 1024);
        assert!(json_len(&e) <= 8 * 1024);
        let kept = e.data.as_ref().unwrap()["symbols"].as_array().unwrap();
        assert_eq!(kept[0]["name"], "s0");
        let place = &e.meta.cut.as_ref().unwrap().places[0];
        assert_eq!((place.kept, place.total, place.unit), (kept.len(), 5_000, "items"));
        // As much as fits is kept, not a little.
        assert!(kept.len() > 300, "{}", kept.len());
    }

    #[test]
    fn what_cannot_be_cut_enough_is_a_too_large_failure() {
        let map: serde_json::Map<String, Value> =
            (0..5_000).map(|i| (format!("key{i}"), json!(i))).collect();
        let mut e = envelope(Value::Object(map));
        fit(&mut e, MIN_ANSWER_BUDGET);
        assert!(!e.ok);
        let error = e.error.as_ref().unwrap();
        assert_eq!(error.code, ErrorCode::TooLarge);
        assert!(error.message.contains("over the answer budget"), "{}", error.message);
    }

    #[test]
    fn each_known_agent_gets_what_it_passes_whole() {
        assert_eq!(for_client("claude-code"), DEFAULT_ANSWER_BUDGET);
        assert_eq!(for_client("gemini-cli-mcp-client"), DEFAULT_ANSWER_BUDGET);
        assert_eq!(for_client("codex-mcp-client"), CODEX_ANSWER_BUDGET);
        assert_eq!(for_client("something-new"), DEFAULT_ANSWER_BUDGET);
    }

    #[test]
    fn budgets_below_the_floor_are_refused() {
        assert!(check(100).unwrap_err().contains("at least 4096"));
        assert_eq!(check(DEFAULT_ANSWER_BUDGET), Ok(DEFAULT_ANSWER_BUDGET));
    }
}
