; Symbols for C.
;
; The target is clangd's document outline (FindSymbols.cpp, kinds as its Protocol.cpp maps them):
; every named declaration outside function bodies: functions (definitions and prototypes),
; structs (Struct), unions (Class), enums with their constants, fields, global variables and
; typedefs (Class). clangd has no symbols for `#define`; they are added here (object-like
; macros Constant, function-like Function) as they hold code a cursor can be in.

; --- clangd never looks inside a function body: no locals, no local types. ---
(compound_statement) @ignore

; --- Macros. The directive node runs on to the next line, so the range is `#define` to the end
; of the value (or of the name or parameters, when there is no value). ---
(preproc_def "#define" @range.start name: (_) @name value: (_) @symbol.constant) @skip
(preproc_function_def "#define" @range.start name: (_) @name value: (_) @symbol.function) @skip
(preproc_def "#define" @range.start name: (_) @name @symbol.constant !value) @skip
(preproc_function_def "#define" @range.start name: (_) @name parameters: (_) @symbol.function !value) @skip

; --- Functions: the name sits under the declarator, which a pointer return type wraps. ---
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @symbol.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @symbol.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @symbol.function
(declaration declarator: (function_declarator declarator: (identifier) @name)) @symbol.function
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @symbol.function

; --- Typedefs of a struct, union or enum body: one symbol, the tag type, named by its tag or, when
; it has none, by the typedef name (`typedef struct {…} queue;` is Struct queue). ---
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

; --- Tag types with a body. ---
(struct_specifier name: (_) @name body: (_)) @symbol.struct
(union_specifier name: (_) @name body: (_)) @symbol.class
(enum_specifier name: (_) @name body: (_)) @symbol.enum
(enumerator name: (_) @name) @symbol.enum_member

; Fields and global (and namespace) variables, one symbol per declarator: queries/_c.
; inherits: _c
