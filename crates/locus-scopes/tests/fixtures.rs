//! Scope-chain fixtures: `$0` marks the cursor, the expectation is the chain there.
//!
//! Every test goes through [`check`]; `UPDATE_EXPECT=1 cargo test` rewrites expectations.

use expect_test::{Expect, expect};
use locus_doc::Document;
use locus_scopes::{Registry, Source};

/// `text` parsed as `language`, whose queries must load.
fn source(language: &str, text: &str) -> Source {
    let lang =
        Registry::builtin().by_id(language).unwrap_or_else(|| panic!("no language {language}"));
    let source = Source::new(Document::new(text, 0), Some(lang));
    assert!(source.error().is_none(), "{}", source.error().unwrap());
    source
}

fn check(language: &str, fixture: &str, expect: Expect) {
    let (text, offset) = locus_fixture::cursor(fixture);
    let source = source(language, &text);
    let outline = source.outline();
    let chain = outline.chain_at(offset);
    let actual = if chain.is_empty() {
        "<file>".to_string()
    } else {
        chain.iter().map(|s| format!("{}:{}", s.kind, s.name)).collect::<Vec<_>>().join(" > ")
    };
    expect.assert_eq(&actual);
}

#[test]
fn typescript_class_method_variable() {
    check(
        "typescript",
        r#"
export class UserService {
  async findUser(id: string) {
    const user = await this.db.get($0id);
    return user;
  }
}
"#,
        expect!["Class:UserService > Method:findUser > Variable:user"],
    );
}

#[test]
fn typescript_top_level() {
    check("typescript", "import { a } from 'b';\n$0\nexport const x = 1;\n", expect!["<file>"]);
}

#[test]
fn typescript_callbacks_are_named_by_their_call() {
    check(
        "typescript",
        r#"
describe('UserService', () => {
  it("finds a user", async () => {
    const found = $0await service.find(1);
  });
});
"#,
        expect![[
            r#"Function:describe('UserService') callback > Function:it("finds a user") callback > Variable:found"#
        ]],
    );
}

#[test]
fn typescript_getters_and_object_literal_members() {
    check(
        "typescript",
        r#"
class Box {
  get size(): number {
    return $01;
  }
}
"#,
        expect!["Class:Box > Property:(get) size"],
    );
    check(
        "typescript",
        r#"
const config = {
  server: { port: $08080 },
};
"#,
        expect!["Variable:config > Property:server > Property:port"],
    );
}

#[test]
fn tsx_component_with_hook() {
    check(
        "typescriptreact",
        r#"
export function Counter() {
  const [count, setCount] = useState(0);
  useEffect(() => {
    document.title = `${$0count}`;
  }, [count]);
  return <button onClick={() => setCount(count + 1)}>{count}</button>;
}
"#,
        expect!["Function:Counter > Function:useEffect() callback"],
    );
}

#[test]
fn javascript_class_method_variable_and_jsx() {
    check(
        "javascript",
        r#"
class Router {
  route(path) {
    const layer = new Layer($0path);
    return layer;
  }
}
"#,
        expect!["Class:Router > Method:route > Variable:layer"],
    );
    check(
        "javascript",
        r#"
export const Comment = ({ author }) => {
  const label = <span>{$0author}</span>;
  return label;
};
"#,
        expect!["Variable:Comment > Variable:label"],
    );
}

#[test]
fn python_class_method_variable() {
    check(
        "python",
        r#"
class UserService:
    def find_user(self, user_id):
        us$0er = self.db.get(user_id)
        return user
"#,
        expect!["Class:UserService > Method:find_user > Variable:user"],
    );
    // As in pyright, a variable's range is its name only: elsewhere on the line the method is innermost.
    check(
        "python",
        r#"
class UserService:
    def find_user(self, user_id):
        user = self.db.get($0user_id)
"#,
        expect!["Class:UserService > Method:find_user"],
    );
}

#[test]
fn python_method_after_many_hoisted_attributes() {
    // Past eight `self.x` attributes (filed beside the method, as pyright does) the
    // method used to drop out of the chain.
    check(
        "python",
        r#"
class Flask:
    def __init__(self):
        self.a0 = 0
        self.a1 = 1
        self.a2 = 2
        self.a3 = 3
        self.a4 = 4
        self.a5 = 5
        self.a6 = 6
        self.a7 = 7
        self.a8 = 8
        print($0self)
"#,
        expect!["Class:Flask > Method:__init__"],
    );
}

#[test]
fn python_top_level_and_decorators() {
    check("python", "import os\n\n$0print(os.name)\n", expect!["<file>"]);
    check(
        "python",
        r#"
@app.route("/")
def $0index():
    return "hi"
"#,
        expect!["Function:index"],
    );
}

