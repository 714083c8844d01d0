//! The symbol cache over real folders and real cache files written by each test: a start after
//! the first takes unchanged files' symbols from the cache and gives the same answers; changed,
//! added and deleted files are followed; a cache that is corrupt, truncated, foreign or
//! unwritable is ignored, never an error.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use locus_index::{Config, Hit, Index, Query};

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("locus-index-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/.git")).unwrap();
        std::fs::create_dir_all(dir.join("cache")).unwrap();
        Dir(std::fs::canonicalize(&dir).unwrap())
    }

    fn src(&self) -> PathBuf {
        self.0.join("src")
    }

    /// Waits until the files written so far are settled (their status-change time, which is
    /// the write's, two seconds old), so that the cache may keep them.
    fn settle(&self) {
        std::thread::sleep(Duration::from_millis(2100));
    }

    /// Writes a file dated an hour ago (its status-change time is still now: see `settle`).
    fn write(&self, rel: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let path = self.src().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let hour_ago = SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(hour_ago).unwrap();
        path
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config(dir: &Dir) -> Config {
    Config {
        watch: false,
        threads: 2,
        cache_dir: Some(dir.0.join("cache/index")),
        cache_version: "test 1".into(),
        ..Config::standard()
    }
}

fn built(dir: &Dir, config: Config) -> Arc<Index> {
    let index = Index::start(vec![dir.src()], config);
    assert!(index.wait_built(Duration::from_secs(60)), "the index was not built within 60 s");
    index
}

/// Builds, writes the cache, and drops the index, as a session that ends.
fn session(dir: &Dir, config: Config) -> usize {
    let index = built(dir, config);
    index.save_cache();
    index.status().from_cache
}

fn search(index: &Index, text: &str) -> Vec<Hit> {
    index
        .search(&Query { text: text.into(), kinds: Vec::new(), path: None, limit: 200, near: None })
        .hits
}

fn names(index: &Index) -> Vec<String> {
    let mut names: Vec<String> =
        ('a'..='z').flat_map(|c| search(index, &c.to_string())).map(|h| h.name).collect();
    names.sort();
    names.dedup();
    names
}

const LEDGER: &str = "class Ledger:\n    def balance(self):\n        total = 1\n        return total\n\n\ndef audit():\n    pass\n";
const SHOP: &str = "export class Shop {\n  get open(): boolean { return true; }\n  sell(item: string) {}\n}\nexport function restock() {}\n";

/// A large Python module in the shape of a type checker's: `classes` classes of methods
/// with locals and attributes, and module functions between them.
fn big_python(classes: usize) -> String {
    let mut out = String::from("from typing import Optional\n\n\n");
    for c in 0..classes {
        out.push_str(&format!("class TypeChecker{c}:\n    \"\"\"Checks part {c}.\"\"\"\n\n"));
        out.push_str("    def __init__(self, options: Optional[dict] = None) -> None:\n");
        out.push_str("        self.options = options\n        self.errors = []\n\n");
        for m in 0..8 {
            out.push_str(&format!(
                "    def check_func_def_{m}(self, node, depth: int = 0) -> bool:\n        \
                 result = depth + {m}\n        for item in node:\n            result += \
                 len(item)\n        return result > {c}\n\n"
            ));
        }
        out.push_str(&format!("\ndef helper_{c}(value):\n    return value * {c}\n\n\n"));
    }
    out
}

/// A large TypeScript file in the shape of a type evaluator: an interface, then `classes`
/// classes with fields, accessors and methods holding callbacks.
fn big_typescript(classes: usize) -> String {
    let mut out =
        String::from("export interface TypeEvaluator {\n  evaluate(node: Node): Type;\n}\n\n");
    for c in 0..classes {
        out.push_str(&format!("export class TypeEvaluator{c} implements TypeEvaluator {{\n"));
        out.push_str("  private cache = new Map<number, Type>();\n");
        out.push_str(&format!(
            "  get size(): number {{\n    return this.cache.size + {c};\n  }}\n"
        ));
        for m in 0..8 {
            out.push_str(&format!(
                "  evaluateTypeOf{m}(node: Node, flags = {m}): Type {{\n    const seen = \
                 node.children.map((child) => child.kind + flags);\n    if (seen.length > \
                 {c}) {{\n      return this.cache.get(seen[0]) ?? unknownType;\n    }}\n    \
                 return unknownType;\n  }}\n"
            ));
        }
        out.push_str(&format!("}}\n\nexport function createEvaluator{c}(): TypeEvaluator {{\n  return new TypeEvaluator{c}();\n}}\n\n"));
    }
    out
}

/// A folder of source: two large generated files (a few thousand symbols each) and two small
/// ones.
fn workspace(dir: &Dir) {
    dir.write("big/checker.py", big_python(300));
    dir.write("big/typeEvaluator.ts", big_typescript(300));
    dir.write("ledger.py", LEDGER);
    dir.write("web/shop.ts", SHOP);
    dir.settle();
}

#[test]
fn a_second_start_takes_every_unchanged_file_from_the_cache_with_the_same_answers() {
    let dir = Dir::new("round-trip");
    workspace(&dir);
    let first = built(&dir, config(&dir));
    assert_eq!(first.status().from_cache, 0);
    first.save_cache();
    let file = config(&dir).cache_file(&dir.src()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600, "{}", file.display());
        assert_eq!(mode(file.parent().unwrap()), 0o700);
    }
    let second = built(&dir, config(&dir));
    let (a, b) = (first.status(), second.status());
    assert_eq!(b.from_cache, 4);
    assert_eq!((a.files, a.symbols), (b.files, b.symbols));
    assert!(a.symbols > 1000, "{} symbols", a.symbols);
    let names = names(&first);
    assert!(names.len() > 300, "{} names", names.len());
    assert_eq!(names, self::names(&second));
    for q in
        names.iter().map(String::as_str).chain(["Ledger.balance", "Shop.open", "chk", "TypeEv"])
    {
        assert_eq!(search(&first, q), search(&second, q), "{q}");
    }
    // An unchanged start writes nothing: the file is the first session's.
    let written = std::fs::metadata(&file).unwrap().modified().unwrap();
    second.save_cache();
    assert_eq!(std::fs::metadata(&file).unwrap().modified().unwrap(), written);
}

