; Symbols for C#.
;
; The target is the VS Code C# extension (Roslyn's navigation bar items, as its LSP server
; reports them), plus namespaces as OmniSharp showed them: types, their members and enum
; members; no locals or local functions. Members are named as Roslyn displays them: parameter
; types only (`CompareTo(Order?)`, `this[int]`, `operator +(Money, Money)`), type parameters by
; name (`List<T>`, `Map<T>(T)`).

; --- Namespaces. A file-scoped namespace (`namespace A.B;`) holds the rest of the file. ---
(namespace_declaration name: (_) @name) @symbol.namespace
((file_scoped_namespace_declaration name: (_) @name) @symbol.namespace (#set! level "1"))

; --- Types. A record is a Class, a `record struct` a Struct. Type parameters by arity, as below. ---
((class_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((class_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((class_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
(class_declaration name: (_) @name) @symbol.class
((struct_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.struct (#set! name "{name}<{_tp}>"))
((struct_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.struct (#set! name "{name}<{_tp}>"))
((struct_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .)) @symbol.struct (#set! name "{name}<{_tp}>"))
(struct_declaration name: (_) @name) @symbol.struct
((interface_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.interface (#set! name "{name}<{_tp}>"))
((interface_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.interface (#set! name "{name}<{_tp}>"))
((interface_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .)) @symbol.interface (#set! name "{name}<{_tp}>"))
(interface_declaration name: (_) @name) @symbol.interface
((record_declaration "struct" name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.struct (#set! name "{name}<{_tp}>"))
((record_declaration "struct" name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.struct (#set! name "{name}<{_tp}>"))
((record_declaration "struct" name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .)) @symbol.struct (#set! name "{name}<{_tp}>"))
(record_declaration "struct" name: (_) @name) @symbol.struct
((record_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((record_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
((record_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .)) @symbol.class (#set! name "{name}<{_tp}>"))
(record_declaration name: (_) @name) @symbol.class
(enum_declaration name: (_) @name) @symbol.enum

; --- Methods, constructors, operators, indexers and delegates (Roslyn shows a delegate as a Method).
; Quantified captures (`(parameter)* @_pt`) yield one match per repetition, of which the first
; wins, so each arity has its own pattern (same-named captures in one match are joined by ", ");
; an empty list is matched by its text, longer lists end in `(…)`. `params T[] x` parses outside
; a parameter node, so such a method falls back to `(…)`. ---
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list) @_empty) @symbol.method (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}<{_tp}>()"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((method_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list) @_empty) @symbol.method (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}<{_tp}>()"))
((method_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((method_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((method_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((method_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((method_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((method_declaration name: (_) @name parameters: (parameter_list) @_empty) @symbol.method (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}()"))
((method_declaration name: (_) @name) @symbol.method (#set! name "{name}(…)"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) . (type_parameter name: (_) @_tp) .) parameters: (parameter_list) @_empty) @symbol.method (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}<{_tp}>()"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}<{_tp}>({_pt})"))
((delegate_declaration name: (_) @name (type_parameter_list . (type_parameter name: (_) @_tp) .) parameters: (parameter_list) @_empty) @symbol.method (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}<{_tp}>()"))
((delegate_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((delegate_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((delegate_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((delegate_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((delegate_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.method
  (#set! name "{name}({_pt})"))
((delegate_declaration name: (_) @name parameters: (parameter_list) @_empty) @symbol.method (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}()"))
((delegate_declaration name: (_) @name) @symbol.method (#set! name "{name}(…)"))
((constructor_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.constructor
  (#set! name "{name}({_pt})"))
((constructor_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.constructor
  (#set! name "{name}({_pt})"))
((constructor_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.constructor
  (#set! name "{name}({_pt})"))
((constructor_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.constructor
  (#set! name "{name}({_pt})"))
((constructor_declaration name: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.constructor
  (#set! name "{name}({_pt})"))
((constructor_declaration name: (_) @name parameters: (parameter_list) @_empty) @symbol.constructor (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{name}()"))
((constructor_declaration name: (_) @name) @symbol.constructor (#set! name "{name}(…)"))
((destructor_declaration "~" @_tilde name: (_) @name parameters: (parameter_list) @_empty) @symbol.constructor (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "{_tilde}{name}()"))
((destructor_declaration "~" @_tilde name: (_) @name) @symbol.constructor (#set! name "{_tilde}{name}(…)"))
((operator_declaration operator: _ @name parameters: (parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.operator
  (#set! name "operator {name}({_pt})"))
((operator_declaration operator: _ @name parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.operator
  (#set! name "operator {name}({_pt})"))
((operator_declaration operator: _ @name parameters: (parameter_list) @_empty) @symbol.operator (#match? @_empty "^[(\\[][ ]*[)\\]]$")
  (#set! name "operator {name}()"))
((operator_declaration operator: _ @name) @symbol.operator (#set! name "operator {name}(…)"))
((conversion_operator_declaration ["implicit" "explicit"] @_conv type: (_) @name parameters: (parameter_list . (parameter type: (_) @_pt) .)) @symbol.operator
  (#set! name "{_conv} operator {name}({_pt})"))
((conversion_operator_declaration ["implicit" "explicit"] @_conv type: (_) @name) @symbol.operator (#set! name "{_conv} operator {name}(…)"))
((indexer_declaration "this" @name parameters: (bracketed_parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.property
  (#set! name "this[{_pt}]"))
((indexer_declaration "this" @name parameters: (bracketed_parameter_list . (parameter type: (_) @_pt) . (parameter type: (_) @_pt) .)) @symbol.property
  (#set! name "this[{_pt}]"))
((indexer_declaration "this" @name parameters: (bracketed_parameter_list . (parameter type: (_) @_pt) .)) @symbol.property
  (#set! name "this[{_pt}]"))
((indexer_declaration "this" @name) @symbol.property (#set! name "this[…]"))

; --- Properties, fields, constants and events. `int a, b;` is one symbol per declarator. ---
(property_declaration name: (_) @name) @symbol.property
((field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (_) @name) @symbol.constant . ","))
  (#eq? @_const "const"))
((field_declaration (modifier) @_const (variable_declaration "," . (variable_declarator name: (_) @name) @symbol.constant))
  (#eq? @_const "const"))
(field_declaration (variable_declaration (variable_declarator name: (_) @name) @symbol.field . ","))
(field_declaration (variable_declaration "," . (variable_declarator name: (_) @name) @symbol.field))
(event_field_declaration (variable_declaration (variable_declarator name: (_) @name) @symbol.event . ","))
(event_field_declaration (variable_declaration "," . (variable_declarator name: (_) @name) @symbol.event))
(field_declaration (variable_declaration ",")) @skip
(event_field_declaration (variable_declaration ",")) @skip
((field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (_) @name))) @symbol.constant
  (#eq? @_const "const"))
(field_declaration (variable_declaration (variable_declarator name: (_) @name))) @symbol.field
(event_field_declaration (variable_declaration (variable_declarator name: (_) @name))) @symbol.event
(event_declaration name: (_) @name) @symbol.event

(enum_member_declaration name: (_) @name) @symbol.enum_member

; --- Nothing inside attributes is a symbol. ---
(attribute_list) @ignore
