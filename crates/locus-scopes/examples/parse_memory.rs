//! What a first parse in a fresh process pays for fresh memory: the parse's CPU time on its
//! own thread, with the heap as a new process has it or after its pages were touched (60 MB
//! allocated and freed in 1 KB blocks, with glibc's trim threshold raised so that they stay).
//! Linux and glibc only. Run each way in its own process, alternately:
//! `cargo run --release -p locus-scopes --example parse_memory FILE [touched]`.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn main() {
    use locus_doc::Document;
    use locus_scopes::{Registry, Source};

    /// `struct timespec`.
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    const M_TRIM_THRESHOLD: i32 = -1;
    let cpu_ms = || {
        let mut t = Timespec { sec: 0, nsec: 0 };
        // SAFETY: `t` is a valid, writable timespec.
        unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
        t.sec as f64 * 1e3 + t.nsec as f64 / 1e6
    };

    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: parse_memory FILE [touched]");
    let touched = args.next().as_deref() == Some("touched");
    let text = std::fs::read_to_string(&path).unwrap();
    let language = Registry::builtin().for_path(std::path::Path::new(&path), None);
    if let Some(l) = language {
        // The query compiles in `Source::new` otherwise, beside the parse.
        let _ = Registry::builtin().config(l);
    }
    let doc = Document::new(&text, 0);
    if touched {
        // SAFETY: mallopt only changes glibc's allocator settings.
        unsafe { mallopt(M_TRIM_THRESHOLD, 512 << 20) };
        let blocks: Vec<Box<[u8; 1000]>> =
            (0..60_000).map(|_| std::hint::black_box(Box::new([1u8; 1000]))).collect();
        drop(blocks);
    }
    let start = cpu_ms();
    let source = Source::new(doc, language);
    let parse = cpu_ms() - start;
    assert!(source.has_symbols(), "{path}: no syntax tree");
    println!("{} heap: parse {parse:.1} ms of CPU", if touched { "touched" } else { "fresh" });
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() {
    eprintln!("parse_memory: Linux with glibc only");
}