#[test]
fn files_changed_added_and_deleted_between_starts_are_read_again_added_and_forgotten() {
    let dir = Dir::new("changes");
    workspace(&dir);
    assert_eq!(session(&dir, config(&dir)), 0);
    // Changed: same size, other names (its times change).
    let changed = LEDGER.replace("Ledger", "Ladder").replace("audit", "adult");
    assert_eq!(changed.len(), LEDGER.len());
    dir.write("ledger.py", changed);
    dir.write("web/cart.ts", "export class Cart {}\n");
    std::fs::remove_file(dir.src().join("web/shop.ts")).unwrap();
    dir.settle();
    let index = built(&dir, config(&dir));
    assert_eq!(index.status().from_cache, 2, "the two large files");
    let found = |q: &str| search(&index, q).into_iter().any(|h| h.name == q);
    assert!(found("Ladder") && found("adult") && found("Cart"));
    assert!(!found("Ledger") && !found("audit") && !found("Shop") && !found("restock"));
    index.save_cache();
    drop(index);
    // The cache written after that start holds the new state.
    let index = built(&dir, config(&dir));
    assert_eq!(index.status().from_cache, 4);
    assert!(search(&index, "Ladder").iter().any(|h| h.path.ends_with("ledger.py")));
    assert!(search(&index, "Shop").iter().all(|h| !h.path.ends_with("shop.ts")));
}

