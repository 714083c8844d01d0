; Symbols for C++.
;
; The target is clangd's document outline (FindSymbols.cpp, kinds as its Protocol.cpp maps them):
; every named declaration outside function bodies: namespaces, classes (Class), structs (Struct),
; unions (Class), enums with their enumerators, methods, constructors and destructors
; (Constructor), fields, functions (definitions and prototypes), global variables, typedefs and
; `using` aliases (Class). clangd has no symbols for `#define`; they are added here (object-like
; macros Constant, function-like Function) as they hold code a cursor can be in.
; The C patterns are repeated here (queries/c/symbols.scm), with C++'s additions.

; --- clangd never looks inside a function body: no locals, lambdas or local types. ---
(compound_statement) @ignore

; --- A template's range starts at `template <…>`. ---
(template_declaration (_) @range.extend) @range.start

; --- Namespaces ---
(namespace_definition name: (_) @name) @symbol.namespace
((namespace_definition !name) @symbol.namespace (#set! name "(anonymous namespace)"))

; --- Macros. The directive node runs on to the next line, so the range is `#define` to the end
; of the value (or of the name or parameters, when there is no value). ---
(preproc_def "#define" @range.start name: (_) @name value: (_) @symbol.constant) @skip
(preproc_function_def "#define" @range.start name: (_) @name value: (_) @symbol.function) @skip
(preproc_def "#define" @range.start name: (_) @name @symbol.constant !value) @skip
(preproc_function_def "#define" @range.start name: (_) @name parameters: (_) @symbol.function !value) @skip

; --- Functions. The name sits under the declarator, which a pointer or reference return type wraps. ---
; In a class body (templates too): destructors and constructors (no return type) are
; Constructors, the other functions Methods.
(field_declaration_list [(function_definition declarator: [(function_declarator declarator: (destructor_name) @name) (pointer_declarator declarator: (function_declarator declarator: (destructor_name) @name)) (reference_declarator (function_declarator declarator: (destructor_name) @name))]) @symbol.constructor (declaration declarator: [(function_declarator declarator: (destructor_name) @name) (pointer_declarator declarator: (function_declarator declarator: (destructor_name) @name)) (reference_declarator (function_declarator declarator: (destructor_name) @name))]) @symbol.constructor (field_declaration declarator: [(function_declarator declarator: (destructor_name) @name) (pointer_declarator declarator: (function_declarator declarator: (destructor_name) @name)) (reference_declarator (function_declarator declarator: (destructor_name) @name))]) @symbol.constructor (template_declaration [(function_definition declarator: [(function_declarator declarator: (destructor_name) @name) (pointer_declarator declarator: (function_declarator declarator: (destructor_name) @name)) (reference_declarator (function_declarator declarator: (destructor_name) @name))]) @symbol.constructor (declaration declarator: [(function_declarator declarator: (destructor_name) @name) (pointer_declarator declarator: (function_declarator declarator: (destructor_name) @name)) (reference_declarator (function_declarator declarator: (destructor_name) @name))]) @symbol.constructor (field_declaration declarator: [(function_declarator declarator: (destructor_name) @name) (pointer_declarator declarator: (function_declarator declarator: (destructor_name) @name)) (reference_declarator (function_declarator declarator: (destructor_name) @name))]) @symbol.constructor])])
(field_declaration_list [(function_definition !type declarator: [(function_declarator declarator: (identifier) @name) (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) (reference_declarator (function_declarator declarator: (identifier) @name))]) @symbol.constructor (declaration !type declarator: [(function_declarator declarator: (identifier) @name) (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) (reference_declarator (function_declarator declarator: (identifier) @name))]) @symbol.constructor (template_declaration [(function_definition !type declarator: [(function_declarator declarator: (identifier) @name) (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) (reference_declarator (function_declarator declarator: (identifier) @name))]) @symbol.constructor (declaration !type declarator: [(function_declarator declarator: (identifier) @name) (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) (reference_declarator (function_declarator declarator: (identifier) @name))]) @symbol.constructor])])
(field_declaration_list [(function_definition declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.method (declaration declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.method (field_declaration declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.method (template_declaration [(function_definition declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.method (declaration declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.method (field_declaration declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.method])])
; Out of line (`Circle::area`), named with the qualifier as clangd prints it. `A::A` and `A::~A`
; are Constructors; a qualified free function (`ns::f`) cannot be told from a method here.
((function_definition declarator: [(function_declarator declarator: (qualified_identifier scope: (_) @_scope name: (identifier) @_n) @name) (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @_scope name: (identifier) @_n) @name)) (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @_scope name: (identifier) @_n) @name))]) @symbol.constructor
  (#eq? @_scope @_n))
(function_definition declarator: [(function_declarator declarator: (qualified_identifier name: (destructor_name)) @name) (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (destructor_name)) @name)) (reference_declarator (function_declarator declarator: (qualified_identifier name: (destructor_name)) @name))]) @symbol.constructor
(function_definition declarator: [(function_declarator declarator: (qualified_identifier) @name) (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier) @name)) (reference_declarator (function_declarator declarator: (qualified_identifier) @name))]) @symbol.method
; Free functions, definitions and prototypes.
(function_definition declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.function
(declaration declarator: [(function_declarator declarator: (_) @name) (pointer_declarator declarator: (function_declarator declarator: (_) @name)) (reference_declarator (function_declarator declarator: (_) @name))]) @symbol.function


; --- Typedefs of a struct, union or enum body: one symbol, the tag type, named by its tag or, when
; it has none, by the typedef name (`typedef struct {…} queue;` is Struct queue). ---
(type_definition type: (class_specifier name: (_) @name body: (_)) @skip) @symbol.class
(type_definition type: (struct_specifier name: (_) @name body: (_)) @skip) @symbol.struct
(type_definition type: (struct_specifier body: (_)) @skip declarator: (type_identifier) @name) @symbol.struct
(type_definition type: (union_specifier name: (_) @name body: (_)) @skip) @symbol.class
(type_definition type: (union_specifier body: (_)) @skip declarator: (type_identifier) @name) @symbol.class
(type_definition type: (enum_specifier name: (_) @name body: (_)) @skip) @symbol.enum
(type_definition type: (enum_specifier body: (_)) @skip declarator: (type_identifier) @name) @symbol.enum
; Other typedefs, function pointer types included, are Classes (clangd's TypeAlias).
(type_definition declarator: [
  (type_identifier) @name
  (pointer_declarator declarator: (type_identifier) @name)
  (array_declarator declarator: (type_identifier) @name)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  (function_declarator declarator: (type_identifier) @name)]) @symbol.class

; `using Name = …;` is a type alias too.
(alias_declaration name: (_) @name) @symbol.class

; --- Tag types with a body; a specialization is named with its arguments (`Point<int>`). ---
(class_specifier name: (_) @name body: (_)) @symbol.class
(struct_specifier name: (_) @name body: (_)) @symbol.struct
(union_specifier name: (_) @name body: (_)) @symbol.class
(enum_specifier name: (_) @name body: (_)) @symbol.enum
(enumerator name: (_) @name) @symbol.enum_member

; Fields and global (and namespace) variables, one symbol per declarator: queries/_c.
; inherits: _c
