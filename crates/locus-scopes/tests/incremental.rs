//! Incremental reparsing: after any sequence of edits, the tree (and the outline) of a
//! `Source` edited in place equal those of a fresh parse of the same text.

use locus_doc::{Document, Position, PositionEncoding, Range};
use locus_scopes::{Registry, Source};
use proptest::prelude::*;

const SEED: &str = "export class A {\n  m(x: number) {\n    const y = [1, 2].map(v => v * x);\n    return y; // 😀\r\n  }\n}\nfunction f() { return { a: 1 }; }\n";

fn fragments() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("{"), Just("}"), Just("("), Just(")"), Just("\n"), Just("\r\n"), Just(" "), Just("x"),
            Just("const z = 1;"), Just("class B {"), Just("function g() {"), Just("=>"), Just("😀"),
            Just("\""), Just("//"), Just("é"), Just(";"),
        ],
        0..6,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn incremental_tree_equals_fresh_parse(
        edits in proptest::collection::vec((0u32..10, 0u32..40, 0u32..3, 0u32..12, fragments()), 1..16),
    ) {
        let lang = Registry::builtin().by_id("typescript").unwrap();
        let mut source = Source::new(Document::new(SEED, 0), Some(lang));
        for (i, (line, character, dl, dc, text)) in edits.into_iter().enumerate() {
            let start = Position::new(line, character);
            let end = Position::new(line + dl, if dl == 0 { character + dc } else { dc });
            source.apply_change(Some(Range { start, end }), &text, PositionEncoding::Utf16).unwrap();
            source.set_version(i as i32 + 1);
            // Query the outline between edits so stale caches would show.
            let _ = source.outline();
        }
        let fresh = Source::new(Document::new(&source.doc().text(), 0), Some(lang));
        let (a, b) = (source.tree().unwrap().root_node(), fresh.tree().unwrap().root_node());
        prop_assert_eq!(a.to_sexp(), b.to_sexp());
        prop_assert_eq!(a.byte_range(), b.byte_range());
        prop_assert_eq!(&*source.outline(), &*fresh.outline());
    }
}