#[test]
fn a_file_modified_just_now_is_not_cached() {
    let dir = Dir::new("settle");
    dir.write("old.py", "def old():\n    pass\n");
    dir.settle();
    std::fs::write(dir.src().join("new.py"), "def new():\n    pass\n").unwrap();
    // Written now with an old modification time, as `tar x` or `rsync -a` write.
    dir.write("extracted.py", "def extracted():\n    pass\n");
    assert_eq!(session(&dir, config(&dir)), 0);
    let index = built(&dir, config(&dir));
    assert_eq!(index.status().from_cache, 1, "only the settled file");
    assert_eq!(search(&index, "new")[0].name, "new");
}

#[test]
fn a_corrupt_truncated_garbage_or_unreadable_cache_is_ignored_and_replaced() {
    let dir = Dir::new("corrupt");
    workspace(&dir);
    assert_eq!(session(&dir, config(&dir)), 0);
    let file = config(&dir).cache_file(&dir.src()).unwrap();
    let good = std::fs::read(&file).unwrap();
    let reference = built(&dir, Config { cache_dir: None, ..config(&dir) });
    let mut flipped = good.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0x55;
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("garbage", b"#!/bin/sh\necho not a cache\n".repeat(100)),
        ("truncated", good[..good.len() / 3].to_vec()),
        ("header only", good[..84].to_vec()),
        ("a byte flipped", flipped),
        ("longer", [good.as_slice(), b"tail"].concat()),
    ];
    for (what, bytes) in damaged {
        std::fs::write(&file, &bytes).unwrap();
        let index = built(&dir, config(&dir));
        assert_eq!(index.status().from_cache, 0, "{what}");
        assert_eq!(index.status().symbols, reference.status().symbols, "{what}");
        for q in ["Ledger.balance", "TypeEvaluator", "check_func_def", "Shop"] {
            assert_eq!(search(&index, q), search(&reference, q), "{what}: {q}");
        }
        // Replaced after the build: the next start reads it.
        index.save_cache();
        drop(index);
        assert_eq!(session(&dir, config(&dir)), 4, "{what}");
    }
    // A directory where the file should be: unreadable, and not replaceable.
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir(&file).unwrap();
    assert_eq!(session(&dir, config(&dir)), 0);
    assert_eq!(session(&dir, config(&dir)), 0);
    let index = built(&dir, config(&dir));
    assert_eq!(search(&index, "Ledger.balance"), search(&reference, "Ledger.balance"));
}

#[test]
fn a_cache_of_another_version_is_ignored() {
    let dir = Dir::new("version");
    workspace(&dir);
    assert_eq!(session(&dir, config(&dir)), 0);
    assert_eq!(session(&dir, config(&dir)), 4);
    let other = || Config { cache_version: "test 2".into(), ..config(&dir) };
    assert_eq!(session(&dir, other()), 0);
    assert_eq!(session(&dir, other()), 4);
    // Other settings that change the symbols are another cache too.
    let larger = || Config { max_file_bytes: 4 << 20, ..other() };
    assert_eq!(session(&dir, larger()), 0);
    assert_eq!(session(&dir, larger()), 4);
}

#[test]
fn an_unwritable_cache_directory_does_not_break_the_index() {
    let dir = Dir::new("unwritable");
    workspace(&dir);
    // Under a regular file: no directory can be made there (whoever runs the test, root too).
    std::fs::write(dir.0.join("cache/plain"), "a file").unwrap();
    let config = || Config { cache_dir: Some(dir.0.join("cache/plain/index")), ..config(&dir) };
    assert_eq!(session(&dir, config()), 0);
    let index = built(&dir, config());
    assert_eq!(index.status().from_cache, 0);
    assert!(search(&index, "Ledger.balance").iter().any(|h| h.name == "balance"));
    index.save_cache();
    assert!(index.wait_built(Duration::from_secs(1)));
}

