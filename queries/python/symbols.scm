; Python document symbols, as pyright's language server reports them (what VS Code shows).
;
; pyright lists the symbol table of every module, class and function scope: one symbol per name
; and scope, never the names of lambda, comprehension or type-parameter scopes, never imports.
; Classes and functions span their whole definition (from the first decorator); every other
; symbol spans its name only (a parameter: the whole parameter). Nesting is by range, so a name
; belongs to the innermost def/class around it, as in pyright's scopes.
;
; Kinds: a def directly in a class body (also under if/try/with there) is a Method, any other def a
; Function. A variable whose name is ALL_CAPS (`^[A-Z0-9_]+$`, not only underscores) or whose
; annotation is `Final` is a Constant; parameters and `type X = …` aliases are always Variables.
;
; One symbol per name and scope (`merge`): pyright keeps the last declaration with a type (def,
; class, annotated assignment or parameter, `type` alias: `merge "typed"`), else the first one
; (plain bindings: `merge "first"`).
;
; Order matters: the first pattern that makes a symbol of a node wins, so specific patterns come
; before general ones. `@skip` and `@ignore` apply wherever they are written.
;
; The workspace index (`symbol_search`) runs this file too, less the patterns marked
; `(#set! index.skip "why")`, with `index.merge` for `merge` (`queries/README.md`): a definition
; an agent wants to find is found even where pyright does not list it. It skips the
; unreachable-code rules (definitions after `return`/`raise`, in branches a static condition rules
; out, in a `try`'s `else` beside an `except` one are indexed; the regular expressions were a
; third of the index's query time), parameters and the rules that only hide a function's locals
; (the index drops those anyway), and merges no def or class by name (`index.merge "none"`: both
; branches of an `if`, a property's getter and setter, each with its own lines). Variables merge
; as here. `crates/locus-index/tests/index_query.rs` lists the skipped patterns with their reasons
; and keeps the index's outlines of the corpus byte for byte. The index also reads each
; statement of a function body that holds no `def`/`class` and assigns no `self.`/`cls.`
; attribute as `pass` (`[index-skim]` in `grammars/python.toml`): a pattern that finds
; something the index keeps inside a function body needs its words there.
;
; Queries cannot look at arbitrary depth, so patterns that must find a statement inside a
; function (`global x` … `x = 1`) look at the statement itself and at `(_ (block …))`, one
; if/for/while/with/try down (not their else/elif/except/finally clauses). Each extra level of
; nesting multiplies the query's compile time, which every `locus` process pays once.

; --- Never symbols. ---
; Comprehension variables live in the comprehension's own scope.
(for_in_clause left: (_) @ignore)
(decorator) @ignore

; --- Unreachable code is not bound by pyright: nothing in it is declared (the enclosing def
; still spans it). Statements after return/raise/continue/break in the same block: ---
; (Every rule that hides the statements after one names `(ERROR)` beside `(_)`, which does not
; match it: text the parser could not read after a hiding statement is hidden too, so such a
; rule hides all that follows, as the outline's incremental update relies on.)
((block [(return_statement) (raise_statement) (continue_statement) (break_statement)] [(_) (ERROR)] @ignore)
  (#set! index.skip "unreachable code: the index keeps what pyright does not bind"))

; Branches decided by a static condition, evaluated as pyright does for the runtime the document
; is analysed for (the workspace's interpreter and platform; Python 3.13 on the host's platform
; when there is none): `sys.version_info` compared with a tuple (or `[0]` with an int),
; `sys.platform` / `os.name` compared with a string, `TYPE_CHECKING` (true), constants, and
; `not`, `and`, `or` over those (`#static-false?`, `#static-true?`: queries/README.md).
; A false `if`/`elif` loses its block, a false `assert` the statements after it; a true `if` loses
; every branch after it, and when its block ends in return/raise, the statements after the `if` too.
(([(if_statement condition: (_) @_c consequence: (block) @ignore)
   (elif_clause condition: (_) @_c consequence: (block) @ignore)
   (module (assert_statement . (_) @_c) [(_) (ERROR)] @ignore)
   (block (assert_statement . (_) @_c) [(_) (ERROR)] @ignore)])
  (#static-false? @_c)
  (#set! index.skip "a static condition: the index keeps both branches"))
(([(if_statement condition: (_) @_c alternative: (_) @ignore)
   (if_statement (elif_clause condition: (_) @_c) (_) @ignore)
   (block (if_statement condition: (_) @_c consequence: (block [(return_statement) (raise_statement)] .) !alternative) [(_) (ERROR)] @ignore)
   (module (if_statement condition: (_) @_c consequence: (block [(return_statement) (raise_statement)] .) !alternative) [(_) (ERROR)] @ignore)])
  (#static-true? @_c)
  (#set! index.skip "a static condition: the index keeps both branches"))

; --- Names that belong to another scope, or whose chosen declaration pyright hides. ---
; `global x` / `nonlocal x`: bindings of `x` after it in that function are not its locals.
((block [(global_statement (identifier) @_g) (nonlocal_statement (identifier) @_g)]
   [(expression_statement [(assignment left: (identifier) @_n @skip) (augmented_assignment left: (identifier) @_n @skip)])
    (for_statement left: [(identifier) @_n @skip (pattern_list (identifier) @_n @skip)]) (_ (block (expression_statement [(assignment left: (identifier) @_n @skip) (augmented_assignment left: (identifier) @_n @skip)])))])
  (#eq? @_g @_n) (#set! index.skip "locals only: the index drops a function's locals"))

; A parameter named `self` or `cls` is never listed, and a later assignment to it is the same
; (hidden) symbol: `cls = super().__new__(cls)`, `cls = cls or Command` (`def command(cls=None)`).
((function_definition
   parameters: (parameters [(identifier) @_p (typed_parameter . (identifier) @_p) (default_parameter name: (identifier) @_p) (typed_default_parameter name: (identifier) @_p)])
   body: (block [(expression_statement [(assignment left: (identifier) @_n @skip) (augmented_assignment left: (identifier) @_n @skip)]) (_ (block (expression_statement [(assignment left: (identifier) @_n @skip) (augmented_assignment left: (identifier) @_n @skip)])))]))
  (#any-of? @_p "self" "cls") (#eq? @_p @_n)
  (#set! index.skip "locals only: the index drops a function's locals"))

; An import is the first declaration of its names, and imports are never listed: a name imported
; in a `try` whose `except` assigns a fallback (`ssl = None`) stays hidden.
((try_statement body: (block [(import_statement name: [(dotted_name . (identifier) @_i) (aliased_import alias: (identifier) @_i)]) (import_from_statement name: [(dotted_name . (identifier) @_i .) (aliased_import alias: (identifier) @_i)])]) (except_clause (block (expression_statement [(assignment left: (identifier) @_n @skip !type) (assignment left: (pattern_list (identifier) @_n @skip))]))))
  (#eq? @_i @_n))
; The same for an `if` that imports a name and an `else` that assigns it (`if PY34: from
; importlib.util import spec_from_loader` `else: spec_from_loader = None`): whatever the
; condition, the import is pyright's first declaration. (The same holds for a plain assignment
; after an import in one block, but a pattern with unanchored siblings in a module costs
; hundreds of milliseconds on a large file.)
; (Only `else: name = …`: each alternative here costs milliseconds to compile.)
((if_statement
   consequence: (block [(import_statement name: [(dotted_name . (identifier) @_i) (aliased_import alias: (identifier) @_i)]) (import_from_statement name: [(dotted_name . (identifier) @_i .) (aliased_import alias: (identifier) @_i)])])
   alternative: (else_clause body: (block (expression_statement (assignment left: (identifier) @_n @skip !type)))))
  (#eq? @_i @_n))

; Names pyright predefines in a module (`__path__ = []`, `__package__ = __name__`) are hidden
; when the module assigns them (at its top level; under an `if` too for pyright, not here); a
; class or function may list them.
((module (expression_statement (assignment left: (identifier) @_n @skip)))
  (#any-of? @_n "__name__" "__qualname__" "__loader__" "__package__" "__spec__" "__path__" "__file__" "__cached__" "__dict__" "__annotations__" "__builtins__"))

; A `try`'s `else` is bound before its `except` clauses. Of a name both declare, the `else`
; binding comes first (a plain assignment there wins) and the `except` definition last (a def or
; class there wins; the `else` one goes with all it holds).
((try_statement
   (except_clause (block (expression_statement (assignment left: (identifier) @_a @skip !type))))
   (else_clause body: (block (expression_statement (assignment left: (identifier) @_b !type)))))
  (#eq? @_a @_b))
((try_statement
   (except_clause (block [(function_definition name: (identifier) @_a) (class_definition name: (identifier) @_a) (decorated_definition definition: [(function_definition name: (identifier) @_a) (class_definition name: (identifier) @_a)])]))
   (else_clause body: (block [(function_definition name: (identifier) @_b) @ignore (class_definition name: (identifier) @_b) @ignore (decorated_definition definition: [(function_definition name: (identifier) @_b) (class_definition name: (identifier) @_b)]) @ignore])))
  (#eq? @_a @_b) (#set! index.skip "a hidden definition: the index keeps every def"))

; Names pyright predefines are hidden even when assigned: `__doc__` (module and class),
; `__module__` and `__qualname__` (class). See the exclusion lists of the variable patterns.
; (`__name__`, `__file__`, … are predefined at module level only; assigning them is rare.)

; --- Classes (a decorated one starts at its first decorator). ---
; Like pyright, a class or def ends at its last statement: trailing comments do not count.
((decorated_definition definition: (class_definition name: (identifier) @name) @skip) @symbol.class
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))
((class_definition name: (identifier) @name) @symbol.class
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))

; --- Methods: defs whose nearest enclosing scope is a class body, even under if/try/with there
; (and two `if`s deep). ---
((class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method))
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))
((class_definition body: (block (function_definition name: (identifier) @name) @symbol.method))
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))
((class_definition body: (block [
   (if_statement consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (if_statement alternative: (else_clause body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (if_statement alternative: (elif_clause consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (try_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (try_statement (except_clause (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (with_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (if_statement consequence: (block (if_statement consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))))
   (if_statement consequence: (block (if_statement alternative: (else_clause body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))))]))
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))

; --- Functions everywhere else (module level, nested in functions). ---
((decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.function
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))
((function_definition name: (identifier) @name) @symbol.function
  (#set! merge "typed") (#set! index.merge "none") (#set! range.trim "comment"))

; --- Parameters: Variables spanning the whole parameter (`*args: str`, `timeout: float = 1`).
; `self`, `cls` and `_` are never listed; lambda parameters (`lambda_parameters`) neither. ---
((parameters (identifier) @name @symbol.variable)
  (#not-any-of? @name "self" "cls" "_") (#set! merge "first")
  (#set! index.skip "parameters: the index drops a function's locals"))
((parameters [(default_parameter name: (identifier) @name)
              (list_splat_pattern (identifier) @name)
              (dictionary_splat_pattern (identifier) @name)] @symbol.variable)
  (#not-any-of? @name "self" "cls" "_") (#set! merge "first")
  (#set! index.skip "parameters: the index drops a function's locals"))
((parameters [(typed_parameter . (identifier) @name)
              (typed_parameter (list_splat_pattern (identifier) @name))
              (typed_parameter (dictionary_splat_pattern (identifier) @name))
              (typed_default_parameter name: (identifier) @name)] @symbol.variable)
  (#not-any-of? @name "self" "cls" "_") (#set! merge "typed")
  (#set! index.skip "parameters: the index drops a function's locals"))

; --- Members: `self.x = …` in a method declares `x` in the class. The symbol spans `x` and is
; hoisted out of the method into the class. `self.__doc__` and the like join the class's hidden
; predefined names. ---
; Not members: `self.x` directly in a function nested in another function.
((function_definition body: (block (function_definition body: (block (expression_statement (assignment left: (attribute object: (identifier) @_o attribute: (identifier) @skip)))))))
  (#eq? @_o "self"))
; Not members: `self.x` in a function whose first parameter is not `self` (`self` is a local
; there, as in `__new__`: `self = object.__new__(cls)`), directly in its body or one block down.
((function_definition
   parameters: (parameters . [(identifier) @_p (typed_parameter . (identifier) @_p) (default_parameter name: (identifier) @_p) (typed_default_parameter name: (identifier) @_p)])
   body: (block [(expression_statement (assignment left: (attribute object: (identifier) @_o attribute: (identifier) @skip)))
                 (_ (block (expression_statement (assignment left: (attribute object: (identifier) @_o attribute: (identifier) @skip)))))]))
  (#eq? @_o "self") (#not-eq? @_p "self"))
; `cls.x` counts only in a method whose first parameter is `cls` (classmethods, `__new__`,
; `__init_subclass__`, metaclass methods), directly in its body or one block down; elsewhere
; (decorators) it declares nothing.
((class_definition body: (block [(function_definition parameters: (parameters . [(identifier) @_p (typed_parameter . (identifier) @_p)]) body: (block [(expression_statement [(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable)) (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))]) (_ (block (expression_statement [(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable)) (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))])))]))
                                 (decorated_definition definition: (function_definition parameters: (parameters . [(identifier) @_p (typed_parameter . (identifier) @_p)]) body: (block [(expression_statement [(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable)) (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))]) (_ (block (expression_statement [(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable)) (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))])))])))]))
  (#eq? @_p "cls") (#eq? @_o "cls") (#not-any-of? @name "__doc__" "__module__" "__qualname__") (#set! hoist "true"))
; `self.x: Final = …` is a Constant like any Final variable; `Final[T]` carries a type, so it
; wins over the class's other declarations of `x` as below (a `__slots__` entry included).
((assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant)
   type: (type [(identifier) @_t (attribute attribute: (identifier) @_t)]))
  (#eq? @_o "self") (#eq? @_t "Final") (#set! hoist "true"))
((assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant)
   type: (type [(generic_type . (identifier) @_t) (subscript value: (attribute attribute: (identifier) @_t))]))
  (#eq? @_o "self") (#eq? @_t "Final") (#set! hoist "true") (#set! merge "typed"))
; An annotated `self.x: T = …` is a typed declaration: it wins over the class's other
; declarations of `x`, `__slots__` entries included (pyright places such a slot there).
((assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant) type: (_))
  (#eq? @_o "self") (#not-any-of? @name "__doc__" "__module__" "__qualname__") (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! hoist "true") (#set! merge "typed"))
((assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable) type: (_))
  (#eq? @_o "self") (#not-any-of? @name "__doc__" "__module__" "__qualname__") (#set! hoist "true") (#set! merge "typed"))
([(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
  (pattern_list (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))]
  (#eq? @_o "self") (#not-any-of? @name "__doc__" "__module__" "__qualname__") (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! hoist "true"))
([(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
  (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
  (for_statement left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
  (as_pattern_target (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
  (pattern_list (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
  (tuple_pattern (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
  (list_pattern (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))]
  (#eq? @_o "self") (#not-any-of? @name "__doc__" "__module__" "__qualname__") (#set! hoist "true"))

; --- `__slots__ = ('a', 'b')` (a tuple, list or single string, or a dict's keys) declares each
; slot, spanning its string literal (`__dict__` and `__doc__` excepted). pyright loses them when a
; class follows in the same class body: binding a class resets its slots list. ---
((class_definition body: (block (expression_statement (assignment left: (identifier) @_s right: [(tuple (string (string_content) @name) @symbol.constant)
           (list (string (string_content) @name) @symbol.constant)
           (dictionary (pair key: (string (string_content) @name) @symbol.constant))]))))
  (#eq? @_s "__slots__") (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! merge "first"))
((class_definition body: (block (expression_statement (assignment left: (identifier) @_s right: [(tuple (string (string_content) @name) @symbol.variable)
           (list (string (string_content) @name) @symbol.variable)
           (dictionary (pair key: (string (string_content) @name) @symbol.variable))
           (expression_list (string (string_content) @name) @symbol.variable)
           (string (string_content) @name) @symbol.variable]))))
  (#eq? @_s "__slots__") (#not-any-of? @name "__dict__" "__doc__") (#set! merge "first"))
((block (expression_statement (assignment left: (identifier) @_s right: [(tuple) (list) (expression_list) (dictionary)] @ignore))
   (class_definition))
  (#eq? @_s "__slots__"))

; --- Annotated assignments (`x: int = 1`, `x: int`). `Final` makes a Constant; a bare `Final`
; carries no type, so it does not win a merge. ---
((assignment left: (identifier) @name @symbol.constant type: (type [(identifier) @_t (attribute attribute: (identifier) @_t)]))
  (#eq? @_t "Final") (#set! merge "first"))
((assignment left: (identifier) @name @symbol.constant type: (type [(generic_type . (identifier) @_t) (subscript value: (attribute attribute: (identifier) @_t))]))
  (#eq? @_t "Final") (#set! merge "typed"))
((assignment left: (identifier) @name @symbol.constant type: (type (string) @_t))
  (#match? @_t "^.(typing\\.)?Final\\b") (#set! merge "typed"))
((assignment left: (identifier) @name @symbol.constant type: (_))
  (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! merge "typed"))
((assignment left: (identifier) @name @symbol.variable type: (_))
  (#not-any-of? @name "_" "__doc__" "__module__" "__qualname__") (#set! merge "typed"))

; --- `type X = …`: a Variable, whatever its name. ---
((type_alias_statement left: (type [(identifier) @name @symbol.variable (generic_type . (identifier) @name @symbol.variable)]))
  (#set! merge "typed"))

; --- Plain bindings, each bound name separately: assignment and augmented assignment targets,
; `for` targets, walrus, `with … as` / `except … as`, unpacking (`a, (b, *c) = …`), and
; match-statement captures (bare names, `*rest`, `**rest`, keyword values, `… as name`). ---
([(assignment left: (identifier) @name @symbol.constant)
  (augmented_assignment left: (identifier) @name @symbol.constant)
  (for_statement left: (identifier) @name @symbol.constant)
  (named_expression name: (identifier) @name @symbol.constant)
  (as_pattern_target (identifier) @name @symbol.constant)
  (as_pattern_target [(tuple (identifier) @name @symbol.constant) (list (identifier) @name @symbol.constant)])
  (pattern_list (identifier) @name @symbol.constant) (tuple_pattern (identifier) @name @symbol.constant) (list_pattern (identifier) @name @symbol.constant)
  (pattern_list (list_splat_pattern (identifier) @name @symbol.constant)) (tuple_pattern (list_splat_pattern (identifier) @name @symbol.constant)) (list_pattern (list_splat_pattern (identifier) @name @symbol.constant))
  (case_pattern (dotted_name . (identifier) @name @symbol.constant .))
  (keyword_pattern (dotted_name . (identifier) @name @symbol.constant .))
  (splat_pattern (identifier) @name @symbol.constant)
  (case_pattern (as_pattern (identifier) @name @symbol.constant))]
  (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! merge "first"))
([(assignment left: (identifier) @name @symbol.variable)
  (augmented_assignment left: (identifier) @name @symbol.variable)
  (for_statement left: (identifier) @name @symbol.variable)
  (named_expression name: (identifier) @name @symbol.variable)
  (as_pattern_target (identifier) @name @symbol.variable)
  (as_pattern_target [(tuple (identifier) @name @symbol.variable) (list (identifier) @name @symbol.variable)])
  (pattern_list (identifier) @name @symbol.variable) (tuple_pattern (identifier) @name @symbol.variable) (list_pattern (identifier) @name @symbol.variable)
  (pattern_list (list_splat_pattern (identifier) @name @symbol.variable)) (tuple_pattern (list_splat_pattern (identifier) @name @symbol.variable)) (list_pattern (list_splat_pattern (identifier) @name @symbol.variable))
  (case_pattern (dotted_name . (identifier) @name @symbol.variable .))
  (keyword_pattern (dotted_name . (identifier) @name @symbol.variable .))
  (splat_pattern (identifier) @name @symbol.variable)
  (case_pattern (as_pattern (identifier) @name @symbol.variable))]
  (#not-any-of? @name "_" "__doc__" "__module__" "__qualname__") (#set! merge "first"))