#[test]
fn markdown_heading_chain_keeps_emoji() {
    check(
        "markdown",
        r#"# 🚀 Getting Started

## Install

### From source

#### On Linux 🐧

Run $0`make`.
"#,
        expect![
            "String:# 🚀 Getting Started > String:## Install > String:### From source > String:#### On Linux 🐧"
        ],
    );
}

#[test]
fn markdown_before_the_first_heading_is_top_level() {
    check("markdown", "Intro $0text.\n\n# Title\n", expect!["<file>"]);
}

// TypeScript and JavaScript as tsserver's navigation tree gives them in VS Code.

#[test]
fn typescript_accessor_fields_are_named_by_their_identifier() {
    check(
        "typescript",
        r#"
class Element {
  @property({type: Number})
  override accessor count: number = $02;
}
"#,
        expect!["Class:Element > Property:count"],
    );
}

#[test]
fn typescript_optional_readonly_parameter_is_a_property_of_the_class() {
    // Theia's `DataTransferFileDTO`: tsserver makes `uri` a property of the class, as it does
    // `id` (hoisted out of the constructor; the cursor's chain passes the constructor whose
    // parameter list holds it).
    check(
        "typescript",
        "class Dto {\n  constructor(private id: string, readonly uri?: Uri$0Components) {}\n}\n",
        expect!["Class:Dto > Constructor:constructor > Property:uri"],
    );
}

#[test]
fn typescript_override_parameter_is_a_property_of_the_class() {
    check(
        "typescript",
        "class B extends A {\n  constructor(override size?: num$0ber) { super(); }\n}\n",
        expect!["Class:B > Constructor:constructor > Property:size"],
    );
}

#[test]
fn javascript_accessor_fields_are_named_by_their_identifier() {
    check(
        "javascript",
        "class Element {\n  static accessor #count = $01;\n}\n",
        expect!["Class:Element > Property:#count"],
    );
}

#[test]
fn typescript_computed_names_lose_their_line_breaks_only() {
    check(
        "typescript",
        "class Table {\n  [ `a\nb` ]() {\n    return $01;\n  }\n}\n",
        expect!["Class:Table > Method:[ `ab` ]"],
    );
}

#[test]
fn typescript_computed_names_that_are_no_names_are_no_symbols() {
    check(
        "typescript",
        "class Table {\n  [prefix + 'x']() {\n    const y = $01;\n  }\n}\n",
        expect!["Class:Table"],
    );
}

#[test]
fn javascript_callbacks_are_named_with_every_string_argument() {
    check(
        "javascript",
        "createMap(cache, 'etagToModuleMap', `v1`, () => {\n  const m = $0new Map();\n});\n",
        expect!["Function:createMap('etagToModuleMap', `v1`) callback > Variable:m"],
    );
}

#[test]
fn javascript_prototype_methods_of_an_es_class_are_no_symbols() {
    check(
        "javascript",
        r#"
class Runner {
  run() {}
}

Runner.prototype.runTests = function (suite) {
  const total = $0suite.total();
};
"#,
        expect!["<file>"],
    );
}

#[test]
fn javascript_es5_classes_are_classes() {
    check(
        "javascript",
        r#"
function Route(path) {
  this.path = path;
}

Route.prototype.dispatch = function (req) {
  var idx = $00;
};
"#,
        expect!["Class:Route > Function:dispatch > Variable:idx"],
    );
}

#[test]
fn javascript_es5_class_constructor_is_the_function() {
    check(
        "javascript",
        "function Route(path) {\n  this.path = $0path;\n}\nRoute.prototype.all = function () {};\n",
        expect!["Class:Route > Constructor:constructor"],
    );
}

#[test]
fn javascript_es5_class_parts_split_where_another_symbol_stands_between() {
    check(
        "javascript",
        r#"
function Route() {}
Route.prototype.a = function () {};
var between = 1;
Route.prototype.b = function () {
  $0
};
"#,
        expect!["Class:Route > Function:b"],
    );
}

#[test]
fn javascript_static_members_join_a_declared_function() {
    check(
        "javascript",
        "function send() {}\nsend.mi$0me = mime;\nexports.send = send;\n",
        expect!["Class:send > Variable:mime"],
    );
}

#[test]
fn javascript_exports_of_a_declared_name_are_no_symbols() {
    check("javascript", "function send() {}\nexports.send = $0send;\n", expect!["<file>"]);
}