#[test]
fn the_cache_is_off_when_asked() {
    let dir = Dir::new("off");
    workspace(&dir);
    let config = || Config { cache_dir: None, ..config(&dir) };
    assert_eq!(config().cache_file(&dir.src()), None);
    assert_eq!(session(&dir, config()), 0);
    assert_eq!(session(&dir, config()), 0);
    assert_eq!(std::fs::read_dir(dir.0.join("cache")).unwrap().count(), 0);
}

#[test]
fn a_write_removes_month_old_caches_and_killed_writers_leftovers() {
    let dir = Dir::new("prune");
    dir.write("ledger.py", LEDGER);
    dir.settle();
    let cache = dir.0.join("cache/index");
    std::fs::create_dir_all(&cache).unwrap();
    let aged = |name: &str, age: u64| {
        let path = cache.join(name);
        std::fs::write(&path, "x").unwrap();
        let then = SystemTime::now() - Duration::from_secs(age);
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(then).unwrap();
        path
    };
    let unused = aged("00000000000000000000000000000000.symbols", 40 * 24 * 3600);
    let recent = aged("11111111111111111111111111111111.symbols", 20 * 24 * 3600);
    let leftover = aged("11111111111111111111111111111111.symbols.4242.tmp", 3600);
    let live = aged("11111111111111111111111111111111.symbols.4243.tmp", 10);
    let other = aged("notes.txt", 40 * 24 * 3600);
    assert_eq!(session(&dir, config(&dir)), 0);
    assert!(config(&dir).cache_file(&dir.src()).unwrap().is_file());
    assert!(!unused.exists() && !leftover.exists());
    assert!(recent.exists() && live.exists() && other.exists());
}

#[test]
fn an_open_documents_text_wins_over_the_cache_and_is_never_cached() {
    use locus_doc::Document;
    use locus_index::OpenDoc;
    let dir = Dir::new("open");
    let path = dir.write("ledger.py", LEDGER);
    dir.write("shop.py", "def shop():\n    pass\n");
    dir.settle();
    assert_eq!(session(&dir, config(&dir)), 0);
    let index = built(&dir, config(&dir));
    assert_eq!(index.status().from_cache, 2);
    let open = OpenDoc {
        path: path.clone(),
        doc: Document::new("def typed_in_editor():\n    pass\n", 3),
        language_id: "python".into(),
        source: None,
    };
    index.sync_open(vec![open]);
    let found = |index: &Index, q: &str| search(index, q).into_iter().any(|h| h.name == q);
    assert!(found(&index, "typed_in_editor") && !found(&index, "Ledger"));
    // A change on disk makes the cache dirty; what is written is the disk's text.
    dir.write("shop.py", "def shop_again():\n    pass\n");
    dir.settle();
    index.paths_changed(vec![dir.src().join("shop.py")]);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !found(&index, "shop_again") {
        assert!(std::time::Instant::now() < deadline, "the change on disk was not applied");
        std::thread::sleep(Duration::from_millis(10));
    }
    index.save_cache();
    drop(index);
    // The open file's disk symbols were replaced by the editor's: it is read again.
    let index = built(&dir, config(&dir));
    assert_eq!(index.status().from_cache, 1);
    assert!(found(&index, "Ledger") && found(&index, "shop_again"));
    assert!(!found(&index, "typed_in_editor"));
}

