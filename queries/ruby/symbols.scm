; Symbols for Ruby.
;
; The target is Ruby LSP's document symbols (lib/ruby_lsp/listeners/document_symbol.rb): modules,
; classes, `class << self` blocks, methods, constants, and instance and class variable writes.

; --- Namespaces: named as written (`Store::Report`). `class << self` is a Namespace `<< self`. ---
(module name: (_) @name) @symbol.module
(class name: (_) @name) @symbol.class
((singleton_class value: (_) @name) @symbol.namespace (#set! name "<< {name}"))

; --- Methods. `def self.x` is a Function named `self.x`, and so is any def directly inside
; `class << self`; `initialize` is the Constructor. ---
((singleton_method object: (self) name: (_) @name) @symbol.function (#set! name "self.{name}"))
(singleton_class body: (body_statement (method name: (_) @name) @symbol.function))
((method name: (_) @name) @symbol.constructor (#eq? @name "initialize"))
(method name: (_) @name) @symbol.method
; `alias new_name old_name` declares a Method.
(alias name: (identifier) @name @symbol.method)

; --- Constants: `NAME = …`, `Outer::NAME = …`, also with `||=` and other operators. ---
(assignment left: [(constant) (scope_resolution)] @name) @symbol.constant
(operator_assignment left: [(constant) (scope_resolution)] @name) @symbol.constant

; --- Instance variables are Fields and class variables Variables, at each write; their range is
; the name only, as Ruby LSP gives it. ---
(assignment left: (instance_variable) @name @symbol.field)
(operator_assignment left: (instance_variable) @name @symbol.field)
(assignment left: (left_assignment_list (instance_variable) @name @symbol.field))
(assignment left: (class_variable) @name @symbol.variable)
(operator_assignment left: (class_variable) @name @symbol.variable)
