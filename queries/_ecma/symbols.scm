; Patterns shared by JavaScript and TypeScript (private: never used on its own, never inherits).
;
; The target is VS Code's outline: TypeScript's navigation tree as VS Code's TypeScript
; extension converts it. Order matters: when several patterns make a symbol of the same node,
; the first one in the file wins, so specific patterns come before general ones.

; --- Declarations wrapped in `export` / `export default`: the range starts at `export`. ---
(export_statement declaration: (_) @range.extend) @range.start

; `export default function () {}`, `export default () => …`: a Function named "default".
((export_statement "default" value: [(function_expression) (arrow_function) (generator_function)] @skip) @symbol.function
  (#set! name "default"))
; `export default class {}`: a Class named "default".
((export_statement "default" value: (class !name) @skip) @symbol.class
  (#set! name "default"))
; `export default <anything else>`: a Variable named "default" holding what is inside.
((export_statement "default" value: (_)) @symbol.variable
  (#set! name "default"))
; tsserver walks only an object, a call or a function body there: `export default new Store({…})`
; holds nothing. (Kinds listed, not a wildcard, so that the pruned extraction knows an export
; reaches into nothing else: `as` and `satisfies` are in _typescript.)
(export_statement "default" value: [(new_expression) (parenthesized_expression) (array) (ternary_expression) (binary_expression) (await_expression) (member_expression) (subscript_expression)] @ignore)

; --- Classes ---
(class_declaration name: (_) @name) @symbol.class
(class name: (_) @name) @symbol.class
((class) @symbol.class (#set! name "<class>") (#set! keep "if-children"))

; --- Functions ---
; A function declaration declares a name that later `F.x = …` statements join (see `join`).
((function_declaration name: (_) @name) @symbol.function (#set! join "function"))
((generator_function_declaration name: (_) @name) @symbol.function (#set! join "function"))
; A function expression with its own name keeps it, wherever it stands.
(function_expression name: (_) @name) @symbol.function
(generator_function name: (_) @name) @symbol.function

; --- Members of classes and object literals ---
; A method whose computed name is neither a dotted name nor a literal (`[a + b]() {}`) is not in
; the navigation tree, nor anything inside it. Names are spelled as tsserver spells them: line
; breaks inside a computed name are dropped, other white space stays (`unbreak`).
((method_definition name: (computed_property_name) @_n) @ignore
  (#not-match? @_n "^\\[\\s*([A-Za-z_$][A-Za-z0-9_$]*(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)*|[0-9][0-9A-Za-z_.]*|'([^'\\\\]|\\\\.)*'|\"([^\"\\\\]|\\\\.)*\"|`[^`$]*`)\\s*\\]$"))
((method_definition "get" name: (_) @name) @symbol.property (#set! name "(get) {name}") (#set! name.normalize "unbreak"))
((method_definition "set" name: (_) @name) @symbol.property (#set! name "(set) {name}") (#set! name.normalize "unbreak"))
((method_definition name: (property_identifier) @_ctor) @symbol.constructor
  (#eq? @_ctor "constructor") (#set! name "constructor"))
((method_definition name: (_) @name) @symbol.method (#set! name.normalize "unbreak"))

; Object literal members, in any object literal (call arguments, returns, arrays, …).
((pair key: (_) @name value: [(arrow_function) (function_expression) (generator_function)] @skip) @symbol.method (#set! name.normalize "unbreak"))
((pair key: (_) @name value: (class) @skip) @symbol.property (#set! name.normalize "unbreak"))
((pair key: (_) @name) @symbol.property (#set! name.normalize "unbreak"))
(object (shorthand_property_identifier) @name @symbol.property)
(object (spread_element (identifier) @name) @symbol.property)
((object (spread_element) @symbol.property) (#set! name "<unknown>"))
; What a spread holds is not walked.
(object (spread_element (_) @ignore))

; --- Variables: the range runs from the name to the end of the initializer. ---
; A function or class initializer makes no symbol of its own: its insides belong to the variable.
(variable_declarator name: (identifier) value: [(arrow_function) (function_expression) (generator_function) (class)] @skip)
((variable_declarator name: (identifier) @name) @symbol.variable (#set! join "value"))
; Destructuring: one Variable per bound name.
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))
(variable_declarator name: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name) @symbol.variable))
(variable_declarator name: (object_pattern (pair_pattern value: (identifier) @name) @symbol.variable))
(variable_declarator name: (object_pattern (pair_pattern value: (assignment_pattern left: (identifier) @name)) @symbol.variable))
(variable_declarator name: (object_pattern (pair_pattern value: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))))
(variable_declarator name: (object_pattern (pair_pattern value: (array_pattern (identifier) @name @symbol.variable))))
(variable_declarator name: (object_pattern (rest_pattern (identifier) @name) @symbol.variable))
(variable_declarator name: (array_pattern (identifier) @name @symbol.variable))
(variable_declarator name: (array_pattern (assignment_pattern left: (identifier) @name) @symbol.variable))
(variable_declarator name: (array_pattern (rest_pattern (identifier) @name) @symbol.variable))
; A destructuring assignment (`({ a, b: c } = x)`) is an object literal to tsserver: Properties.
(assignment_expression left: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.property))
(assignment_expression left: (object_pattern (pair_pattern key: (_) @name) @symbol.property))
(catch_clause parameter: (identifier) @name @symbol.variable)
(for_in_statement kind: _ left: (array_pattern (identifier) @name @symbol.variable))
(for_in_statement kind: _ left: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))
(for_in_statement kind: _ left: (object_pattern (pair_pattern value: (identifier) @name) @symbol.variable))
; A destructuring declaration's initializer is not walked.
(variable_declarator name: [(object_pattern) (array_pattern)] value: (_) @ignore)
(for_in_statement kind: _ left: (identifier) @name @symbol.variable)

;

; --- Static members of an ES5 class: after `function F() {}`, `F.s = function () {}` and `F.t = 1`
; belong to a class F (tsserver's navigation tree; `join` in queries/README.md). The group spans
; the statement without its `;`; the member inside is the function, or `F.t` named "t". With no
; function F declared before, the function stays on its own and a value is no symbol. ---
((expression_statement
   (assignment_expression
     left: (member_expression object: (identifier) @name property: (property_identifier) @_n)
     right: [(arrow_function) (function_expression)])) @symbol.class
  (#not-eq? @_n "prototype") (#not-any-of? @name "exports" "module")
  (#set! range.trim ";") (#set! join "static") (#set! join.else "unwrap"))
((expression_statement
   (assignment_expression
     left: (member_expression object: (identifier) @name property: (property_identifier) @_n))) @symbol.class
  (#not-eq? @_n "prototype") (#not-any-of? @name "exports" "module")
  (#set! range.trim ";") (#set! join "static") (#set! join.else "unwrap"))
(assignment_expression left: (member_expression object: (identifier)) @skip right: [(arrow_function) (function_expression)])
; Element access joins the same way (`F['del'] = function`, `F[k] = function`, `F[0] = 1`): any
; index with a function, only a literal index with a value, named by its text (`'del'`, `0`).
((expression_statement
   (assignment_expression
     left: (subscript_expression object: (identifier) @name)
     right: [(arrow_function) (function_expression)])) @symbol.class
  (#not-any-of? @name "exports" "module")
  (#set! range.trim ";") (#set! join "static") (#set! join.else "unwrap"))
((expression_statement
   (assignment_expression
     left: (subscript_expression object: (identifier) @name index: [(string) (number) (template_string)]))) @symbol.class
  (#not-any-of? @name "exports" "module")
  (#set! range.trim ";") (#set! join "static") (#set! join.else "unwrap"))
(assignment_expression left: (subscript_expression object: (identifier)) @skip right: [(arrow_function) (function_expression)])
((expression_statement
   (assignment_expression
     left: (subscript_expression object: (identifier) @_o index: [(string) (number) (template_string)] @name) @symbol.variable))
  (#not-any-of? @_o "exports" "module"))
((expression_statement
   (assignment_expression
     left: (member_expression object: (identifier) @_o property: (property_identifier) @name) @symbol.variable))
  (#not-eq? @name "prototype") (#not-any-of? @_o "exports" "module"))

; --- Assigned functions: `x.y = function () {}` is named "y", `x = () => {}` is named "x". ---
; Each names a function the `<function>` pattern below finds, one level up (`root.up`), written
; with wildcards and `#kind-eq?`: as `(assignment_expression …)` and `(binary_expression …)`
; (kinds found in most of the grammar's states) these six cost a third of the TypeScript
; query's compilation.
((_ left: (_ property: (_) @_n) @_left right: (_) @symbol.function) @_op
  (#kind-eq? @_op "assignment_expression") (#kind-eq? @_left "member_expression")
  (#kind-eq? @symbol.function "arrow_function" "function_expression" "generator_function")
  (#set! name "{_n}") (#set! root.up "1"))
((_ left: (_ index: (_) @_n) @_left right: (_) @symbol.function) @_op
  (#kind-eq? @_op "assignment_expression") (#kind-eq? @_left "subscript_expression") (#kind-eq? @_n "string" "number")
  (#kind-eq? @symbol.function "arrow_function" "function_expression" "generator_function")
  (#set! name "{_n}") (#set! root.up "1"))
((_ left: (_ index: (_) @_n) @_left right: (_) @symbol.function) @_op
  (#kind-eq? @_op "assignment_expression") (#kind-eq? @_left "subscript_expression")
  (#kind-eq? @symbol.function "arrow_function" "function_expression" "generator_function")
  (#set! name "[{_n}]") (#set! root.up "1"))
((_ left: (_) @_n right: (_) @symbol.function) @_op
  (#kind-eq? @_op "assignment_expression") (#kind-eq? @_n "identifier")
  (#kind-eq? @symbol.function "arrow_function" "function_expression" "generator_function")
  (#set! name "{_n}") (#set! root.up "1"))
; The right operand of any other binary expression is named the same way (`a.reduce || function () {}`).
((_ left: (_ property: (_) @_n) @_left right: (_) @symbol.function) @_op
  (#kind-eq? @_op "binary_expression") (#kind-eq? @_left "member_expression")
  (#kind-eq? @symbol.function "arrow_function" "function_expression" "generator_function")
  (#set! name "{_n}") (#set! root.up "1"))
((_ left: (_) @_n right: (_) @symbol.function) @_op
  (#kind-eq? @_op "binary_expression") (#kind-eq? @_n "identifier")
  (#kind-eq? @symbol.function "arrow_function" "function_expression" "generator_function")
  (#set! name "{_n}") (#set! root.up "1"))

; --- Callbacks: a function passed to a call is "<callee>(<string arguments>) callback", every
; string or template argument, before or after the function, cut at 150 characters. ---
; The callee is the dotted name before the call (`this.items.forEach` → `items.forEach`); a
; callee that ends in a call or an index gives no name, and the function is "<function>".
; Searched for everywhere, a pattern rooted at every call is slow (it stays alive through each
; call's arguments): it is tried only two levels above the functions the next pattern finds.
((call_expression function: [(identifier) (member_expression)] @_callee
   arguments: (arguments [(string) (template_string)]* @_args [(arrow_function) (function_expression) (generator_function)] @symbol.function [(string) (template_string)]* @_args))
  (#match? @_callee "[A-Za-z0-9_$]$") (#set! name "{_callee:path}({_args:clip}) callback") (#set! name.normalize "unbreak")
  (#set! root.up "2"))

; --- Any other function expression (IIFE, JSX handler, `new X(() => …)`): shown only with children. ---
(([(arrow_function) (function_expression) (generator_function)]) @symbol.function
  (#set! name "<function>") (#set! keep "if-children"))

;

; --- JSDoc `@typedef` and `@callback` tags are Variables: from the tag to the end of its name, or
; to the comment's `*/` when `@property` / `@param` tags follow (they belong to the type). Only
; in `/**` comments before a statement the navigation tree walks (a variable, an expression, an
; import…), not before a function or class declaration, nor at the end of the file. ---
; (The statement kinds are a predicate, not an alternation: after `(comment)*` an alternation
; multiplies the states the query keeps alive at every comment.)
((comment) @symbol.variable . (comment)* . (_) @_next
  (#kind-eq? @_next "lexical_declaration" "variable_declaration" "expression_statement" "import_statement"
   "if_statement" "for_statement" "for_in_statement" "while_statement" "do_statement" "return_statement"
   "throw_statement" "try_statement" "switch_statement" "statement_block" "labeled_statement")
  (#match? @symbol.variable "^/[*][*]") (#match? @symbol.variable "@(typedef|callback)")
  (#set! text.match "(?s)@(?:typedef(?:[ \\t]*\\{(?:[^{}]|\\{(?:[^{}]|\\{[^{}]*\\})*\\})*\\})?|callback)[ \\t]+(?P<name>[A-Za-z_$][\\w$.]*)(?:\\s*\\*?\\s*@(?:property|prop|param|arg|argument|returns?|template|this)\\b(?:[^*]|\\*[^/])*)?"))
((comment) @symbol.variable . (comment)* .
  [(export_statement declaration: [(lexical_declaration) (variable_declaration)]) (export_statement !declaration !value)]
  (#match? @symbol.variable "^/[*][*]") (#match? @symbol.variable "@(typedef|callback)")
  (#set! text.match "(?s)@(?:typedef(?:[ \\t]*\\{(?:[^{}]|\\{(?:[^{}]|\\{[^{}]*\\})*\\})*\\})?|callback)[ \\t]+(?P<name>[A-Za-z_$][\\w$.]*)(?:\\s*\\*?\\s*@(?:property|prop|param|arg|argument|returns?|template|this)\\b(?:[^*]|\\*[^/])*)?"))

; --- Not walked by the navigation tree: nothing inside these becomes a symbol. ---
(decorator) @ignore
(class_heritage) @ignore
