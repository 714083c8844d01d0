; Python definitions for the workspace index (`symbol_search`): `symbols.scm`'s patterns, run by
; the same engine, so every symbol found here has the kind and container chain the editor's
; outline gives at that place. What differs is deliberate, and makes the index both cheaper to
; build and more inclusive than pyright's outline (a definition an agent wants to find is found
; even where pyright does not list it):
;
; - No unreachable-code rules: definitions after `return`/`raise`, in branches a static condition
;   (`sys.platform`, `sys.version_info`, `TYPE_CHECKING`) rules out, and in a `try`'s `else`
;   beside an `except` definition of the same name are indexed. (The regular expressions those
;   rules test on every `if` were a third of the build's query time.)
; - Classes, functions and methods do not merge by name: every definition stays (both branches
;   of an `if`, a property's getter and setter, a redefinition), each with its own lines.
;   Variables still merge as in the editor (one per name and scope).
; - No parameters, and no rules that only hide a function's locals (`global x`, a reassigned
;   `self`/`cls`): the index drops whatever is declared in a function body unless it is a
;   definition, so these only cost time.
;
; `crates/locus-index` tests that on every corpus file each symbol the editor's query gives the
; index is also given, identically, by this file; and (`tests/index_query.rs`) that every pattern
; here is a pattern of `symbols.scm`, in its order, less `merge "typed"`, and that every pattern
; of `symbols.scm` left out is on that test's list of exclusions with its reason. A rule changed
; in `symbols.scm` fails that test until this file follows it or the list says why not.

; --- Never symbols. ---
; Comprehension variables live in the comprehension's own scope.
(for_in_clause left: (_) @ignore)
(decorator) @ignore

; --- Names whose chosen declaration pyright hides (module and class level). ---
; An import is the first declaration of its names, and imports are never listed: a name imported
; in a `try` whose `except` assigns a fallback (`ssl = None`) stays hidden.
((try_statement body: (block [(import_statement name: [(dotted_name . (identifier) @_i) (aliased_import alias: (identifier) @_i)]) (import_from_statement name: [(dotted_name . (identifier) @_i .) (aliased_import alias: (identifier) @_i)])]) (except_clause (block (expression_statement [(assignment left: (identifier) @_n @skip !type) (assignment left: (pattern_list (identifier) @_n @skip))]))))
  (#eq? @_i @_n))

; A `try`'s `else` is bound before its `except` clauses. Of a name both declare, the `else`
; binding comes first (a plain assignment there wins) and the `except` definition last (a def or
; class there wins; the `else` one goes with all it holds).
((try_statement
   (except_clause (block (expression_statement (assignment left: (identifier) @_a @skip !type))))
   (else_clause body: (block (expression_statement (assignment left: (identifier) @_b !type)))))
  (#eq? @_a @_b))

; Names pyright predefines are hidden even when assigned: `__doc__` (module and class),
; `__module__` and `__qualname__` (class). See the exclusion lists of the variable patterns.
; (`__name__`, `__file__`, … are predefined at module level only; assigning them is rare.)

; --- Classes (a decorated one starts at its first decorator). ---
; Like pyright, a class or def ends at its last statement: trailing comments do not count.
((decorated_definition definition: (class_definition name: (identifier) @name) @skip) @symbol.class
  (#set! range.trim "comment"))
((class_definition name: (identifier) @name) @symbol.class
  (#set! range.trim "comment"))

; --- Methods: defs whose nearest enclosing scope is a class body, even under if/try/with there. ---
((class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method))
  (#set! range.trim "comment"))
((class_definition body: (block (function_definition name: (identifier) @name) @symbol.method))
  (#set! range.trim "comment"))
((class_definition body: (block [
   (if_statement consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (if_statement alternative: (else_clause body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (if_statement alternative: (elif_clause consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (try_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (try_statement (except_clause (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (with_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))]))
  (#set! range.trim "comment"))

; --- Functions everywhere else (module level, nested in functions). ---
((decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.function
  (#set! range.trim "comment"))
((function_definition name: (identifier) @name) @symbol.function
  (#set! range.trim "comment"))

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
; `self.x: Final = …` is a Constant like any Final variable.
((assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant)
   type: (type [(identifier) @_t (attribute attribute: (identifier) @_t) (generic_type . (identifier) @_t) (subscript value: (attribute attribute: (identifier) @_t))]))
  (#eq? @_o "self") (#eq? @_t "Final") (#set! hoist "true"))
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
