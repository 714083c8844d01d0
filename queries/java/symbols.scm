; Symbols for Java.
;
; The target is the VS Code Java extension (Eclipse JDT LS, DocumentSymbolHandler): the package
; declaration, types, their members and anonymous classes, named by JavaElementLabels with
; ALL_DEFAULT: methods and constructors carry their parameter types (`add(T, int)`), generic types
; and methods their type parameters (`Box<T>`, `of(T) <T>`). No locals, lambdas or initializers.

; --- A Javadoc comment belongs to the declaration after it (JDT's full range includes it). ---
((block_comment) @range.start . (_) @range.extend (#match? @range.start "^/\\*\\*"))

(package_declaration (_) @name) @symbol.package

; --- Types: interfaces and annotation types are Interfaces, enums Enums, classes and records
; Classes (JDT has no Struct). Type parameters are listed by name: `Pair<K, V>`.
; Quantified captures (`(type_parameter)+ @_tp`) yield one match per repetition, of which the
; first pattern's first match wins, so each arity has its own pattern (same-named captures
; within one match are joined by ", "); longer lists fall back to the bare name. ---
((class_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((class_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((class_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
(class_declaration name: (_) @name) @symbol.class
((interface_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .)) @symbol.interface (#set! name "{name}<{_tp}>"))
((interface_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .)) @symbol.interface (#set! name "{name}<{_tp}>"))
((interface_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .)) @symbol.interface (#set! name "{name}<{_tp}>"))
(interface_declaration name: (_) @name) @symbol.interface
((record_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((record_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((record_declaration name: (_) @name type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
(record_declaration name: (_) @name) @symbol.class
(annotation_type_declaration name: (_) @name) @symbol.interface
(enum_declaration name: (_) @name) @symbol.enum
; An anonymous class is shown where it is created, as JDT labels it: `new Runnable() {...}`
; (templates have no escape for braces, so the body's own brace tokens supply them).
((object_creation_expression type: (_) @_type (class_body "{" @_open "}" @_close)) @symbol.class
  (#set! name "new {_type}() {_open}...{_close}"))

; --- Methods and constructors: `name(ParamType, …)`, varargs as `Type...`, generic ones followed
; by ` <T>`. One pattern per arity, as for type parameters (up to five parameters and two type
; parameters; beyond that the name ends in `(…)`). An empty list is matched by its text. ---
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters) @_empty) @symbol.method (#eq? @_empty "()")
  (#set! name "{name}() <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((method_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters) @_empty) @symbol.method (#eq? @_empty "()")
  (#set! name "{name}() <{_tp}>"))
((method_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots})"))
((method_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots})"))
((method_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots})"))
((method_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots})"))
((method_declaration name: (_) @name parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.method
  (#set! name "{name}({_pt}{_dots})"))
((method_declaration name: (_) @name parameters: (formal_parameters) @_empty) @symbol.method (#eq? @_empty "()")
  (#set! name "{name}()"))
((method_declaration name: (_) @name) @symbol.method (#set! name "{name}(…)"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters) @_empty) @symbol.constructor (#eq? @_empty "()")
  (#set! name "{name}() <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots}) <{_tp}>"))
((constructor_declaration type_parameters: (type_parameters . (type_parameter . (type_identifier) @_tp) .) name: (_) @name parameters: (formal_parameters) @_empty) @symbol.constructor (#eq? @_empty "()")
  (#set! name "{name}() <{_tp}>"))
((constructor_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots})"))
((constructor_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots})"))
((constructor_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots})"))
((constructor_declaration name: (_) @name parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots})"))
((constructor_declaration name: (_) @name parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)) @symbol.constructor
  (#set! name "{name}({_pt}{_dots})"))
((constructor_declaration name: (_) @name parameters: (formal_parameters) @_empty) @symbol.constructor (#eq? @_empty "()")
  (#set! name "{name}()"))
((constructor_declaration name: (_) @name) @symbol.constructor (#set! name "{name}(…)"))
((record_declaration parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)
   body: (class_body (compact_constructor_declaration name: (_) @name) @symbol.constructor))
  (#set! name "{name}({_pt}{_dots})"))
((record_declaration parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)
   body: (class_body (compact_constructor_declaration name: (_) @name) @symbol.constructor))
  (#set! name "{name}({_pt}{_dots})"))
((record_declaration parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)
   body: (class_body (compact_constructor_declaration name: (_) @name) @symbol.constructor))
  (#set! name "{name}({_pt}{_dots})"))
((record_declaration parameters: (formal_parameters . (formal_parameter type: (_) @_pt) . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)
   body: (class_body (compact_constructor_declaration name: (_) @name) @symbol.constructor))
  (#set! name "{name}({_pt}{_dots})"))
((record_declaration parameters: (formal_parameters . [(formal_parameter type: (_) @_pt) (spread_parameter . (_) @_pt "..." @_dots)] .)
   body: (class_body (compact_constructor_declaration name: (_) @name) @symbol.constructor))
  (#set! name "{name}({_pt}{_dots})"))
((compact_constructor_declaration name: (_) @name) @symbol.constructor (#set! name "{name}()"))

((annotation_type_element_declaration name: (_) @name) @symbol.method
  (#set! name "{name}()"))

; --- Fields: `static final` ones are Constants (as JDT's mapKind), interface fields always are.
; `int a, b;` makes one symbol per declarator, each over its own declarator. ---
((field_declaration (modifiers) @_m (variable_declarator name: (_) @name) @symbol.constant . ",")
  (#match? @_m "\\bstatic\\b") (#match? @_m "\\bfinal\\b"))
((field_declaration (modifiers) @_m "," . (variable_declarator name: (_) @name) @symbol.constant)
  (#match? @_m "\\bstatic\\b") (#match? @_m "\\bfinal\\b"))
(field_declaration (variable_declarator name: (_) @name) @symbol.field . ",")
(field_declaration "," . (variable_declarator name: (_) @name) @symbol.field)
(field_declaration ",") @skip
((field_declaration (modifiers) @_m declarator: (variable_declarator name: (_) @name)) @symbol.constant
  (#match? @_m "\\bstatic\\b") (#match? @_m "\\bfinal\\b"))
(field_declaration declarator: (variable_declarator name: (_) @name)) @symbol.field
(constant_declaration (variable_declarator name: (_) @name) @symbol.constant . ",")
(constant_declaration "," . (variable_declarator name: (_) @name) @symbol.constant)
(constant_declaration ",") @skip
(constant_declaration declarator: (variable_declarator name: (_) @name)) @symbol.constant
; Record components are the record's fields.
(record_declaration parameters: (formal_parameters (formal_parameter name: (_) @name) @symbol.field))

(enum_constant name: (_) @name) @symbol.enum_member
