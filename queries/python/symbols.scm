; Python document symbols, as pyright's language server reports them (what VS Code shows).
;
; pyright lists the symbol table of every module, class and function scope: one symbol per name
; and scope (see `merge`), never the names of lambda, comprehension or type-parameter scopes, never
; imports. Classes and functions span their whole definition (from the first decorator); every
; other symbol spans its name only. Order matters: the first pattern that makes a symbol of a node
; wins, so specific patterns come before general ones.
;
; Kinds: a def directly in a class body (also under if/try/with there) is a Method, any other def a
; Function. A variable whose name is ALL_CAPS (`^[A-Z0-9_]+$`, not only underscores) or whose
; annotation is `Final` is a Constant; parameters and `type X = …` aliases are always Variables.
;
; Merging (pyright keeps one declaration per name): definitions, annotated assignments and
; annotated parameters are "typed" (the last one wins); plain bindings are "first".

; --- Not symbols: nothing bound inside these belongs to the scope being listed. ---
; Comprehension variables live in the comprehension's own scope.
(for_in_clause left: (_) @ignore)
; Decorator arguments bind nothing worth listing.
(decorator) @ignore

; --- Unreachable code: pyright does not bind it, so it declares nothing (the enclosing def still
; spans it). Statements after return/raise/continue/break in the same block: ---
(block [(return_statement) (raise_statement) (continue_statement) (break_statement)] (_) @ignore)
; Branches that are statically false: `sys.version_info < (3, N)` for any N up to 11 (pyright
; assumes a current Python), the else of `>=`, the else of `if TYPE_CHECKING`, and
; `sys.platform == "win32"` / `"darwin"` (the reference ran on Linux).
((if_statement condition: (comparison_operator (attribute object: (identifier) @_s attribute: (identifier) @_v) "<" (tuple . (integer) @_major . (integer) @_minor)) consequence: (block) @ignore)
  (#eq? @_s "sys") (#eq? @_v "version_info") (#eq? @_major "3") (#match? @_minor "^([0-9]|1[01])$"))
((if_statement condition: (comparison_operator (attribute object: (identifier) @_s attribute: (identifier) @_v) ">=" (tuple . (integer) @_major . (integer) @_minor)) alternative: (else_clause) @ignore)
  (#eq? @_s "sys") (#eq? @_v "version_info") (#eq? @_major "3") (#match? @_minor "^([0-9]|1[01])$"))
((if_statement condition: [(identifier) @_tc (attribute attribute: (identifier) @_tc)] alternative: (else_clause) @ignore)
  (#eq? @_tc "TYPE_CHECKING"))
((if_statement condition: (comparison_operator (attribute object: (identifier) @_s attribute: (identifier) @_v) "==" (string (string_content) @_p)) consequence: (block) @ignore)
  (#eq? @_s "sys") (#eq? @_v "platform") (#any-of? @_p "win32" "darwin" "cygwin"))
((if_statement condition: (comparison_operator (attribute object: (identifier) @_s attribute: (identifier) @_v) "!=" (string (string_content) @_p)) alternative: (else_clause) @ignore)
  (#eq? @_s "sys") (#eq? @_v "platform") (#any-of? @_p "win32" "darwin" "cygwin"))

; --- `global x` / `nonlocal x`: later bindings of `x` in that block belong to another scope. ---
((block [(global_statement (identifier) @_g) (nonlocal_statement (identifier) @_g)]
   (expression_statement [(assignment left: (identifier) @_n @skip) (augmented_assignment left: (identifier) @_n @skip)]))
  (#eq? @_g @_n))

; --- Classes (decorated ones start at the first decorator). ---
((decorated_definition definition: (class_definition name: (identifier) @name) @skip) @symbol.class
  (#set! merge "typed"))
((class_definition name: (identifier) @name) @symbol.class
  (#set! merge "typed"))

; --- Methods: a def whose nearest enclosing scope is a class body, even under if/try/with/for. ---
((class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method))
  (#set! merge "typed"))
((class_definition body: (block (function_definition name: (identifier) @name) @symbol.method))
  (#set! merge "typed"))
((class_definition body: (block [
   (if_statement consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (if_statement alternative: (else_clause body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (if_statement alternative: (elif_clause consequence: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (try_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (try_statement (except_clause (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (try_statement (else_clause body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (try_statement (finally_clause (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method])))
   (with_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (for_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))
   (while_statement body: (block [(function_definition name: (identifier) @name) @symbol.method (decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.method]))]))
  (#set! merge "typed"))

; --- Functions everywhere else (module level, nested in functions). ---
((decorated_definition definition: (function_definition name: (identifier) @name) @skip) @symbol.function
  (#set! merge "typed"))
((function_definition name: (identifier) @name) @symbol.function
  (#set! merge "typed"))

; --- Parameters: Variables spanning the whole parameter (`*args: str`, `timeout: float = 1`).
; `self`, `cls` and `_` are never listed; lambda parameters (`lambda_parameters`) are not either.
((parameters (identifier) @name @symbol.variable)
  (#not-any-of? @name "self" "cls" "_") (#set! merge "first"))
((parameters [(default_parameter name: (identifier) @name)
              (list_splat_pattern (identifier) @name)
              (dictionary_splat_pattern (identifier) @name)] @symbol.variable)
  (#not-any-of? @name "self" "cls" "_") (#set! merge "first"))
((parameters [(typed_parameter . (identifier) @name)
              (typed_parameter (list_splat_pattern (identifier) @name))
              (typed_parameter (dictionary_splat_pattern (identifier) @name))
              (typed_default_parameter name: (identifier) @name)] @symbol.variable)
  (#not-any-of? @name "self" "cls" "_") (#set! merge "typed"))

; --- `self.x = …` in a method declares `x` in the class: hoisted out of the method, spanning `x`.
; Only `self`: `cls.x = …` is as often found in plain functions (decorators), where it declares
; nothing. `self.x: Final = …` is a Constant like any Final variable.
((assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant)
   type: (type [(identifier) @_t (attribute attribute: (identifier) @_t) (generic_type . (identifier) @_t)]))
  (#eq? @_o "self") (#eq? @_t "Final") (#set! hoist "true"))
(([(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
   (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
   (for_statement left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
   (as_pattern_target (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
   (pattern_list (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
   (tuple_pattern (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))
   (list_pattern (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.constant))])
  (#eq? @_o "self") (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! hoist "true"))
(([(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
   (augmented_assignment left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
   (for_statement left: (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
   (as_pattern_target (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
   (pattern_list (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
   (tuple_pattern (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))
   (list_pattern (attribute object: (identifier) @_o attribute: (identifier) @name @symbol.variable))])
  (#eq? @_o "self") (#set! hoist "true"))

; --- `__slots__ = ('a', 'b')` declares each slot, spanning its string literal. ---
((class_definition body: (block (expression_statement (assignment left: (identifier) @_s
   right: [(tuple (string (string_content) @name) @symbol.variable)
           (list (string (string_content) @name) @symbol.variable)
           (parenthesized_expression (string (string_content) @name) @symbol.variable)
           (string (string_content) @name) @symbol.variable]))))
  (#eq? @_s "__slots__") (#set! merge "first"))

; --- Annotated assignments (`x: int = 1`, `x: int`). `Final` makes a Constant; a bare `Final`
; carries no type, so it does not win a merge. ---
((assignment left: (identifier) @name @symbol.constant type: (type [(identifier) @_t (attribute attribute: (identifier) @_t)]))
  (#eq? @_t "Final") (#set! merge "first"))
((assignment left: (identifier) @name @symbol.constant type: (type (generic_type . (identifier) @_t)))
  (#eq? @_t "Final") (#set! merge "typed"))
((assignment left: (identifier) @name @symbol.constant type: (type (string) @_t))
  (#match? @_t "^.(typing\\.)?Final\\b") (#set! merge "typed"))
((assignment left: (identifier) @name @symbol.constant type: (_))
  (#match? @name "^[A-Z0-9_]*[A-Z0-9][A-Z0-9_]*$") (#set! merge "typed"))
((assignment left: (identifier) @name @symbol.variable type: (_))
  (#not-any-of? @name "_" "__doc__" "__name__" "__qualname__" "__module__" "__file__" "__loader__" "__package__" "__spec__" "__path__" "__cached__" "__annotations__" "__dict__" "__builtins__")
  (#set! merge "typed"))

; --- `type X = …`: a Variable, whatever its name. ---
((type_alias_statement left: (type [(identifier) @name @symbol.variable (generic_type . (identifier) @name @symbol.variable)]))
  (#set! merge "typed"))

; --- Plain bindings: each bound name separately, spanning the name. ---
([(assignment left: (identifier) @name @symbol.constant)
  (augmented_assignment left: (identifier) @name @symbol.constant)
  (for_statement left: (identifier) @name @symbol.constant)
  (named_expression name: (identifier) @name @symbol.constant)
  (as_pattern_target (identifier) @name @symbol.constant)
  (as_pattern_target [(tuple (identifier) @name @symbol.constant) (list (identifier) @name @symbol.constant)])
  (pattern_list (identifier) @name @symbol.constant) (tuple_pattern (identifier) @name @symbol.constant) (list_pattern (identifier) @name @symbol.constant)
  (pattern_list (list_splat_pattern (identifier) @name @symbol.constant)) (tuple_pattern (list_splat_pattern (identifier) @name @symbol.constant)) (list_pattern (list_splat_pattern (identifier) @name @symbol.constant))
  ; match-statement captures: bare names, `*rest`, `**rest`, keyword values, `… as name`
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
  (#not-any-of? @name "_" "__doc__" "__name__" "__qualname__" "__module__" "__file__" "__loader__" "__package__" "__spec__" "__path__" "__cached__" "__annotations__" "__dict__" "__builtins__")
  (#set! merge "first"))
