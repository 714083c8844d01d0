//! The index over real folders written by each test: ranking, filters, skipped files, open
//! documents and changes on disk.

use std::path::{Path, PathBuf};
use std::time::Duration;

use locus_doc::Document;
use locus_index::{Config, Index, Near, OpenDoc, PathFilter, Query};
use locus_scopes::SymbolKind;

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("locus-index-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        Dir(std::fs::canonicalize(&dir).unwrap())
    }

    fn write(&self, rel: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config() -> Config {
    // No symbol cache: these tests are not about it (tests/cache.rs is), and the standard
    // configuration's would be the user's ~/.cache/locus/index.
    Config { watch: false, threads: 2, cache_dir: None, ..Config::standard() }
}

fn built(dir: &Dir, config: Config) -> std::sync::Arc<Index> {
    let index = Index::start(vec![dir.0.clone()], config);
    assert!(index.wait_built(Duration::from_secs(30)), "the index was not built within 30 s");
    index
}

fn query(text: &str) -> Query {
    Query { text: text.into(), kinds: Vec::new(), path: None, limit: 20, near: None }
}

/// `score name (Kind, in Container) file:line` per hit.
fn render(index: &Index, q: &Query, root: &Path) -> String {
    index
        .search(q)
        .hits
        .iter()
        .map(|h| {
            let chain: Vec<String> = h.containers.iter().map(|(k, n)| format!("{k}:{n}")).collect();
            format!(
                "{:.3} {} ({}{}) {}:{}\n",
                h.score,
                h.name,
                h.kind,
                if chain.is_empty() { String::new() } else { format!(" in {}", chain.join(" > ")) },
                h.path.strip_prefix(root).unwrap().display(),
                h.line
            )
        })
        .collect()
}

const LEDGER: &str = "class Ledger:
    def balance(self):
        total = 1
        return total

    def Balance_of(self):
        pass


def balance():
    pass


def get_balance_sheet():
    pass


def bal_ance_x():
    pass
";

#[test]
fn tiers_rank_exact_then_prefix_then_word_then_fuzzy_and_locals_are_not_indexed() {
    let dir = Dir::new("tiers");
    dir.write("ledger.py", LEDGER);
    let index = built(&dir, config());
    expect_test::expect![[r#"
        1.000 balance (Method in Class:Ledger) ledger.py:2
        1.000 balance (Function) ledger.py:10
        0.855 Balance_of (Method in Class:Ledger) ledger.py:6
        0.681 bal_ance_x (Function) ledger.py:18
        0.638 get_balance_sheet (Function) ledger.py:14
    "#]]
    .assert_eq(&render(&index, &query("balance"), &dir.0));
    assert_eq!(render(&index, &query("total"), &dir.0), "");
}

#[test]
fn container_queries_kind_and_path_filters() {
    let dir = Dir::new("filters");
    dir.write("ledger.py", LEDGER);
    dir.write("src/shop/cart.py", "class Cart:\n    def balance(self):\n        pass\n");
    dir.write(
        "src/app.ts",
        "export class Ledger {\n  balance(): number {\n    return 0;\n  }\n}\n",
    );
    let index = built(&dir, config());
    expect_test::expect![[r#"
        1.000 balance (Method in Class:Ledger) ledger.py:2
        1.000 balance (Method in Class:Ledger) src/app.ts:2
        0.855 Balance_of (Method in Class:Ledger) ledger.py:6
    "#]]
    .assert_eq(&render(&index, &query("Ledger.balance"), &dir.0));
    expect_test::expect![[r#"
        1.000 balance (Method in Class:Cart) src/shop/cart.py:2
    "#]]
    .assert_eq(&render(&index, &query("cart::balance"), &dir.0));

    let mut q = query("balance");
    q.kinds = vec![SymbolKind::Function];
    expect_test::expect![[r#"
        1.000 balance (Function) ledger.py:10
        0.681 bal_ance_x (Function) ledger.py:18
        0.638 get_balance_sheet (Function) ledger.py:14
    "#]]
    .assert_eq(&render(&index, &q, &dir.0));

    let folders = index.folders();
    let mut q = query("balance");
    q.path = Some(PathFilter::parse("src", &folders).unwrap());
    expect_test::expect![[r#"
        1.000 balance (Method in Class:Ledger) src/app.ts:2
        1.000 balance (Method in Class:Cart) src/shop/cart.py:2
    "#]]
    .assert_eq(&render(&index, &q, &dir.0));
    q.path = Some(PathFilter::parse("**/*.py", &folders).unwrap());
    assert!(index.search(&q).hits.iter().all(|h| h.path.extension().unwrap() == "py"));
    assert!(PathFilter::parse("src/[", &folders).unwrap_err().contains("not a valid glob"));
}

#[test]
fn among_equal_scores_the_nearest_to_the_cursor_comes_first() {
    let dir = Dir::new("near");
    dir.write("a/one.py", "def run():\n    pass\n");
    let b = dir.write("b/two.py", "def run():\n    pass\n\n\n\ndef run():\n    pass\n");
    dir.write("b/three.py", "def run():\n    pass\n");
    let index = built(&dir, config());
    let mut q = query("run");
    q.near = Some(Near { path: b.clone(), line: 6 });
    // Both of two.py's definitions are indexed (pyright lists the last only), the nearer first.
    expect_test::expect![[r#"
        1.000 run (Function) b/two.py:6
        1.000 run (Function) b/two.py:1
        1.000 run (Function) b/three.py:1
        1.000 run (Function) a/one.py:1
    "#]]
    .assert_eq(&render(&index, &q, &dir.0));
}

#[test]
fn ignored_non_utf8_binary_large_and_minified_files_are_skipped_and_counted() {
    let dir = Dir::new("skips");
    dir.write(".gitignore", "build/\n");
    dir.write("build/gen.py", "def generated():\n    pass\n");
    dir.write(".hidden/secret.py", "def hidden():\n    pass\n");
    dir.write("latin.py", b"def latin():\n    return '\xe9'\n");
    dir.write("nul.py", b"def nul():\n    pass\n\x00\n");
    dir.write("big.py", format!("def big():\n    pass\n{}", "# padding\n".repeat(12_000)));
    dir.write("bundle.js", "function minified(){return 1};".repeat(2000));
    dir.write("ok.py", "def fine():\n    pass\n");
    dir.write("data.json", "{\"key\": 1}\n");
    let index = built(&dir, Config { max_file_bytes: 100 << 10, ..config() });
    let status = index.status();
    assert_eq!(status.files, 1, "{status:?}");
    let s = status.skipped;
    assert_eq!((s.not_utf8, s.binary, s.too_large, s.minified), (1, 1, 1, 1), "{s:?}");
    for name in ["generated", "hidden", "latin", "nul", "big", "minified", "key"] {
        assert!(index.search(&query(name)).hits.iter().all(|h| h.name != name), "{name}");
    }
    assert_eq!(index.search(&query("fine")).hits.len(), 1);
}

#[test]
fn open_documents_win_over_the_disk_until_closed() {
    let dir = Dir::new("open");
    let path = dir.write("app.py", "def on_disk():\n    pass\n");
    let index = built(&dir, config());
    let open = |text: &str, version| OpenDoc {
        path: path.clone(),
        doc: Document::new(text, version),
        language_id: "python".into(),
        source: None,
    };
    index.sync_open(vec![open("def in_editor():\n    pass\n", 1)]);
    let hits = index.search(&query("in_editor")).hits;
    assert_eq!(hits.len(), 1);
    assert!(hits[0].from_editor);
    assert!(index.search(&query("on_disk")).hits.is_empty());
    index.sync_open(vec![open("def in_editor_again():\n    pass\n", 2)]);
    assert_eq!(index.search(&query("in_editor_again")).hits.len(), 1);
    // Closed: the disk's text again.
    index.sync_open(Vec::new());
    assert_eq!(index.search(&query("on_disk")).hits.len(), 1);
    assert!(index.search(&query("in_editor")).hits.is_empty());
    assert_eq!(index.status().open_documents, 0);
}

/// An open document is outlined with the index query, as the file is on disk: opening a file
/// (with a parsed source, or asleep without one) hides none of its symbols.
#[test]
fn open_documents_are_indexed_as_the_same_text_on_disk() {
    // Two same-named definitions: the editor's outline keeps the last, the index both.
    let text = "def spawn():\n    pass\n\ndef spawn():\n    pass\n";
    let dir = Dir::new("open-same");
    let path = dir.write("app.py", text);
    let index = built(&dir, config());
    let lines = |index: &Index| {
        let mut hits: Vec<u32> =
            index.search(&query("spawn")).hits.iter().map(|h| h.line).collect();
        hits.sort();
        hits
    };
    assert_eq!(lines(&index), [1, 4], "on disk");
    let language = locus_scopes::Registry::builtin().by_id("python");
    let unsaved = format!("# unsaved\n{text}");
    for (version, source) in [(1, true), (2, false), (3, true)] {
        let doc = Document::new(&unsaved, version);
        let source = source.then(|| locus_scopes::Source::new(doc.clone(), language));
        index.sync_open(vec![OpenDoc {
            path: path.clone(),
            doc,
            language_id: "python".into(),
            source,
        }]);
        assert_eq!(lines(&index), [2, 5], "open (version {version}), unsaved text");
        assert!(index.search(&query("spawn")).hits.iter().all(|h| h.from_editor));
    }
}

#[test]
fn changes_on_disk_renames_and_removed_folders() {
    let dir = Dir::new("disk");
    let old = dir.write("pkg/old.py", "class Moved:\n    pass\n");
    let index = built(&dir, config());
    let new = dir.0.join("pkg/new.py");
    std::fs::rename(&old, &new).unwrap();
    index.apply_paths(vec![old.clone(), new.clone()]);
    let hits = index.search(&query("Moved")).hits;
    assert_eq!(hits.iter().map(|h| &h.path).collect::<Vec<_>>(), [&new]);
    // A new folder with a file is walked; a removed folder is forgotten.
    dir.write("lib/extra.py", "def extra():\n    pass\n");
    index.apply_paths(vec![dir.0.join("lib")]);
    assert_eq!(index.search(&query("extra")).hits.len(), 1);
    std::fs::remove_dir_all(dir.0.join("pkg")).unwrap();
    index.apply_paths(vec![dir.0.join("pkg")]);
    assert!(index.search(&query("Moved")).hits.is_empty());
}

#[test]
fn the_watcher_sees_a_file_saved_on_disk() {
    let dir = Dir::new("watch");
    dir.write("a.py", "def first():\n    pass\n");
    let index = built(&dir, Config { watch: true, ..config() });
    dir.write("a.py", "def second():\n    pass\n");
    // The update thread applies changes within milliseconds; the bound only keeps a
    // failure from hanging.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while index.search(&query("second")).hits.is_empty() {
        assert!(std::time::Instant::now() < deadline, "the change was not seen within 10 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(index.search(&query("first")).hits.is_empty());
}

#[test]
fn the_memory_cap_stops_the_index_and_names_the_largest_folders() {
    let dir = Dir::new("cap");
    for i in 0..40 {
        dir.write(&format!("big/m{i}.py"), format!("def function_{i}():\n    pass\n").repeat(50));
    }
    dir.write("small/s.py", "def tiny():\n    pass\n");
    let index = built(&dir, Config { max_index_bytes: 16 << 10, threads: 1, ..config() });
    let status = index.status();
    assert!(status.skipped.over_cap > 0, "{status:?}");
    let message = status.capped.expect("a message");
    assert!(message.contains("memory cap") && message.contains("/big ("), "{message}");
    assert!(index.search(&query("function")).capped.is_some());
}

#[test]
fn open_documents_survive_a_rebuild_when_the_folders_change() {
    let dir = Dir::new("open-rebuild");
    let path = dir.write("app/main.py", "def on_disk():\n    pass\n");
    dir.write("other/more.py", "def elsewhere():\n    pass\n");
    let index = built(&dir, config());
    let open = || OpenDoc {
        path: path.clone(),
        doc: Document::new("def unsaved_name():\n    pass\n", 3),
        language_id: "python".into(),
        source: None,
    };
    index.sync_open(vec![open()]);
    assert_eq!(index.search(&query("unsaved_name")).hits.len(), 1);
    // The folders change: a full rebuild, which must keep the open document's text.
    index.set_folders(vec![dir.0.join("app"), dir.0.join("other")]);
    assert!(index.wait_built(Duration::from_secs(30)));
    index.sync_open(vec![open()]);
    let hits = index.search(&query("unsaved_name")).hits;
    assert_eq!(hits.len(), 1, "the open document vanished after the rebuild");
    assert!(hits[0].from_editor);
    assert!(index.search(&query("on_disk")).hits.is_empty());
    assert_eq!(index.search(&query("elsewhere")).hits.len(), 1);
    // Folders that no longer hold it: the record goes, and a later sync is not confused.
    index.set_folders(vec![dir.0.join("other")]);
    assert!(index.wait_built(Duration::from_secs(30)));
    assert_eq!(index.status().open_documents, 0);
    assert!(index.search(&query("unsaved_name")).hits.is_empty());
}

#[test]
fn a_symbol_two_tiers_find_counts_once_toward_the_limit() {
    let dir = Dir::new("distinct");
    // `user` finds `user_name` by prefix and again by word (its folded `username`), before
    // `get_user_names_list` by word.
    dir.write("u.py", "def user_name():\n    pass\n\n\ndef get_user_names_list():\n    pass\n");
    let index = built(&dir, config());
    let mut q = query("user");
    q.limit = 2;
    let answer = index.search(&q);
    let names: Vec<&str> = answer.hits.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["user_name", "get_user_names_list"]);
}

#[test]
fn fuzzy_matches_are_filtered_before_the_budget() {
    let dir = Dir::new("fuzzy-filter");
    // Many short names that fuzzily match, none a class; one long class that does too.
    let mut text = String::new();
    for i in 0..500 {
        text.push_str(&format!("def x_q_z{i}():\n    pass\n\n"));
    }
    text.push_str("class XylophoneQuietZebraHolder:\n    pass\n");
    dir.write("many.py", text);
    let index = built(&dir, config());
    let mut q = query("xqz");
    q.kinds = vec![SymbolKind::Class];
    let hits = index.search(&q).hits;
    assert_eq!(
        hits.iter().map(|h| h.name.as_str()).collect::<Vec<_>>(),
        ["XylophoneQuietZebraHolder"]
    );
}

#[test]
fn a_shebang_is_seen_when_the_probe_ends_inside_a_character() {
    let dir = Dir::new("shebang");
    // Byte 128 falls inside a two-byte `é` on the second line.
    dir.write(
        "tool",
        format!("#!/usr/bin/env python3\n# {}\ndef from_shebang():\n    pass\n", "é".repeat(60)),
    );
    let index = built(&dir, config());
    assert_eq!(index.search(&query("from_shebang")).hits.len(), 1);
}

#[test]
fn the_memory_cap_holds_for_files_added_later() {
    let dir = Dir::new("cap-later");
    for i in 0..40 {
        dir.write(&format!("big/m{i}.py"), format!("def function_{i}():\n    pass\n").repeat(50));
    }
    let index = built(&dir, Config { max_index_bytes: 16 << 10, threads: 1, ..config() });
    let before = index.status().skipped.over_cap;
    let added = dir.write("big/late.py", "def arrived_late():\n    pass\n");
    index.apply_paths(vec![added]);
    assert!(index.search(&query("arrived_late")).hits.is_empty());
    assert_eq!(index.status().skipped.over_cap, before + 1);
}

#[test]
fn the_root_and_the_home_folder_are_refused() {
    let index = Index::start(vec![PathBuf::from("/")], config());
    assert!(index.wait_built(Duration::from_secs(30)));
    let status = index.status();
    assert!(status.folders.is_empty(), "{status:?}");
    let message = status.capped.expect("a message");
    assert!(message.contains("does not index /"), "{message}");
    assert!(index.search(&query("anything")).capped.is_some());
}

#[test]
fn the_watch_glob_names_the_indexed_languages_only() {
    let dir = Dir::new("glob");
    let index = built(&dir, config());
    let glob = index.watch_glob();
    assert!(glob.starts_with("**/*.{") && glob.contains("py,") && glob.contains(",ts,"), "{glob}");
    assert!(!glob.contains("json"), "{glob}");
}