#[test]
fn typescript_static_assignments_without_a_declared_function_are_no_symbols() {
    check(
        "typescript",
        "const options = {};\noptions.Declarator = {\n  var: $01,\n};\n",
        expect!["Property:var"],
    );
}

/// Like [`check`], with each scope's line range as editorContext reports it (1-based, whole
/// lines): `Kind:Name (start-end)`.
fn check_lines(language: &str, fixture: &str, expect: Expect) {
    let (text, offset) = locus_fixture::cursor(fixture);
    let source = source(language, &text);
    let outline = source.outline();
    let doc = source.doc();
    let chain = outline.chain_at(offset);
    let actual = if chain.is_empty() {
        "<file>".to_string()
    } else {
        chain
            .iter()
            .map(|s| {
                let (start, end) = (doc.line_of(s.range.start) + 1, doc.line_of(s.range.end) + 1);
                format!("{}:{} ({start}-{end})", s.kind, s.name)
            })
            .collect::<Vec<_>>()
            .join(" > ")
    };
    expect.assert_eq(&actual);
}

// Pyright files `self.x` under the class beside the method that assigns it; the
// chain holds every symbol containing the cursor, so the method stays in it.
#[test]
fn python_self_attribute_in_a_large_init_keeps_the_method() {
    check(
        "python",
        r#"
class Flask(App):
    def __init__(self, import_name, static_folder=None, root_path=None):
        super().__init__(import_name, static_folder, root_path=root_path)
        self.static_folder = static_folder
        self.template_folder = "templates"
        self.url_map = Map()
        self.view_functions = {}
        self.error_handler_spec = {}
        self.before_request_funcs = {}
        self.after_request_funcs = {}
        self.teardown_request_funcs = {}
        self.c$0li = cli.AppGroup()
        self.cli.name = self.name
"#,
        expect!["Class:Flask > Method:__init__ > Variable:cli"],
    );
}

// A Markdown section ends on the line before the next heading of the same or a
// higher level (VS Code's server: that line's end), not on the heading's line.
#[test]
fn markdown_section_ends_on_the_line_before_the_next_heading() {
    let doc = "# Title\n\n## Install\n\nRun it.\n$0\n## Usage\n\nText.\n";
    check_lines("markdown", doc, expect!["String:# Title (1-10) > String:## Install (3-6)"]);
    check_lines(
        "markdown",
        "# Title\n\n## Install\n\nRun it.\n\n$0## Usage\n\nText.\n",
        expect!["String:# Title (1-10) > String:## Usage (7-10)"],
    );
    check_lines(
        "markdown",
        "# Title\n\n## Install\nRun it$0.\n# Next\n",
        expect!["String:# Title (1-4) > String:## Install (3-4)"],
    );
}

// `if <static true> and TYPE_CHECKING: … else: …` keeps only the `if` branch, as
// pyright evaluates both operands statically; a non-static operand keeps both (the last typed
// definition wins).
#[test]
fn python_type_checking_and_a_static_condition() {
    let fixture = r#"
import sys
from typing import TYPE_CHECKING

if sys.version_info >= (3, 11) and TYPE_CHECKING:
    def helper(x: int) -> int:
        return $0x
else:
    def helper(x):
        return x
"#;
    check("python", fixture, expect!["Function:helper"]);
    let fixture = r#"
import sys
from typing import TYPE_CHECKING

if sys.version_info >= (3, 11) and TYPE_CHECKING:
    def helper(x: int) -> int:
        return x
else:
    def helper(x):
        return $0x
"#;
    check("python", fixture, expect!["<file>"]);
    let fixture = r#"
from typing import TYPE_CHECKING

if FLAG and TYPE_CHECKING:
    def helper(x: int) -> int:
        return x
else:
    def helper(x):
        return $0x
"#;
    check("python", fixture, expect!["Function:helper"]);
}

// `__slots__` entries are the class's attributes, spanning their strings; an
// annotated `self.x: T = …` is a typed declaration and takes the slot's place.
#[test]
fn python_slots_and_annotated_self_attributes() {
    let fixture = |cursor: &str| {
        r#"
class Point:
    __slots__ = ("x", "y")

    def __init__(self, x: int) -> None:
        self.x: int = x
        self.y = 0
"#
        .replace(cursor, &format!("{cursor}$0"))
    };
    check("python", &fixture("self.x"), expect!["Class:Point > Method:__init__ > Variable:x"]);
    check("python", &fixture("\"y"), expect!["Class:Point > Variable:y"]);
    check("python", &fixture("self.y"), expect!["Class:Point > Method:__init__"]);
    check("python", &fixture("\"x"), expect!["Class:Point"]);
}

