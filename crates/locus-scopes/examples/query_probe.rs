//! Compile time of a query given on the command line: `query_probe LANGUAGE_ID 'QUERY'`.
use std::time::Instant;
fn main() {
    let id = std::env::args().nth(1).unwrap();
    let q = std::env::args().nth(2).unwrap();
    let registry = locus_scopes::Registry::builtin();
    let entry = registry.entry(registry.by_id(&id).unwrap());
    let grammar = (entry.grammar)();
    for _ in 0..3 {
        let t = Instant::now();
        let r = tree_sitter::Query::new(&grammar, &q);
        println!("{:?} {:?}", t.elapsed(), r.err());
    }
}
