; Symbols for Go.
;
; The target is gopls's document symbols (golang/symbols.go): package-level declarations only,
; methods at top level named after their receiver, `(*T).Name`, struct fields and interface
; methods as children of their type. Nothing inside a function body is a symbol.

; --- Functions and methods ---
(function_declaration name: (_) @name) @symbol.function
; gopls prints the receiver's type expression: `(*Stack[T]).Push`, `(HandlerFunc).Serve`.
((method_declaration receiver: (parameter_list (parameter_declaration type: (_) @_recv)) name: (_) @name) @symbol.method
  (#set! name "({_recv}).{name}"))

; --- Types: the kind follows the type expression (gopls's typeDetails), Class for the rest. ---
(type_spec name: (_) @name type: (struct_type)) @symbol.struct
(type_spec name: (_) @name type: (interface_type)) @symbol.interface
(type_spec name: (_) @name type: (function_type)) @symbol.function
(type_spec name: (_) @name) @symbol.class
(type_alias name: (_) @name type: (struct_type)) @symbol.struct
(type_alias name: (_) @name type: (interface_type)) @symbol.interface
(type_alias name: (_) @name type: (function_type)) @symbol.function
(type_alias name: (_) @name) @symbol.class

; --- Struct fields (in any struct type, so an anonymous struct's fields nest under their field). ---
; `X, Y int`: gopls makes one symbol per name over the same range; a range holds one symbol
; here, so each name is a symbol of its own extent and the declaration none.
(field_declaration name: (_) @name @symbol.field . ",")
(field_declaration "," . name: (_) @name @symbol.field)
(field_declaration name: (_) ",") @skip
(field_declaration_list (field_declaration name: (_) @name) @symbol.field)
; An embedded field is named by its type's identifier: `sync.Mutex` → Mutex, `*Base` → Base.
(field_declaration_list (field_declaration !name type: [(type_identifier) @name (qualified_type name: (_) @name)]) @symbol.field)
(field_declaration_list (field_declaration !name type: (pointer_type [(type_identifier) @name (qualified_type name: (_) @name)])) @symbol.field)
(field_declaration_list (field_declaration !name type: (generic_type type: [(type_identifier) @name (qualified_type name: (_) @name)])) @symbol.field)

; --- Interface methods; an embedded interface is a Field named by its type. ---
(interface_type (method_elem name: (_) @name) @symbol.method)
(interface_type (type_elem [(type_identifier) @name (qualified_type name: (_) @name)]) @symbol.field)

; --- Package-level constants and variables: one symbol per name, the range is the spec.
; With several names (`var a, b = 1, 2`) each name is a symbol of its own extent, as for fields. ---
(source_file (const_declaration (const_spec name: (_) @name @symbol.constant . ",")))
(source_file (const_declaration (const_spec "," . name: (_) @name @symbol.constant)))
(const_spec name: (_) ",") @skip
(source_file (var_declaration (var_spec name: (_) @name @symbol.variable . ",")))
(source_file (var_declaration (var_spec "," . name: (_) @name @symbol.variable)))
(source_file (var_declaration (var_spec_list (var_spec name: (_) @name @symbol.variable . ","))))
(source_file (var_declaration (var_spec_list (var_spec "," . name: (_) @name @symbol.variable))))
(var_spec name: (_) ",") @skip
(source_file (const_declaration (const_spec name: (_) @name) @symbol.constant))
(source_file (var_declaration (var_spec name: (_) @name) @symbol.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (_) @name) @symbol.variable)))
