//! Benchmarks of the symbol index (filled in below).

fn main() {
    divan::main();
}