/// A folder opened under a symbolic link to it and under its real path (two editors, or a
/// project opened both ways) has a cache for each: the starts do not take turns overwriting one
/// file that the other then refuses as another folder's.
#[cfg(unix)]
#[test]
fn a_folder_under_a_link_and_under_its_real_path_each_keep_their_cache() {
    let dir = Dir::new("linked");
    dir.write("ledger.py", LEDGER);
    dir.write("web/shop.ts", SHOP);
    dir.settle();
    let link = dir.0.join("link");
    std::os::unix::fs::symlink(dir.src(), &link).unwrap();
    let start = |folder: &Path| {
        let index = Index::start(vec![folder.to_path_buf()], config(&dir));
        assert!(index.wait_built(Duration::from_secs(60)), "not built within 60 s");
        index.save_cache();
        let status = index.status();
        assert_eq!(status.files, 2, "{status:?}");
        let hit = search(&index, "Ledger.balance").into_iter().next().expect("Ledger.balance");
        assert!(hit.path.starts_with(folder), "{} under {}", hit.path.display(), folder.display());
        status.from_cache
    };
    assert_eq!(start(&link), 0);
    assert_eq!(start(&dir.src()), 0);
    assert_eq!(start(&link), 2, "the link's cache was replaced by the real path's");
    assert_eq!(start(&dir.src()), 2);
    let (a, b) = (config(&dir).cache_file(&link), config(&dir).cache_file(&dir.src()));
    assert_ne!(a, b);
}

/// `filesFromCache` counts the files whose symbols the build took from the cache: not a cached
/// file that is open in the editor when the build reaches it (its symbols are the editor's).
#[test]
fn a_file_open_when_the_build_starts_is_not_counted_as_from_the_cache() {
    use locus_doc::Document;
    use locus_index::OpenDoc;
    let dir = Dir::new("open-count");
    let path = dir.write("ledger.py", LEDGER);
    dir.write("shop.py", "def shop():\n    pass\n");
    dir.settle();
    assert_eq!(session(&dir, config(&dir)), 0);
    // The editor's document is known when a build starts: here a folder is added to the
    // workspace while the file is open.
    let index = built(&dir, config(&dir));
    assert_eq!(index.status().from_cache, 2);
    index.sync_open(vec![OpenDoc {
        path,
        doc: Document::new("def typed_in_editor():\n    pass\n", 3),
        language_id: "python".into(),
        source: None,
    }]);
    let other = dir.0.join("other");
    std::fs::create_dir_all(other.join(".git")).unwrap();
    index.set_folders(vec![dir.src(), other]);
    assert!(index.wait_built(Duration::from_secs(60)));
    let found = |q: &str| search(&index, q).into_iter().any(|h| h.name == q);
    assert!(found("typed_in_editor") && !found("Ledger") && found("shop"));
    assert_eq!(index.status().from_cache, 1, "shop.py only");
}