#[test]
fn javascript_jsdoc_typedefs_are_variables() {
    check(
        "javascript",
        r#"
/**
 * @typedef {object} Params
 * @property {string} na$0me
 */
const params = {};
"#,
        expect!["Variable:Params"],
    );
}

#[test]
fn javascript_jsdoc_typedefs_before_a_function_are_no_symbols() {
    check(
        "javascript",
        "/** @typedef {number} Co$0unt */\nfunction count() {}\n",
        expect!["<file>"],
    );
}

#[test]
fn javascript_long_callback_arguments_are_cut_at_150_characters() {
    check(
        "javascript",
        "deprecate(() => {\n  $0\n}, '\
         xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\
         xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\
         xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\
         xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');\n",
        expect![
            "Function:deprecate(\
         'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\
         xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\
         xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...) callback"
        ],
    );
}

#[test]
fn javascript_function_after_its_prototype_members_joins_their_class() {
    check(
        "javascript",
        r#"
Promise.prototype.passByCopy = function () {};
function Promise(descriptor) {
  var $0state = descriptor;
}
"#,
        expect!["Class:Promise > Constructor:constructor > Variable:state"],
    );
}

#[test]
fn javascript_a_function_on_the_right_of_an_or_is_named_by_the_left() {
    check(
        "javascript",
        "var reduce = uncurryThis(\n  Array.prototype.reduce || function (callback) {\n    var $0index = 0;\n  }\n);\n",
        expect!["Variable:reduce > Function:reduce > Variable:index"],
    );
}

#[test]
fn javascript_callbacks_keep_self_but_not_this() {
    check(
        "javascript",
        "self.promiseDispatch('when', function () {\n  this.items.forEach(() => {\n    const $0x = 1;\n  });\n});\n",
        expect![[
            r#"Function:self.promiseDispatch('when') callback > Function:items.forEach() callback > Variable:x"#
        ]],
    );
}

#[test]
fn markdown_heading_names_drop_html_comments() {
    // VS Code's name for `## Installation <!-- omit in toc -->` is `## Installation`.
    check(
        "markdown",
        "# Guide\n\n## Installation <!-- omit in toc -->\n\nRun $0it.\n",
        expect!["String:# Guide > String:## Installation"],
    );
}

#[test]
fn typescript_export_declare_namespace_starts_at_export() {
    let text = "export declare namespace Api {\n  function get(): void;\n}\n";
    let source = source("typescript", text);
    let outline = source.outline();
    let api = &outline.symbols[0];
    assert_eq!((api.name.as_str(), api.range.start, api.range.end), ("Api", 0, text.len() - 1));
}

#[test]
fn javascript_element_access_members_make_a_function_a_class() {
    // tsserver joins `F['del'] = function` and `F[0] = 1` as it joins `F.x = …`; a value with a
    // computed index (`F[k] = 1`) is no member, and one inside a callback joins nothing.
    let fixture = r#"
function request(uri) {}
request.get = verb('get');
request['del'] = function (uri) {
  $0
};
"#;
    check("javascript", fixture, expect!["Class:request > Function:'del'"]);
    check(
        "javascript",
        "function F() {}\nF[k] = 1;\nF[$00] = 2;\n",
        expect!["Class:F > Variable:0"],
    );
    check("javascript", "function F() {}\nF[k] = $01;\n", expect!["<file>"]);
    check(
        "javascript",
        "function r() {}\n[1].forEach(function (v) {\n  r[v] = function () { $0 };\n});\n",
        expect!["Function:forEach() callback > Function:[v]"],
    );
}

#[test]
fn markdown_link_definitions_span_their_whole_line() {
    // VS Code's Markdown server finds a definition by its line: an indented one starts at
    // column 0, one after a `>` is none.
    let text = "# Title\n\n   [id]: https://example.com\n> [quoted]: https://example.org\n";
    let source = source("markdown", text);
    let outline = source.outline();
    let title = &outline.symbols[0];
    let found: Vec<_> =
        title.children.iter().map(|s| (s.name.as_str(), s.range.start, s.range.end)).collect();
    assert_eq!(found, [("[id]", 9, 37)]);
    check_lines(
        "markdown",
        "# Title\n\n$0   [id]: https://example.com\n",
        expect!["String:# Title (1-4) > Constant:[id] (3-3)"],
    );
}

