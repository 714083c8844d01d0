//! glibc's heap, tuned where Locus knows more than the allocator: pages touched ahead of the
//! first parse, memory handed back after documents or sessions close. glibc has no wrapper
//! crate for `mallopt` and `malloc_trim`, and two calls do not warrant one. Elsewhere
//! (macOS, musl) these do nothing.

/// How much of the heap [`warm`] touches ahead: about what the first parse of a large file
/// (the 30k-line TypeScript file: 1.3 MB of text) takes from it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const WARM_BYTES: usize = 32 << 20;

/// Touches heap pages ahead of the first document, on the calling thread (the one that parses
/// documents): the first parse in a process otherwise pays each fresh page with a fault,
/// about 15 ms of a 100 ms parse on the 30k-line file (docs/performance.md, "first answer").
/// The pages stay with the allocator until [`trim`]: glibc's trim threshold is raised above
/// them, for the whole process (every arena, the index's workers' too).
pub fn warm() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::ffi::c_int;
        const M_TRIM_THRESHOLD: c_int = -1;
        const M_MMAP_THRESHOLD: c_int = -3;
        unsafe extern "C" {
            fn mallopt(param: c_int, value: c_int) -> c_int;
        }
        // SAFETY: mallopt only sets glibc's tuning parameters; it is safe to call at any time.
        // The mmap threshold is set to glibc's own dynamic maximum, which setting the trim
        // threshold would otherwise freeze at 128 KiB.
        unsafe {
            mallopt(M_TRIM_THRESHOLD, (2 * WARM_BYTES) as c_int);
            mallopt(M_MMAP_THRESHOLD, 32 << 20);
        }
        const BLOCK: usize = 64 << 10;
        let blocks: Vec<Vec<u8>> =
            (0..WARM_BYTES / BLOCK).map(|_| std::hint::black_box(vec![1u8; BLOCK])).collect();
        drop(std::hint::black_box(blocks));
    }
}

/// Hands memory freed by closed documents or sessions back to the system, so resident memory
/// falls.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim only walks glibc's own heap; it is safe to call at any time.
        unsafe {
            malloc_trim(0);
        }
    }
}