/// A process that ends while its build runs (a one-shot `locus symbols` past its wait, an
/// editor that quits early) writes what the build has so far: every file it took from the
/// cache and those read since, none lost; the next start takes them all.
#[test]
fn a_write_during_the_build_keeps_the_cached_files_and_adds_those_read_so_far() {
    let dir = Dir::new("partial");
    workspace(&dir);
    assert_eq!(session(&dir, config(&dir)), 0);
    // New files that take seconds to read on one thread.
    let big = big_typescript(700);
    for i in 0..5 {
        dir.write(&format!("more/copy{i}.ts"), &big);
    }
    dir.settle();
    let one_thread = || Config { threads: 1, ..config(&dir) };
    let index = Index::start(vec![dir.src()], one_thread());
    // The 4 cached files are taken, then the new ones are read one at a time: wait for the
    // first of them.
    let waited = std::time::Instant::now();
    while index.progress().is_some_and(|p| p.files_done < 5) {
        assert!(waited.elapsed() < Duration::from_secs(60), "no file read within 60 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    index.save_cache();
    let progress = index.progress();
    let file = config(&dir).cache_file(&dir.src()).unwrap();
    // What the write left, kept aside from the build's own write at its end.
    let kept = dir.0.join("kept");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::copy(&file, kept.join(file.file_name().unwrap())).unwrap();
    let p = progress.expect("the build ended before the write: the test needs more files");
    assert!(p.files_done < 9, "{p:?}");
    assert!(index.wait_built(Duration::from_secs(120)));
    let full = index.status().symbols;
    drop(index);
    let next = built(&dir, Config { cache_dir: Some(kept), ..config(&dir) });
    let from_cache = next.status().from_cache;
    assert!((5..9).contains(&from_cache), "{from_cache} files from the cache written mid-build");
    assert_eq!(next.status().symbols, full);
}

/// Changes that leave the index as it was (an editor's swap file, an ignored file) do not
/// make the cache be written again; a file read again does.
#[cfg(unix)]
#[test]
fn only_a_change_of_the_index_makes_the_cache_be_written_again() {
    use std::os::unix::fs::MetadataExt;
    let dir = Dir::new("dirty");
    workspace(&dir);
    assert_eq!(session(&dir, config(&dir)), 0);
    let file = config(&dir).cache_file(&dir.src()).unwrap();
    // Each write renames a new file over the old: a new inode.
    let inode = || std::fs::metadata(&file).unwrap().ino();
    let index = built(&dir, config(&dir));
    index.save_cache();
    let written = inode();
    let swap = dir.src().join(".ledger.py.swp");
    std::fs::write(&swap, "swap").unwrap();
    index.apply_paths(vec![swap.clone()]);
    std::fs::remove_file(&swap).unwrap();
    index.apply_paths(vec![swap, dir.src().join("nowhere.py")]);
    index.save_cache();
    assert_eq!(inode(), written, "rewritten for changes outside the index");
    dir.write("ledger.py", LEDGER.replace("audit", "adult"));
    index.apply_paths(vec![dir.src().join("ledger.py")]);
    index.save_cache();
    assert_ne!(inode(), written, "not rewritten after a file changed");
}

/// A cache directory other users may write to is not used (they could plant made-up
/// symbols): the index runs without a cache and writes nothing there.
#[cfg(unix)]
#[test]
fn a_cache_directory_others_may_write_to_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new("shared-dir");
    workspace(&dir);
    let cache = dir.0.join("cache/index");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    // Said to the index's owner, through its reporter and its status.
    let said = Arc::new(std::sync::Mutex::new(Vec::new()));
    let config_reporting = || {
        let config = config(&dir);
        let said = said.clone();
        config.warnings.set_sink(move |m| said.lock().unwrap().push(m.to_string()));
        config
    };
    let index = built(&dir, config_reporting());
    assert_eq!(index.status().from_cache, 0);
    let warnings = index.status().warnings;
    assert!(warnings.iter().any(|w| w.contains("is not used")), "{warnings:?}");
    assert_eq!(*said.lock().unwrap(), warnings);
    drop(index);
    assert_eq!(session(&dir, config(&dir)), 0);
    assert_eq!(session(&dir, config(&dir)), 0);
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    // Made private again, it is used.
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(session(&dir, config(&dir)), 0);
    assert_eq!(session(&dir, config(&dir)), 4);
}

/// A folder's cache file is named by its path's components: `/a/b/` and `/a/b` are one
/// folder. A cache file larger than the index's memory cap is not read.
#[test]
fn a_folder_with_a_trailing_slash_has_the_same_cache_and_an_oversized_cache_is_ignored() {
    let dir = Dir::new("names");
    let config = || Config { max_index_bytes: 1 << 20, ..config(&dir) };
    let plain = dir.src();
    let mut slashed = plain.clone().into_os_string();
    slashed.push("/");
    assert_eq!(config().cache_file(&plain), config().cache_file(Path::new(&slashed)));
    dir.write("ledger.py", LEDGER);
    dir.settle();
    assert_eq!(session(&dir, config()), 0);
    assert_eq!(session(&dir, config()), 1);
    let file = config().cache_file(&plain).unwrap();
    let good = std::fs::read(&file).unwrap();
    std::fs::write(&file, [good.as_slice(), &vec![0; 2 << 20]].concat()).unwrap();
    assert_eq!(session(&dir, config()), 0);
    assert_eq!(session(&dir, config()), 1);
}