#[test]
fn markdown_heading_math_follows_vscodes_math_plugin() {
    // A dollar that follows or precedes a letter opens or closes nothing; math renders to no
    // text. The reference names come from VS Code's Markdown server with its math plugin.
    for (heading, name) in [
        ("# $: → $derived/$effect", "# $: → $derived/$effect"),
        ("# Cost $5 and $10", "# Cost $5 and $10"),
        ("# Math $x^2$ here", "# Math  here"),
        ("# Block $$a+b$$ end", "# Block  end"),
        ("# $5 and 6$.", "# ."),
        ("# Price$5$ no", "# Price$5$ no"),
    ] {
        let text = format!("{heading}\n\ntext\n");
        let outline = source("markdown", &text).outline();
        assert_eq!(outline.symbols[0].name, name, "{heading}");
    }
}

#[test]
fn python_final_with_a_type_wins_over_a_slot() {
    // pyright shows a name's last typed declaration: `self._y: Final[int]` (a Constant beside
    // the method) rather than the `__slots__` entry; a bare `Final` carries no type.
    let fixture = r#"
from typing import Final

class A:
    __slots__: Final = ("x", "_y")

    def __init__(self, x: int) -> None:
        self.x: Final = x
        self._$0y: Final[int] = 2
"#;
    check("python", fixture, expect!["Class:A > Method:__init__ > Constant:_y"]);
    check(
        "python",
        "from typing import Final\n\nclass A:\n    __slots__ = (\"$0x\",)\n\n    def __init__(self) -> None:\n        self.x: Final = 1\n",
        expect!["Class:A > Variable:x"],
    );
}

#[test]
fn typescript_type_literal_methods_after_as_and_nothing_in_an_export_default_as() {
    check(
        "typescript",
        "const a = {} as { x: number; y$0(): void };\n",
        expect!["Variable:a > Method:y"],
    );
    check("typescript", "const c = <{ q$0: number }>bar;\n", expect!["Variable:c > Property:q"]);
    check("typescript", "export default {} as { w$0: number };\n", expect!["Variable:default"]);
}

#[test]
fn markdown_brackets_are_a_link_only_where_the_label_is_defined() {
    // markdown-it makes `[r]` a link only where the document defines `r`: `## [1.2.1] - date`
    // keeps its brackets until `[1.2.1]: url` is written, anywhere in the document.
    let text = "# $( selector, [context] )\n\n## [1.2.0] - old\n\n## [1.2.1] - new\n\n[1.2.0]: https://example.com\n";
    let mut source = source("markdown", text);
    let names = |source: &Source| {
        let outline = source.outline();
        let top = &outline.symbols[0];
        let mut names = vec![top.name.clone()];
        names.extend(top.children.iter().map(|s| s.name.clone()));
        names
    };
    assert_eq!(
        names(&source),
        ["# $( selector, [context] )", "## 1.2.0 - old", "## [1.2.1] - new"]
    );
    // Defining the label renames the heading above it.
    source.replace_bytes(text.len(), text.len(), "[1.2.1]: https://example.org\n");
    assert_eq!(source.outline().symbols[0].children[1].name, "## 1.2.1 - new");
}

#[test]
fn python_methods_two_ifs_deep_are_methods() {
    // pyright: a def whose nearest scope is a class is a Method however deep its `if`s.
    let fixture =
        "class A:\n    if X:\n        if Y:\n            def deep(self):\n                $0pass\n";
    check("python", fixture, expect!["Class:A > Method:deep"]);
}

#[test]
fn python_static_conditions_follow_the_runtime() {
    // pyright evaluates `sys.version_info` and `sys.platform` for the interpreter it finds;
    // `Source::set_runtime` says which.
    use locus_scopes::{Platform, Runtime, RuntimeVersion};
    let text = "import sys\n\nclass C:\n    if sys.version_info >= (3, 12):\n        def new(self): ...\n    else:\n        def old(self): ...\n    if sys.platform == \"win32\" or (sys.version_info[0] == 3 and False):\n        def windows(self): ...\n    if not (sys.version_info < (3, 11, 4)):\n        def micro(self): ...\n";
    let methods = |runtime: Runtime| {
        let mut source = source("python", text);
        source.set_runtime(runtime);
        let outline = source.outline();
        outline.symbols[0].children.iter().map(|s| s.name.clone()).collect::<Vec<_>>()
    };
    let linux = |version: &str| Runtime {
        version: RuntimeVersion::parse(version).unwrap(),
        platform: Platform::Linux,
    };
    assert_eq!(methods(linux("3.13")), ["new", "micro"]);
    assert_eq!(methods(linux("3.11.2")), ["old"]);
    assert_eq!(methods(linux("3.11")), ["old", "micro"], "a missing micro matches any");
    let windows = Runtime { platform: Platform::Windows, ..linux("3.12") };
    assert_eq!(methods(windows), ["new", "windows", "micro"]);
}
